/*
 * fuzz_support.c - what the libFuzzer harnesses share (fuzz_support.h):
 * picking a game and rules from a byte, and the vtable oracles.
 */
#include "fuzz_support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "conformance.h"
#include "textfile.h"

void fuzz_pick(uint8_t byte, struct fuzz_pick *p)
{
    /* Every registered game: a new one is fuzzed without being named. */
    const struct ps_game *const *games = ps_game_list();
    int ngames = 0;
    while (games[ngames])
        ngames++;
    p->game = games[byte % ngames];
    int npresets = 0;
    for (const struct ps_preset *q = p->game->presets; q && q->name; q++)
        npresets++;
    int k = (byte / ngames) % (npresets + 1);
    p->preset = k ? p->game->presets[k - 1].name : NULL;
    size_t size = p->game->rules_size ? p->game->rules_size : 1;
    p->rules = calloc(1, size);
    struct ps_error err;
    ps_error_clear(&err);
    if (!p->rules || !ps_rules_preset(p->game, p->rules, p->preset, &err))
        fuzz_fail(p->game, "preset %s: %s", p->preset ? p->preset : "(default)",
                  err.msg);
}

void fuzz_pick_free(struct fuzz_pick *p)
{
    free(p->rules);
    p->rules = NULL;
}

void *fuzz_load(uint8_t byte, const void *file, size_t size,
                struct fuzz_pick *p)
{
    char *text;
    size_t len;
    p->rules = NULL;
    if (!fuzz_text("puzzle.txt", file, size, &text, &len))
        return NULL;
    fuzz_pick(byte, p);
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = p->game->load(p->rules, "fuzz", text, len, &err);
    free(text);
    if (!inst) {
        if (err.msg[0] == '\0')
            fuzz_fail(p->game, "load() failed without a message");
        fuzz_pick_free(p);
    }
    return inst;
}

void fuzz_fail(const struct ps_game *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "\nfuzz oracle failed (%s): ", g ? g->name : "-");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* The temporary files of this process, removed at exit. */
#define FUZZ_FILES_MAX 8
static char fuzz_paths[FUZZ_FILES_MAX][512];
static int fuzz_npaths;

static void fuzz_remove_files(void)
{
    for (int i = 0; i < fuzz_npaths; i++)
        unlink(fuzz_paths[i]);
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
    int i = 0;
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/psolve-fuzz-%ld-%s",
             dir && dir[0] ? dir : "/tmp", (long)getpid(), name);
    while (i < fuzz_npaths && strcmp(fuzz_paths[i], path) != 0)
        i++;
    if (i == fuzz_npaths) {
        if (fuzz_npaths == FUZZ_FILES_MAX)
            fuzz_fail(NULL, "more than %d temporary files", FUZZ_FILES_MAX);
        if (fuzz_npaths == 0)
            atexit(fuzz_remove_files);
        snprintf(fuzz_paths[fuzz_npaths++], sizeof path, "%s", path);
    }
    FILE *f = fopen(fuzz_paths[i], "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        fuzz_fail(NULL, "cannot write %s", fuzz_paths[i]);
    return fuzz_paths[i];
}

bool fuzz_text(const char *name, const void *data, size_t size, char **text,
               size_t *len)
{
    struct ps_error err;
    ps_error_clear(&err);
    return ps_read_text_file(fuzz_file(name, data, size), text, len, &err);
}

uint64_t fuzz_seed(const uint8_t *data, size_t size)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211ull;
    return h;
}

void fuzz_check_game(const struct ps_game *g, const void *rules,
                     const void *inst, int steps, uint64_t seed)
{
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_game_conforms(g, rules, inst, steps, seed, &err))
        fuzz_fail(g, "%s", err.msg);
}
