/*
 * cmd_verify.c - psolve verify FILE SOLUTION: replay a solution, check it
 * and print its value (text or --json), --show board by board, --html.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "escape.h"
#include "replay.h"
#include "report.h"
#include "rules.h"
#include "textfile.h"

/* Does the solution's "# rules:" stamp name other rules than the ones it
 * is replayed under? Then say so on stderr: the moves may be legal under
 * both and score differently (a PopStar line under the default rules). */
static bool solved_under_other_rules(const struct cli *c,
                                     const struct ps_game *g,
                                     const void *rules, bool maximise,
                                     const char *text, size_t len, char *now,
                                     size_t now_len,
                                     char *was, size_t was_len)
{
    cli_rules_stamp(c, g, rules, now, now_len);
    uint64_t hash;
    int line;
    char name[64];
    if (!ps_rules_stamp_find(text, len, name, sizeof name, &hash, &line) ||
        hash == ps_rules_hash(g, rules))
        return false;
    /* the name comes from the file: shown escaped, never sent raw */
    char shown[sizeof name * 8], path[1024];
    ps_escape(shown, sizeof shown, name, strlen(name), true);
    ps_escape(path, sizeof path, c->files[1], strlen(c->files[1]), true);
    snprintf(was, was_len, "%s hash %016llx", name, (unsigned long long)hash);
    fprintf(stderr,
            "psolve: warning: %s:%d: solved under rules '%s' (hash %016llx), "
            "replayed under rules %s: the %s may differ (give --rules %s)\n",
            path, line, shown, (unsigned long long)hash, now,
            maximise ? "score" : "cost", shown);
    return true;
}

/* From a solution's "# psolve: game G, algorithm A, PATH" header (report.c),
 * the game and the puzzle path; false without one. */
static bool solved_for(const char *text, size_t len, char *game,
                       size_t game_len, char *path, size_t path_len)
{
    static const char head[] = "# psolve: game ";
    for (const char *p = text; p < text + len;) {
        const char *nl = memchr(p, '\n', (size_t)(text + len - p));
        const char *end = nl ? nl : text + len;
        size_t n = (size_t)(end - p);
        char line[600];
        if (n < sizeof line && n > sizeof head - 1 &&
            memcmp(p, head, sizeof head - 1) == 0) {
            memcpy(line, p, n);
            line[n] = '\0';
            char *comma = strchr(line, ',');
            char *algo = strstr(line, ", algorithm ");
            char *after = algo ? strstr(algo + 12, ", ") : NULL;
            if (!comma || !after)
                return false;
            snprintf(game, game_len, "%.*s", (int)(comma - line) -
                     (int)(sizeof head - 1), line + sizeof head - 1);
            snprintf(path, path_len, "%s", after + 2);
            path[strcspn(path, "\r")] = '\0';
            return true;
        }
        p = end + 1;
    }
    return false;
}

/* A move of the solution is illegal on this board: the usual cause is a
 * solution made for another board (or game), which its header may name. */
static void print_other_board_hint(const struct cli *c,
                                   const struct ps_game *g, int bad,
                                   const char *text, size_t len)
{
    char game[64], path[512];
    bool named = solved_for(text, len, game, sizeof game, path, sizeof path);
    fprintf(stderr, "psolve: hint: the first illegal move is move %d; was "
                    "this solution made for another board?",
            bad);
    if (named && strcmp(game, g->name) != 0)
        fprintf(stderr, " It says it was solved as game %s (give --game %s).",
                game, game);
    else if (named && strcmp(path, c->files[0]) != 0) {
        fputs(" It says it was solved for ", stderr);
        ps_print_escaped(stderr, path);
        fputc('.', stderr);
    }
    fputc('\n', stderr);
}

/* "next_moves": the texts of the moves legal in the final position (at
 * most NEXT_MOVES_SHOWN), so that a page can offer them to be clicked (a Lua
 * game drawn as text has no board to click). */
#define NEXT_MOVES_SHOWN 200
static void print_next_moves(const struct ps_game *g, const void *inst,
                             const void *state)
{
    int max = g->max_moves(inst);
    ps_move *legal = max > 0 ? malloc((size_t)max * sizeof *legal) : NULL;
    int n = legal ? g->moves(inst, state, legal, NULL) : 0;
    if (n > max || n < 0)
        n = 0; /* a game breaking its contract: its fault is reported */
    printf(",\"next_moves\":[");
    for (int i = 0; i < n && i < NEXT_MOVES_SHOWN; i++) {
        char text[64];
        g->format_move(inst, state, legal[i], text, sizeof text);
        printf(i ? "," : "");
        ps_json_string(stdout, text);
    }
    printf("]");
    free(legal);
}

