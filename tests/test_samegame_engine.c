/*
 * test_samegame_engine.c - the bit-plane SameGame engine against a plain
 * reference: the byte-per-cell flood fill that psolve used before (kept
 * here, simple and slow). On random boards of every shape (1..32 rows and
 * columns, so every lane width and the edge lanes), 1..9 colours, and under
 * every rule variant (min_group 1-3, gravity on/off, shift left/right/none,
 * the score presets, random score tables), random lines are played in both:
 * the same moves in the same order, the same gains, the same group sizes,
 * the same boards after every move, the same end value. Every move's text
 * form round-trips, and the colour counts apply keeps match a fresh load.
 */
#include "support.h"
#include "rng.h"

extern const struct ps_game samegame_game;
static const struct ps_game *G = &samegame_game;

/* ---- the reference: column-major, row 0 = bottom, 0 = empty ---- */

struct ref_board {
    int rows, cols;
    uint8_t cell[32 * 32];
};

struct ref_rules {
    int min_group, shift; /* shift: 0 left, 1 right, 2 none */
    bool gravity, by_cells;
    const int64_t *score, *end_bonus;
    int64_t clear_bonus;
};

static int ref_flood(const struct ref_board *b, int start, bool *seen,
                     int *cells)
{
    const int R = b->rows;
    int stack[32 * 32], sp = 0, n = 0;
    uint8_t colour = b->cell[start];
    seen[start] = true;
    stack[sp++] = start;
    while (sp) {
        int i = stack[--sp], c = i / R, r = i % R;
        if (cells)
            cells[n] = i;
        n++;
        int nb[4] = {r + 1 < R ? i + 1 : -1, r > 0 ? i - 1 : -1,
                     c + 1 < b->cols ? i + R : -1, c > 0 ? i - R : -1};
        for (int k = 0; k < 4; k++)
            if (nb[k] >= 0 && !seen[nb[k]] && b->cell[nb[k]] == colour) {
                seen[nb[k]] = true;
                stack[sp++] = nb[k];
            }
    }
    return n;
}

/* Groups of >= min_group cells, by anchor (their first cell in c*R+r
 * order, which the scan meets first). */
static int ref_moves(const struct ref_board *b, const struct ref_rules *ru,
                     int *moves, int *sizes)
{
    bool seen[32 * 32] = {false};
    int n = 0;
    for (int i = 0; i < b->rows * b->cols; i++) {
        if (!b->cell[i] || seen[i])
            continue;
        int size = ref_flood(b, i, seen, NULL);
        if (size >= ru->min_group) {
            moves[n] = i;
            sizes[n++] = size;
        }
    }
    return n;
}

/* score holds a table of 32 * 32 + 1 sizes per colour (score(n, colour)). */
static int64_t ref_gain(const struct ref_rules *ru, int n, int colour)
{
    return ru->by_cells ? n : ru->score[(colour - 1) * (32 * 32 + 1) + n];
}

static int64_t ref_apply(struct ref_board *b, const struct ref_rules *ru,
                         int move)
{
    const int R = b->rows, C = b->cols;
    bool seen[32 * 32] = {false};
    int cells[32 * 32];
    const int colour = b->cell[move];
    int n = ref_flood(b, move, seen, cells);
    for (int k = 0; k < n; k++)
        b->cell[cells[k]] = 0;
    if (ru->gravity)
        for (int c = 0; c < C; c++) {
            int w = 0;
            for (int r = 0; r < R; r++)
                if (b->cell[c * R + r])
                    b->cell[c * R + w++] = b->cell[c * R + r];
            for (; w < R; w++)
                b->cell[c * R + w] = 0;
        }
    if (ru->shift != 2) {
        uint8_t keep[32 * 32] = {0};
        int kept = 0;
        for (int k = 0; k < C; k++) {
            int c = ru->shift == 0 ? k : C - 1 - k;
            bool empty = true;
            for (int r = 0; r < R; r++)
                empty = empty && !b->cell[c * R + r];
            if (!empty) {
                int dst = ru->shift == 0 ? kept : C - 1 - kept;
                memcpy(keep + dst * R, b->cell + c * R, (size_t)R);
                kept++;
            }
        }
        memcpy(b->cell, keep, sizeof keep);
    }
    return ref_gain(ru, n, colour);
}

static void ref_print(const struct ref_board *b, char *out)
{
    for (int top = 0; top < b->rows; top++) {
        for (int c = 0; c < b->cols; c++) {
            int v = b->cell[c * b->rows + b->rows - 1 - top];
            *out++ = v ? (char)('0' + v) : '.';
        }
        *out++ = '\n';
    }
    *out = '\0';
}

static int ref_left(const struct ref_board *b)
{
    int n = 0;
    for (int i = 0; i < b->rows * b->cols; i++)
        n += b->cell[i] != 0;
    return n;
}

/* ---- random boards the loader accepts under the rules ---- */

