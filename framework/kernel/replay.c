/*
 * replay.c - solutions as text and their replay through the game's move
 * generator (replay.h).
 */
#include "replay.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

/* Does move k's text read back as the same move (the contract of
 * format_move and parse_move: a printed solution verifies)? A game's slot
 * that failed in either (a script's error) is the error. */
static bool move_reads_back(const struct ps_game *g, const void *inst,
                            const void *state, ps_move move, int k,
                            struct ps_error *err)
{
    if (!g->format_move)
        return true;
    char text[256];
    g->format_move(inst, state, move, text, sizeof text);
    if (ps_game_fault(g, inst, err) != PS_FAULT_NONE)
        return false;
    if (!g->parse_move) /* a test's toy game */
        return true;
    ps_move back;
    struct ps_error perr;
    ps_error_clear(&perr);
    bool parsed = g->parse_move(inst, state, text, &back, &perr);
    if (ps_game_fault(g, inst, err) != PS_FAULT_NONE)
        return false;
    if (!parsed)
        return ps_error_set(err, NULL, 0, 0,
                            "move %d is printed as '%s', which does not read "
                            "back (%s)",
                            k + 1, text, perr.msg);
    if (back != move)
        return ps_error_set(err, NULL, 0, 0,
                            "move %d is printed as '%s', which reads back as "
                            "another legal move: each move needs its own text",
                            k + 1, text);
    return true;
}

