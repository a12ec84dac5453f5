/*
 * fuzz_parse - a game's file parser. Input: one byte that picks the game
 * and its rules (fuzz_pick), then the puzzle file, read as psolve reads
 * files (fuzz_text). A file the parser
 * accepts must then keep every game oracle (fuzz_check_game) on a walk of
 * up to 64 moves.
 */
#include <stdlib.h>

#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text;
    size_t len;
    if (!fuzz_text("puzzle.txt", data + 1, size - 1, &text, &len))
        return 0;
    struct fuzz_pick p;
    fuzz_pick(data[0], &p);
    struct ps_error err;
    ps_error_clear(&err);
    void *inst = p.game->load(p.rules, "fuzz", text, len, &err);
    if (inst) {
        fuzz_check_game(p.game, inst, 64, fuzz_seed(data, size));
        p.game->free_instance(inst);
    } else if (err.msg[0] == '\0') {
        fuzz_fail(p.game, "load() failed without a message");
    }
    fuzz_pick_free(&p);
    free(text);
    return 0;
}
