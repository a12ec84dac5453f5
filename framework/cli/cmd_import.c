/*
 * cmd_import.c - psolve import [--game samegame|watersort] PICTURE: print
 * the puzzle a screenshot shows, in the game's file format, with comments
 * on what was detected and how sure (docs/import.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "image.h"
#include "textfile.h"

int cmd_import(struct cli *c, const struct ps_game *g)
{
    char *data = NULL, *text = NULL;
    size_t len;
    struct ps_error err;
    ps_error_clear(&err);
    const char *path = c->files[0];
    if (!ps_read_file(path, &data, &len, &err))
        return cli_print_error(&err);
    bool ok = ps_image_sniff((const unsigned char *)data, len)
                  ? cli_import(path, cli_option_given(c, "game") ? g : NULL,
                               data, len, &text, &err)
                  : ps_error_set(&err, path, 0, 0,
                                 "not a PNG or JPEG picture (psolve import "
                                 "reads screenshots; a puzzle file is read "
                                 "as it is by every other command)");
    free(data);
    if (!ok)
        return cli_print_error(&err);
    fputs(text, stdout);
    free(text);
    return PS_EXIT_OK;
}
