/*
 * cmd_import.c - psolve import [--game samegame|watersort] [--json] PICTURE:
 * print the puzzle a screenshot shows, in the game's file format, with
 * comments on what was detected and how sure (docs/import.md); --json adds
 * where it was seen in the picture (psolve serve draws on it).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "image.h"
#include "import.h"
#include "report.h"
#include "textfile.h"

/* {"game":G,"text":T,"picture":{"width":W,"height":H},"grid":{...} or
 * "tubes":{"boxes":[[x,y,w,h],...]},"colours":[null,"#rrggbb",...],
 * "unsure":[[a,b,confidence],...]}:
 * docs/import.md, "The JSON". */
static void print_json(const char *text, const struct ps_import_seen *seen)
{
    printf("{\"game\":\"%s\",\"text\":", seen->game);
    ps_json_string(stdout, text);
    printf(",\"picture\":{\"width\":%d,\"height\":%d}", seen->width,
           seen->height);
    if (seen->tubes) {
        printf(",\"tubes\":{\"boxes\":[");
        for (int t = 0; t < seen->tubes; t++)
            printf("%s[%d,%d,%d,%d]", t ? "," : "", seen->box[t][0],
                   seen->box[t][1], seen->box[t][2], seen->box[t][3]);
        printf("]}");
    } else {
        printf(",\"grid\":{\"rows\":%d,\"cols\":%d,\"x0\":%.1f,\"y0\":%.1f,"
               "\"pitch_x\":%.2f,\"pitch_y\":%.2f}",
               seen->rows, seen->cols, seen->x0, seen->y0, seen->pitch_x,
               seen->pitch_y);
    }
    printf(",\"colours\":[null"); /* by the value a cell or unit holds */
    for (int v = 1; v <= seen->colours; v++)
        printf(",\"#%02x%02x%02x\"", seen->rgb[v][0], seen->rgb[v][1], seen->rgb[v][2]);
    printf("]");
    printf(",\"unsure\":[");
    for (int i = 0; i < seen->nunsure; i++)
        printf("%s[%d,%d,%.2f]", i ? "," : "", seen->unsure[i][0],
               seen->unsure[i][1], (double)seen->unsure_confidence[i]);
    printf("]}\n");
}

int cmd_import(struct cli *c, const struct ps_game *g)
{
    char *data = NULL, *text = NULL;
    size_t len;
    struct ps_error err;
    ps_error_clear(&err);
    const char *path = c->files[0];
    struct ps_import_seen *seen = malloc(sizeof *seen);
    if (!seen)
        ps_error_set(&err, path, 0, 0, "out of memory");
    if (!seen || !ps_read_file(path, &data, &len, &err)) {
        free(seen);
        return cli_print_error(&err);
    }
    bool ok = ps_image_sniff((const unsigned char *)data, len)
                  ? cli_import(path, cli_option_given(c, "game") ? g : NULL,
                               data, len, &text, seen, &err)
                  : ps_error_set(&err, path, 0, 0,
                                 "not a PNG or JPEG picture (psolve import "
                                 "reads screenshots; a puzzle file is read "
                                 "as it is by every other command)");
    free(data);
    if (ok && c->json)
        print_json(text, seen);
    else if (ok)
        fputs(text, stdout);
    free(seen);
    free(text);
    return ok ? PS_EXIT_OK : cli_print_error(&err);
}
