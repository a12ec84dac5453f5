/*
 * outputs.c - the files a command line writes, checked before anything
 * runs: none may be a file the run reads (--html board.txt board.txt once
 * replaced the puzzle with the page), none may be written twice, and those
 * written by renaming a new file over the old (--checkpoint, --best-file)
 * must be regular files where they exist, or a device node such as
 * /dev/null would be replaced by a file.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

struct named_path {
    const char *option, *path;
};

/* Both name one existing file. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

static int collect_inputs(const struct cli *c, struct named_path *in, int max)
{
    int n = 0;
    for (int i = 0; i < c->nfiles && n < max; i++)
        if (strcmp(c->files[i], "-") != 0)
            in[n++] = (struct named_path){"a file argument", c->files[i]};
    for (int i = 0; i < c->nplugins && n < max; i++)
        in[n++] = (struct named_path){"--plugin", c->plugins[i]};
    /* --rules names a preset or a script; only a file that exists counts */
    struct stat st;
    if (c->rules_spec && n < max && stat(c->rules_spec, &st) == 0)
        in[n++] = (struct named_path){"--rules", c->rules_spec};
    return n;
}

int cli_check_outputs(const struct cli *c)
{
    const struct named_path out[] = {{"--html", c->html},
                                     {"--checkpoint", c->checkpoint},
                                     {"--best-file", c->best_file},
                                     {"--trace-json", c->trace_json}};
    enum { NOUT = sizeof out / sizeof out[0] };
    struct named_path in[64];
    int nin = collect_inputs(c, in, 64);
    char msg[160];
    for (int i = 0; i < NOUT; i++) {
        if (!out[i].path)
            continue;
        for (int k = 0; k < nin; k++)
            if (same_file(out[i].path, in[k].path)) {
                snprintf(msg, sizeof msg,
                         "%s %%s would overwrite %s, which this run reads: "
                         "write it to another file",
                         out[i].option, in[k].option);
                return cli_usage_error(msg, out[i].path);
            }
        for (int k = 0; k < i; k++)
            if (out[k].path && same_file(out[i].path, out[k].path)) {
                snprintf(msg, sizeof msg,
                         "%s %%s is also given to %s: one file per output",
                         out[i].option, out[k].option);
                return cli_usage_error(msg, out[i].path);
            }
        /* --resume F --checkpoint F goes on in the same file, on purpose */
        if (c->resume && i != 1 && same_file(out[i].path, c->resume)) {
            snprintf(msg, sizeof msg,
                     "%s %%s would overwrite the --resume file", out[i].option);
            return cli_usage_error(msg, out[i].path);
        }
    }
    const struct named_path renamed[] = {out[1], out[2]};
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (renamed[i].path && stat(renamed[i].path, &st) == 0 &&
            !S_ISREG(st.st_mode)) {
            snprintf(msg, sizeof msg,
                     "%s %%s is not a regular file (a directory or a device): "
                     "psolve replaces the file it writes there",
                     renamed[i].option);
            return cli_usage_error(msg, renamed[i].path);
        }
    }
    return -1;
}
