/*
 * fuzz_parse - a game's file parser. Input: one byte that picks the game
 * and its rules (fuzz_pick), then the puzzle file, read as psolve reads
 * files (fuzz_text). A file the parser refuses must say why; a file it
 * accepts must keep every game oracle (fuzz_check_game) on a walk of up to
 * 64 moves.
 */
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct fuzz_pick p;
    void *inst = fuzz_load(data[0], data + 1, size - 1, &p);
    if (!inst)
        return 0;
    fuzz_check_game(p.game, p.rules, inst, 64, fuzz_seed(data, size));
    p.game->free_instance(inst);
    fuzz_pick_free(&p);
    return 0;
}