static void random_board(struct ps_rng *rng, int rows, int cols, int colours,
                         const struct ref_rules *ru, struct ref_board *b)
{
    memset(b, 0, sizeof *b);
    b->rows = rows;
    b->cols = cols;
    for (int c = 0; c < cols; c++) {
        /* Some columns short, some (with no shift) empty; without gravity,
         * holes anywhere below the top. */
        int h = rows;
        if (ps_rng_below(rng, 3) == 0)
            h = (int)ps_rng_below(rng, (uint32_t)rows + 1);
        if (ru->shift != 2 && h == 0)
            h = 1;
        for (int r = 0; r < h; r++) {
            bool hole = !ru->gravity && r + 1 < h && ps_rng_below(rng, 5) == 0;
            b->cell[c * rows + r] =
                hole ? 0 : (uint8_t)(1 + ps_rng_below(rng, (uint32_t)colours));
        }
        if (!ru->gravity && h > 0) /* the column's top cell, so it is not empty */
            b->cell[c * rows + h - 1] =
                (uint8_t)(1 + ps_rng_below(rng, (uint32_t)colours));
    }
}

/* A click on any cell of a group (text form "row col") is the group's move,
 * its anchor; a click on a smaller group or an empty cell is refused. */
static void check_any_cell_names_its_group(void *inst, void *s,
                                           const struct ref_board *b,
                                           const struct ref_rules *ru,
                                           struct ps_rng *rng)
{
    for (int k = 0; k < 4; k++) {
        int i = (int)ps_rng_below(rng, (uint32_t)(b->rows * b->cols));
        char mv[32];
        snprintf(mv, sizeof mv, "%d %d", b->rows - 1 - i % b->rows,
                 i / b->rows);
        bool seen[32 * 32] = {false};
        int cells[32 * 32], n = b->cell[i] ? ref_flood(b, i, seen, cells) : 0;
        int anchor = i;
        for (int j = 0; j < n; j++)
            if (cells[j] < anchor)
                anchor = cells[j];
        ps_move m;
        struct ps_error err;
        bool ok = G->parse_move(inst, s, mv, &m, &err);
        assert_int_equal(ok, n > 0 && n >= ru->min_group);
        if (ok)
            assert_int_equal(m, anchor);
    }
}

/* What apply keeps up to date (the colour counts in the state) equals
 * what loading the board afresh computes: the bound and the beam
 * evaluation, which read the counts, agree. */
static void check_kept_counts(void *rules, void *inst, void *s,
                              const char *board)
{
    void *fresh_inst = test_load(G, rules, board);
    void *fresh = test_initial(G, fresh_inst);
    assert_int_equal(G->upper_bound(inst, s),
                     G->upper_bound(fresh_inst, fresh));
    assert_int_equal(G->evaluate(inst, s), G->evaluate(fresh_inst, fresh));
    test_release(G, fresh_inst, fresh, NULL);
}

/* Play random lines in both engines; fail at the first difference. */
static void compare_line(void *rules, const struct ref_rules *ru,
                         struct ref_board *b, struct ps_rng *rng)
{
    char text[32 * 33 + 1], ref_text[32 * 33 + 1];
    ref_print(b, text);
    void *inst = test_load(G, rules, text);
    void *s = test_initial(G, inst);
    void *next = malloc(G->state_size(inst));
    assert_non_null(next);
    int max = G->max_moves(inst);
    ps_move *moves = malloc((size_t)max * sizeof *moves);
    ps_value *gains = malloc((size_t)max * sizeof *gains);
    int ref_m[32 * 32 + 1], ref_sizes[32 * 32 + 1];
    assert_non_null(moves);
    assert_non_null(gains);
    for (;;) {
        int n = G->moves(inst, s, moves, gains);
        int rn = ref_moves(b, ru, ref_m, ref_sizes);
        if (n != rn)
            fail_msg("%d moves, the reference %d, on\n%s", n, rn,
                     test_print(G, inst, s));
        for (int i = 0; i < n; i++) {
            assert_int_equal(moves[i], ref_m[i]);
            assert_int_equal(gains[i],
                             ref_gain(ru, ref_sizes[i], b->cell[ref_m[i]]));
            char about[64], mv[32];
            int size;
            G->describe_move(inst, s, moves[i], about, sizeof about);
            assert_int_equal(sscanf(about, "group %d", &size), 1);
            assert_int_equal(size, ref_sizes[i]);
            ps_move back;
            struct ps_error err;
            G->format_move(inst, s, moves[i], mv, sizeof mv);
            assert_true(G->parse_move(inst, s, mv, &back, &err));
            assert_int_equal(back, moves[i]);
        }
        check_any_cell_names_its_group(inst, s, b, ru, rng);
        if (n == 0)
            break;
        int pick = (int)ps_rng_below(rng, (uint32_t)n);
        ps_value gain = G->apply(inst, s, moves[pick], next);
        assert_int_equal(gain, ref_apply(b, ru, ref_m[pick]));
        memcpy(s, next, G->state_size(inst));
        ref_print(b, ref_text);
        assert_string_equal(test_print(G, inst, s), ref_text);
        struct ps_fact facts[4];
        assert_int_equal(G->facts(inst, s, facts, 4), 2);
        assert_int_equal(facts[0].value, ref_left(b));
        check_kept_counts(rules, inst, s, ref_text);
    }
    int left = ref_left(b);
    int64_t end = ru->by_cells ? 0 : ru->end_bonus[left] +
                                         (left == 0 ? ru->clear_bonus : 0);
    assert_int_equal(G->end_value(inst, s), end);
    free(moves);
    free(gains);
    free(next);
    test_release(G, inst, s, NULL);
}

