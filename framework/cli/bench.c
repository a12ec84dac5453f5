/*
 * bench.c - psolve bench: random playouts per second on generated boards of
 * the game's sizes, one line per size (bench.h).
 */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

#include "playout.h"
#include "search.h"

/* "rows=15 cols=15 colors=5": the size's values by the game's names. */
static void size_label(const struct ps_game *g, const struct ps_gen_options *o,
                       char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; g->gen_options && g->gen_options[i].name && k < len; i++) {
        int v = o->value[(g->gen_options[i].offset - PS_GEN_VALUE(0)) /
                         sizeof(int)];
        if (v)
            k += (size_t)snprintf(buf + k, len - k, "%s%s=%d", k ? " " : "",
                                  g->gen_options[i].name, v);
    }
}

/* Generate the instance text for `o` in memory and load it. */
static void *bench_instance(const struct ps_game *g, const void *rules,
                            const struct ps_gen_options *o,
                            struct ps_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        ps_error_set(err, NULL, 0, 0, "out of memory");
        return NULL;
    }
    bool ok = g->generate(o, mem, err);
    fclose(mem);
    void *inst = ok ? g->load(rules, "(generated)", text, len, err) : NULL;
    free(text);
    return inst;
}

bool ps_bench_playouts(FILE *out, const struct ps_game *g, const void *rules,
                       double seconds, uint64_t seed,
                       const struct ps_gen_options *only, struct ps_error *err)
{
    if (!(seconds > 0))
        return ps_error_set(err, NULL, 0, 0,
                            "the benchmark needs a time over 0 seconds");
    if (!g->generate || (!g->bench_sizes && !only))
        return ps_error_set(err, NULL, 0, 0, "game %s has no benchmark sizes",
                            g->name);
    /* `only` (the gen options given): that one size, then stop. */
    const struct ps_gen_options *sizes = only ? only : g->bench_sizes;
    for (const struct ps_gen_options *size = sizes;
         size == sizes || (!only && size->value[0]); size++) {
        struct ps_rng rng;
        ps_rng_seed(&rng, seed);
        uint64_t playouts = 0, moves = 0;
        double start = ps_now(), now = start;
        /* A fresh board every 100 playouts, so one lucky board cannot skew
         * the figure. */
        for (uint64_t board = 0; now - start < seconds; board++) {
            struct ps_gen_options o = *size;
            o.seed = seed + board;
            void *inst = bench_instance(g, rules, &o, err);
            if (!inst)
                return false;
            struct ps_playout p;
            if (!ps_playout_init(&p, g, inst)) {
                g->free_instance(inst);
                return ps_error_set(err, NULL, 0, 0, "out of memory");
            }
            unsigned char *start_state = malloc(g->state_size(inst));
            if (!start_state) {
                ps_playout_free(&p);
                g->free_instance(inst);
                return ps_error_set(err, NULL, 0, 0, "out of memory");
            }
            g->initial_state(inst, start_state);
            for (int k = 0; k < 100; k++) {
                ps_playout_uniform(&p, start_state, &rng, 0);
                playouts++;
                moves += (uint64_t)p.length;
            }
            free(start_state);
            ps_playout_free(&p);
            g->free_instance(inst);
            now = ps_now();
        }
        double el = now - start;
        char label[96];
        size_label(g, size, label, sizeof label);
        fprintf(out, "%s %s: %.0f playouts/s, %.0f moves/s (%llu playouts in "
                     "%.2f s, 1 thread)\n",
                g->name, label, (double)playouts / el, (double)moves / el,
                (unsigned long long)playouts, el);
        fflush(out);
    }
    return true;
}