bool ps_replay_moves(const struct ps_game *g, const void *inst,
                     const ps_move *moves, int n, void *final_state,
                     struct ps_replay *res, struct ps_error *err)
{
    size_t size = g->state_size(inst);
    int max_moves = g->max_moves(inst);
    unsigned char *cur = malloc(size), *next = malloc(size);
    ps_move *legal = malloc((size_t)max_moves * sizeof *legal);
    bool ok = false;
    if (!cur || !next || !legal) {
        ps_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    res->text_error = false;
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    g->initial_state(inst, cur);
    ps_value value = 0;
    for (int k = 0; k < n; k++) {
        bool found = false;
        if (g->legal) {
            found = g->legal(inst, cur, moves[k]);
        } else {
            int count = g->moves(inst, cur, legal, NULL);
            for (int i = 0; i < count && !found; i++)
                found = legal[i] == moves[k];
        }
        if (!found && ps_game_fault(g, inst, err) != PS_FAULT_NONE) {
            res->text_error = true;
            goto done;
        }
        if (!found) {
            /* by its code: a game formats only its legal moves (the
             * 15-puzzle reads the tile the move names, which an illegal
             * code from a forged checkpoint puts outside the board) */
            ps_error_set(err, NULL, 0, 0,
                         "move %d (code %" PRIu32 ") is not legal here", k + 1,
                         moves[k]);
            res->len = k;
            goto done;
        }
        if (!move_reads_back(g, inst, cur, moves[k], k, err)) {
            res->text_error = true;
            goto done;
        }
        value += g->apply(inst, cur, moves[k], next);
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    res->len = n;
    if (maximise) {
        res->over = g->moves(inst, cur, legal, NULL) == 0;
        if (res->over && g->end_value)
            value += g->end_value(inst, cur);
    } else {
        res->over = g->is_goal(inst, cur);
    }
    /* A game's slot that failed on the way (a script stopped or in
     * error): its answers were stand-ins, the line is not verified. */
    if (ps_game_fault(g, inst, err) != PS_FAULT_NONE) {
        res->text_error = true;
        goto done;
    }
    res->value = value;
    memcpy(final_state, cur, size);
    ok = true;
done:
    free(cur);
    free(next);
    free(legal);
    return ok;
}

bool ps_read_solution(const struct ps_game *g, const void *inst,
                      const char *path, const char *text, size_t len,
                      ps_move **moves_out, int *n_out, struct ps_error *err)
{
    size_t size = g->state_size(inst);
    unsigned char *cur = malloc(size), *next = malloc(size);
    int cap = 64, n = 0;
    *n_out = 0;
    ps_move *moves = malloc((size_t)cap * sizeof *moves);
    if (!cur || !next || !moves) {
        ps_error_set(err, path, 0, 0, "out of memory");
        goto fail;
    }
    g->initial_state(inst, cur);
    struct ps_line_reader rd;
    struct ps_line ln;
    ps_lines_begin(&rd, text, len);
    while (ps_lines_next(&rd, &ln)) {
        char buf[256];
        if (ln.len >= sizeof buf) {
            ps_error_set(err, path, ln.number, 1, "line too long for a move");
            goto fail;
        }
        memcpy(buf, ln.text, ln.len);
        buf[ln.len] = '\0';
        struct ps_error why;
        ps_error_clear(&why);
        ps_move m;
        if (!g->parse_move(inst, cur, buf, &m, &why)) {
            ps_error_set(err, path, ln.number, why.col > 0 ? why.col : 1,
                         "move %d: %s", n + 1, why.msg);
            *n_out = n + 1;
            goto fail;
        }
        if (n == cap) {
            cap *= 2;
            ps_move *nm = realloc(moves, (size_t)cap * sizeof *nm);
            if (!nm) {
                ps_error_set(err, path, ln.number, 1, "out of memory");
                goto fail;
            }
            moves = nm;
        }
        moves[n++] = m;
        g->apply(inst, cur, m, next);
        unsigned char *t = cur;
        cur = next;
        next = t;
    }
    free(cur);
    free(next);
    *moves_out = moves;
    *n_out = n;
    return true;
fail:
    free(cur);
    free(next);
    free(moves);
    return false;
}

bool ps_walk_begin(struct ps_walk *w, const struct ps_game *g,
                   const void *inst)
{
    size_t size = g->state_size(inst);
    w->g = g;
    w->inst = inst;
    w->so_far = 0;
    w->cur = malloc(size);
    w->next = malloc(size);
    if (!w->cur || !w->next) {
        ps_walk_end(w);
        return false;
    }
    g->initial_state(inst, w->cur);
    return true;
}

ps_value ps_walk_step(struct ps_walk *w, ps_move move)
{
    ps_value v = w->g->apply(w->inst, w->cur, move, w->next);
    unsigned char *t = w->cur;
    w->cur = w->next;
    w->next = t;
    w->so_far += v;
    return v;
}

void ps_walk_end(struct ps_walk *w)
{
    free(w->cur);
    free(w->next);
    w->cur = w->next = NULL;
}

void ps_print_replay(FILE *out, const struct ps_game *g, const void *inst,
                     const ps_move *moves, int n, bool ansi, FILE *pause)
{
    struct ps_walk w;
    if (!ps_walk_begin(&w, g, inst))
        return;
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    fprintf(out, "start:\n");
    g->print_state(inst, w.cur, out, ansi);
    for (int k = 0; k < n; k++) {
        if (pause) {
            fprintf(out, "[Enter: move %d of %d, q: to the end] ", k + 1, n);
            fflush(out);
            char line[16];
            if (!fgets(line, sizeof line, pause) || line[0] == 'q')
                pause = NULL;
        }
        char text[64];
        g->format_move(inst, w.cur, moves[k], text, sizeof text);
        ps_value v = ps_walk_step(&w, moves[k]);
        fprintf(out, "move %d: %s  (%s %lld, %s so far %lld)\n", k + 1, text,
                maximise ? "gain" : "cost", (long long)v,
                maximise ? "score" : "cost", (long long)w.so_far);
        g->print_state(inst, w.cur, out, ansi);
    }
    ps_walk_end(&w);
}

void ps_move_texts(const struct ps_game *g, const void *inst,
                   const void *state, ps_move move, char *text, size_t len,
                   char *about, size_t about_len)
{
    g->format_move(inst, state, move, text, len);
    about[0] = '\0';
    if (g->describe_move)
        g->describe_move(inst, state, move, about, about_len);
}

void ps_print_moves(FILE *out, const struct ps_game *g, const void *inst,
                    const ps_move *moves, int n)
{
    struct ps_walk w;
    if (!ps_walk_begin(&w, g, inst))
        return;
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    for (int k = 0; k < n; k++) {
        char text[64], about[128];
        ps_move_texts(g, inst, w.cur, moves[k], text, sizeof text, about,
                      sizeof about);
        ps_value v = ps_walk_step(&w, moves[k]);
        fprintf(out, "%-8s # %s %lld%s%s\n", text, maximise ? "gain" : "cost",
                (long long)v, about[0] ? ", " : "", about);
    }
    ps_walk_end(&w);
}