int cmd_verify(struct cli *c, const struct ps_game *g)
{
    struct puzzle pz;
    if (!cli_puzzle_open(c, g, &pz))
        return PS_EXIT_ERROR;
    void *inst = pz.inst;
    struct ps_error err;
    ps_error_clear(&err);
    char *text = NULL;
    size_t len;
    ps_move *moves = NULL;
    int n = 0;
    int status = PS_EXIT_ERROR;
    unsigned char *final = malloc(g->state_size(inst));
    struct ps_replay res = {.len = -1};
    bool read = final && ps_read_text_file(c->files[1], &text, &len, &err);
    bool parsed = read && ps_read_solution(g, inst, c->files[1], text, len,
                                           &moves, &n, &err);
    if (!parsed || !ps_replay_moves(g, inst, moves, n, final, &res, &err)) {
        if (!final)
            ps_error_set(&err, NULL, 0, 0, "out of memory");
        if (!cli_report_game_fault(g, inst)) {
            cli_print_error(&err);
            /* The move at fault, when a move is (not the file, the game). */
            int bad = !read ? 0 : !parsed ? n
                      : !res.text_error && res.len >= 0 ? res.len + 1 : 0;
            if (bad)
                print_other_board_hint(c, g, bad, text, len);
        }
        goto done;
    }
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    const char *over_key = maximise ? "game_over" : "solved";
    struct ps_fact facts[PS_MAX_FACTS];
    int nfacts = g->facts ? g->facts(inst, final, facts, PS_MAX_FACTS) : 0;
    char now[96], was[96] = "";
    bool other_rules = solved_under_other_rules(c, g, pz.rules, maximise, text,
                                                len, now, sizeof now, was,
                                                sizeof was);
    if (c->json) {
        printf("{\"game\":");
        ps_json_string(stdout, g->name);
        printf(",\"rules\":");
        ps_json_string(stdout, now);
        if (other_rules) {
            printf(",\"solved_under_rules\":");
            ps_json_string(stdout, was);
        }
        printf(",\"legal\":true,\"%s\":%lld,\"moves\":%d,\"game_over\":%s",
               maximise ? "score" : "cost", (long long)res.value, res.len,
               res.over ? "true" : "false");
        for (int i = 0; i < nfacts; i++)
            printf(",\"%s\":%lld", facts[i].key, (long long)facts[i].value);
        print_next_moves(g, inst, final);
        printf("}\n");
    } else {
        if (c->show)
            ps_print_replay(stdout, g, inst, moves, n, isatty(STDOUT_FILENO),
                            isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)
                                ? stdin
                                : NULL);
        if (c->show || isatty(STDOUT_FILENO)) {
            printf("final position:\n");
            g->print_state(inst, final, stdout, isatty(STDOUT_FILENO));
        }
        printf("legal: yes\n%s: %lld\nmoves: %d\n%s: %s\n",
               maximise ? "score" : "cost", (long long)res.value, res.len,
               over_key, res.over ? "yes" : "no");
        /* A game's fact may repeat that line (Water Sort's "solved"). */
        for (int i = 0; i < nfacts; i++)
            if (strcmp(facts[i].key, over_key) != 0)
                printf("%s: %lld\n", facts[i].key, (long long)facts[i].value);
    }
    /* A cost-game solution that does not reach the goal is not a solution. */
    status = (!maximise && !res.over) ? PS_EXIT_ERROR : PS_EXIT_OK;
    if (cli_report_game_fault(g, inst))
        status = PS_EXIT_ERROR;
    if (c->html) {
        struct ps_run run = {.algo = "verify", .status = PS_HEURISTIC,
                             .moves = moves, .len = n, .found = true,
                             .value = res.value, .verified = true,
                             .replay = res};
        snprintf(run.note, sizeof run.note, "replay of %s", c->files[1]);
        struct ps_html_report rep = {.command = "verify", .game = g,
                                     .inst = inst, .puzzle = c->files[0],
                                     .runs = &run, .nruns = 1};
        if (!cli_write_html(c, &rep))
            status = PS_EXIT_ERROR;
    }
    if (status != PS_EXIT_OK) {
        fputs("psolve: ", stderr);
        ps_print_escaped(stderr, c->files[1]);
        fputs(": the moves are legal but do not solve the puzzle\n", stderr);
    }
done:
    free(final);
    free(text);
    free(moves);
    cli_puzzle_close(&pz);
    return status;
}
