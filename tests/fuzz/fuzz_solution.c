/*
 * fuzz_solution - solution files and their replay. Input: one byte that
 * picks the game and its rules (fuzz_pick), the puzzle file, a NUL byte,
 * then the solution file. Oracles: a solution that parses replays (parsing
 * accepts only legal moves); printed again (ps_print_moves) it parses back
 * to moves that replay to the same value and final state; an error always
 * says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_solution(const struct ps_game *g, const void *inst,
                           const char *text, size_t len)
{
    struct ps_error err;
    ps_error_clear(&err);
    ps_move *moves = NULL, *again = NULL;
    int n = 0, n2 = 0;
    if (!ps_read_solution(g, inst, "fuzz.sol", text, len, &moves, &n, &err)) {
        if (err.msg[0] == '\0' || err.line <= 0)
            fuzz_fail(g, "a solution error without a line or message: '%s'",
                      err.msg);
        return;
    }
    size_t size = g->state_size(inst);
    unsigned char *final = malloc(size), *final2 = malloc(size);
    char *printed = NULL;
    size_t plen = 0;
    FILE *out = open_memstream(&printed, &plen);
    if (!final || !final2 || !out)
        fuzz_fail(g, "out of memory");
    struct ps_replay res, res2;
    if (!ps_replay_moves(g, inst, moves, n, final, &res, &err))
        fuzz_fail(g, "a solution that parses does not replay: %s", err.msg);
    ps_print_moves(out, g, inst, moves, n);
    fclose(out);
    if (!ps_read_solution(g, inst, "printed.sol", printed, plen, &again, &n2,
                          &err))
        fuzz_fail(g, "a printed solution does not parse back: %d: %s\n%s",
                  err.line, err.msg, printed);
    if (n2 != n)
        fuzz_fail(g, "%d moves printed, %d read back", n, n2);
    if (!ps_replay_moves(g, inst, again, n2, final2, &res2, &err))
        fuzz_fail(g, "a printed solution does not replay: %s", err.msg);
    if (res.value != res2.value || res.over != res2.over ||
        !ps_game_equal(g, inst, final, final2))
        fuzz_fail(g, "a printed solution replays to another end (%lld, %lld)",
                  (long long)res.value, (long long)res2.value);
    free(printed);
    free(final);
    free(final2);
    free(moves);
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *board = (const char *)data + 1;
    const char *nul = memchr(board, '\0', size - 1);
    if (!nul)
        return 0;
    size_t board_len = (size_t)(nul - board);
    const char *sol = nul + 1;
    size_t sol_len = size - 1 - board_len - 1;
    char *sol_text;
    size_t slen;
    if (!fuzz_text("solution.txt", sol, sol_len, &sol_text, &slen))
        return 0;
    struct fuzz_pick p;
    void *inst = fuzz_load(data[0], board, board_len, &p);
    if (inst) {
        check_solution(p.game, inst, sol_text, slen);
        p.game->free_instance(inst);
        fuzz_pick_free(&p);
    }
    free(sol_text);
    return 0;
}
