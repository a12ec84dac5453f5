/*
 * cmd_pdb.c - `psolve pdb build`: make a game's pattern databases ahead of
 * the searches that read them (pdb.h), with the memory estimate checked
 * first and progress on stderr; and the pattern sets' lines of psolve list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pdb.h"
#include "rules.h"
#include "search.h"
#include "textfile.h"

void cli_list_pattern_sets(FILE *out, const struct ps_game *g)
{
    for (const struct ps_pattern_set *p = g->abstraction ? g->abstraction->sets
                                                         : NULL;
         p && p->name; p++)
        fprintf(out, "    %-17s %-14s %s\n", p->name, "[admissible]", p->doc);
}

/* An instance to build for: the file, else one the game generates with the
 * --rows/--cols... options (only its shape matters). */
static void *pdb_instance(const struct ps_game *g, const void *rules,
                          const char *file, const struct ps_gen_options *gen,
                          struct ps_error *err)
{
    char *text = NULL;
    size_t len = 0;
    const char *path = file ? file : "(generated)";
    if (file) {
        if (!ps_read_text_file(file, &text, &len, err))
            return NULL;
    } else {
        if (!g->generate) {
            ps_error_set(err, NULL, 0, 0,
                         "game %s cannot generate a puzzle: give a puzzle "
                         "file of the size to build for",
                         g->name);
            return NULL;
        }
        FILE *mem = open_memstream(&text, &len);
        bool ok = mem && g->generate(gen, mem, err);
        if (mem)
            fclose(mem);
        if (!ok) {
            free(text);
            return NULL;
        }
    }
    void *inst = g->load(rules, path, text, len, err);
    free(text);
    return inst;
}

/* Build (or find) one set's tables; false with err. */
static bool pdb_build_set(const struct ps_game *g, const void *inst,
                          const struct ps_pattern_set *set,
                          uint64_t max_memory, struct ps_error *err)
{
    uint64_t tables, build;
    if (!ps_pdb_estimate(g, inst, set, &tables, &build, err))
        return false;
    fprintf(stderr,
            "pdb: %s: tables at most %.1f MB, a build needs about %.1f MB "
            "more (--max-memory %.0f MB)\n",
            set->name, (double)tables / 1e6, (double)build / 1e6,
            (double)max_memory / 1e6);
    if (max_memory && tables + build > max_memory)
        return ps_error_set(err, NULL, 0, 0,
                            "%s: building needs about %.0f MB, over "
                            "--max-memory (%.0f MB)",
                            set->name, (double)(tables + build) / 1e6,
                            (double)max_memory / 1e6);
    struct ps_pdb_options opt = {.max_memory = max_memory, .progress = true};
    struct ps_pdb_stats st;
    struct ps_pdb *pdb = ps_pdb_get(g, inst, set, &opt, &st, err);
    if (!pdb)
        return false;
    printf("%s: %d built (%.1f s), %d read from the cache, %.1f MB\n",
           set->name, st.built, st.build_seconds, st.loaded,
           (double)st.bytes / 1e6);
    ps_pdb_free(pdb);
    return true;
}

/* psolve pdb build [PUZZLE]: c->files[0] is "build"; --heuristic names the
 * sets (none: every set that fits the puzzle); without a PUZZLE the game
 * generates one with gen's options. */
int cmd_pdb(struct cli *c, const struct ps_game *g)
{
    struct ps_error err;
    ps_error_clear(&err);
    const char *const *files = c->files;
    int nfiles = c->nfiles;
    const char *heuristics = c->heuristics;
    uint64_t max_memory = c->limits.max_memory;
    if (nfiles < 1 || strcmp(files[0], "build") != 0 || nfiles > 2) {
        fprintf(stderr, "psolve: usage: psolve pdb build --game NAME "
                        "[--heuristic pdb:SET,...] [PUZZLE | --rows N]\n");
        return PS_EXIT_USAGE;
    }
    if (!g->abstraction) {
        fprintf(stderr, "psolve: game %s has no pattern databases\n", g->name);
        return PS_EXIT_USAGE;
    }
    void *rules;
    int rc = cli_gen_rules(c, g, &rules);
    if (rc >= 0)
        return rc;
    void *inst = pdb_instance(g, rules, nfiles == 2 ? files[1] : NULL, &c->gen,
                              &err);
    free(rules);
    if (!inst)
        return cli_print_error(&err);
    char dir[512];
    if (ps_pdb_cache_dir(dir, sizeof dir) && dir[0])
        printf("cache: %s\n", dir);
    else
        printf("cache: none (the tables last for this run only)\n");
    bool ok = true;
    int built = 0;
    if (heuristics) {
        char list[256];
        snprintf(list, sizeof list, "%s", heuristics);
        for (char *save = NULL, *h = strtok_r(list, ",", &save); ok && h;
             h = strtok_r(NULL, ",", &save)) {
            const struct ps_pattern_set *set = ps_pdb_find_set(g, h);
            if (!set)
                ok = ps_error_set(&err, NULL, 0, 0,
                                  "game %s has no pattern set '%s' (psolve "
                                  "list shows them)",
                                  g->name, h);
            else
                ok = pdb_build_set(g, inst, set, max_memory, &err);
            built += ok;
        }
    } else {
        /* Every set that fits this instance. */
        for (const struct ps_pattern_set *set = g->abstraction->sets;
             ok && set->name; set++) {
            uint64_t tables, build;
            struct ps_error skip;
            if (!ps_pdb_estimate(g, inst, set, &tables, &build, &skip))
                continue;
            ok = pdb_build_set(g, inst, set, max_memory, &err);
            built += ok;
        }
    }
    g->free_instance(inst);
    if (ok && built == 0)
        ok = ps_error_set(&err, NULL, 0, 0,
                          "no pattern set of game %s fits this puzzle",
                          g->name);
    if (!ok) {
        char buf[1024];
        ps_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "psolve: pdb build: %s\n", buf);
        return ps_interrupted ? PS_EXIT_INTERRUPTED : PS_EXIT_ERROR;
    }
    return PS_EXIT_OK;
}