static const char *const presets[] = {"samegame", "popstar", "clickomania",
                                      NULL};

/* One rule variant: `boards` random boards, each played to the end. */
static void check_variant(const char *preset, int min_group, bool gravity,
                          int shift, bool random_scores, int boards,
                          struct ps_rng *rng)
{
    void *rules = test_rules(G, preset);
    test_set_param(G, rules, "min_group", min_group);
    test_set_param(G, rules, "gravity", gravity);
    test_set_param(G, rules, "shift", shift);
    int64_t *score = test_table(G, rules, "score");
    int64_t *end_bonus = test_table(G, rules, "end_bonus");
    if (random_scores) { /* each colour a table of its own */
        const struct ps_param *p = test_param(G, "score");
        for (int i = 0; i < p->table_len * p->table_rows; i++)
            score[i] = (int64_t)ps_rng_below(rng, 2001) - 1000;
        for (int i = 0; i <= 32 * 32; i++)
            end_bonus[i] = (int64_t)ps_rng_below(rng, 201) - 100;
    }
    int64_t clear_bonus;
    memcpy(&clear_bonus,
           (char *)rules + test_param(G, "clear_bonus")->offset,
           sizeof clear_bonus);
    struct ref_rules ru = {min_group, shift, gravity,
                           strcmp(preset, "clickomania") == 0, score,
                           end_bonus, clear_bonus};
    /* The lane widths change at 8, 16, 32 rows; 32 columns fill the words. */
    static const int shapes[][2] = {{1, 1}, {1, 32}, {32, 1}, {7, 9},
                                    {8, 8}, {15, 15}, {16, 17}, {20, 20},
                                    {31, 5}, {32, 32}};
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    for (int k = 0; k < boards; k++) {
        int rows, cols;
        if (k < nshapes) {
            rows = shapes[k][0];
            cols = shapes[k][1];
        } else {
            rows = 1 + (int)ps_rng_below(rng, 32);
            cols = 1 + (int)ps_rng_below(rng, 32);
        }
        int colours = 1 + (int)ps_rng_below(rng, 9);
        if (k % 3 == 0 && colours > 4)
            colours = 2 + k % 3; /* few colours: large groups, many shifts */
        struct ref_board b;
        random_board(rng, rows, cols, colours, &ru, &b);
        compare_line(rules, &ru, &b, rng);
    }
    free(rules);
}

static void test_every_rule_variant(void **unused)
{
    (void)unused;
    struct ps_rng rng;
    ps_rng_seed(&rng, 2026);
    for (int min_group = 1; min_group <= 3; min_group++)
        for (int gravity = 0; gravity <= 1; gravity++)
            for (int shift = 0; shift <= 2; shift++)
                check_variant("samegame", min_group, gravity, shift, false, 14,
                              &rng);
}

static void test_score_tables(void **unused)
{
    (void)unused;
    struct ps_rng rng;
    ps_rng_seed(&rng, 7);
    for (const char *const *p = presets; *p; p++)
        check_variant(*p, 2, true, 0, false, 12, &rng);
    check_variant("samegame", 2, true, 0, true, 12, &rng);
    check_variant("popstar", 1, false, 1, true, 12, &rng);
}

/* Many small boards: most lines, most corner cases per second. */
static void test_small_boards(void **unused)
{
    (void)unused;
    struct ps_rng rng;
    ps_rng_seed(&rng, 11);
    for (int k = 0; k < 300; k++) {
        void *rules = test_rules(G, NULL);
        int shift = (int)ps_rng_below(&rng, 3);
        bool gravity = ps_rng_below(&rng, 2);
        int min_group = 1 + (int)ps_rng_below(&rng, 3);
        test_set_param(G, rules, "min_group", min_group);
        test_set_param(G, rules, "gravity", gravity);
        test_set_param(G, rules, "shift", shift);
        struct ref_rules ru = {min_group, shift, gravity, false,
                               test_table(G, rules, "score"),
                               test_table(G, rules, "end_bonus"), 1000};
        struct ref_board b;
        random_board(&rng, 1 + (int)ps_rng_below(&rng, 9),
                     1 + (int)ps_rng_below(&rng, 9),
                     1 + (int)ps_rng_below(&rng, 4), &ru, &b);
        compare_line(rules, &ru, &b, &rng);
        free(rules);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_rule_variant),
        cmocka_unit_test(test_score_tables),
        cmocka_unit_test(test_small_boards),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
