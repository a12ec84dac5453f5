/*
 * fuzz_checkpoint - checkpoint files (--resume, docs/checkpoint.md) whose
 * checksum is right but whose contents are anything. Input: one byte that
 * picks the run (byte % 4: nrpa, nmcs, beam on the shipped 10x10 SameGame
 * example, dfs on the shipped 15-puzzle 15-36, a cost game), then the
 * payload after the run's key (elapsed seconds, the best line, the
 * parts). The harness writes the header and the key itself, so every
 * input passes the checksum and the key check and reaches the readers of
 * the parts. A resume runs under a small node budget
 * on one thread. Oracles: the file is refused or read without a memory
 * error, and a line the run reports replays to the value it claims (a
 * forged score or line is never believed).
 */
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "fuzz_support.h"
#include "hash.h"
#include "report.h"
#include "savefile.h"
#include "search.h"
#include "textfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SAMEGAME PSOLVE_SOURCE_DIR "/games/samegame/examples/samegame-10x10.txt"
#define FUZZ_NPUZZLE PSOLVE_SOURCE_DIR "/games/npuzzle/examples/15-36.txt"
#define FUZZ_MAX_NODES 400

static const struct {
    const char *algo, *game, *board;
} runs[] = {
    {"nrpa", "samegame", FUZZ_SAMEGAME},
    {"nmcs", "samegame", FUZZ_SAMEGAME},
    {"beam", "samegame", FUZZ_SAMEGAME},
    {"dfs", "npuzzle", FUZZ_NPUZZLE},
};
#define FUZZ_RUNS (sizeof runs / sizeof *runs)

/* Run k's board, read once, loaded with its game's default rules. */
static void *board(size_t k, struct fuzz_pick *p)
{
    static char *text[FUZZ_RUNS];
    static size_t len[FUZZ_RUNS];
    struct ps_error err;
    if (!text[k] && !ps_read_text_file(runs[k].board, &text[k], &len[k], &err))
        fuzz_fail(NULL, "cannot read %s", runs[k].board);
    for (int byte = 0; byte < 256; byte++) { /* the byte that picks the game */
        fuzz_pick((uint8_t)byte, p);
        bool game = strcmp(p->game->name, runs[k].game) == 0 && !p->preset;
        fuzz_pick_free(p);
        if (!game)
            continue;
        void *inst = fuzz_load((uint8_t)byte, text[k], len[k], p);
        if (!inst)
            fuzz_fail(NULL, "%s does not load", runs[k].board);
        return inst;
    }
    fuzz_fail(NULL, "no game %s", runs[k].game);
}

/* A checkpoint file for the run: the header, the key, then `rest`. */
static const char *checkpoint_file(const char *key, const uint8_t *rest,
                                   size_t n)
{
    size_t klen = strlen(key);
    size_t len = 8 + klen + n;
    unsigned char *payload = malloc(len ? len : 1);
    if (!payload)
        fuzz_fail(NULL, "out of memory");
    uint64_t k = klen;
    memcpy(payload, &k, 8);
    memcpy(payload + 8, key, klen);
    if (n)
        memcpy(payload + 8 + klen, rest, n);
    struct ps_savefile_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, PS_CHECKPOINT_MAGIC, sizeof PS_CHECKPOINT_MAGIC - 1);
    h.format = PS_CHECKPOINT_FORMAT;
    h.count = len;
    snprintf(h.key, sizeof h.key, "%016llx",
             (unsigned long long)ps_hash_bytes(key, klen));
    const char *path = fuzz_file("checkpoint.bin", "", 0);
    struct ps_error err;
    if (!ps_savefile_write(path, &h, payload, len, &err))
        fuzz_fail(NULL, "cannot write %s: %s", path, err.msg);
    free(payload);
    return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t k = data[0] % FUZZ_RUNS;
    const struct ps_algorithm *a = ps_algorithm_find(runs[k].algo);
    if (!a)
        fuzz_fail(NULL, "no algorithm %s", runs[k].algo);
    struct fuzz_pick p;
    void *inst = board(k, &p);
    struct ps_limits limits = {.max_nodes = FUZZ_MAX_NODES,
                               .max_memory = (uint64_t)64 << 20};
    struct ps_options opt;
    ps_options_default(&opt);
    opt.threads = 1;
    opt.seed = 3;
    struct ps_search s;
    ps_search_init(&s, p.game, inst, &limits, &opt);
    static struct ps_checkpoint ck;
    char key[sizeof ck.key];
    int threads = a->checkpoint == PS_CHECKPOINT_THREADS ? 1 : 0;
    ps_checkpoint_key(&s, a, NULL, threads, key, sizeof key);
    const char *path = checkpoint_file(key, data + 1, size - 1);
    ps_checkpoint_init(&ck, NULL, 0, key);
    ck.resumed = path;
    struct ps_error err;
    ps_error_clear(&err);
    if (ps_checkpoint_load(&ck, &err)) {
        s.checkpoint = &ck;
        enum ps_status st = ps_search_run(&s, a);
        struct ps_run run;
        ps_run_capture(&run, &s, st);
        if (run.found && !run.verified)
            fuzz_fail(p.game, "%s resumed a line that does not verify: %s",
                      a->name, run.verify_error);
        ps_run_free(&run);
    } else if (!err.msg[0]) {
        fuzz_fail(p.game, "a checkpoint refused without a reason");
    }
    ps_checkpoint_free(&ck);
    ps_search_free(&s);
    p.game->free_instance(inst);
    fuzz_pick_free(&p);
    return 0;
}
