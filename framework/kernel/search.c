#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile sig_atomic_t ps_interrupted = 0;

static void on_sigint(int sig)
{
    (void)sig;
    ps_interrupted = 1;
}

void ps_install_interrupt_handler(void)
{
    signal(SIGINT, on_sigint);
}

double ps_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ps_options_default(struct ps_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->weight = 2.0;
    o->rollouts = 200;
    o->topk = 0;
    o->beam_width = 100;
}

void ps_search_init(struct ps_search *s, const struct ps_game *game,
                    const void *inst, const struct ps_limits *limits,
                    const struct ps_options *opt)
{
    memset(s, 0, sizeof *s);
    s->game = game;
    s->inst = inst;
    s->flags = ps_game_flags(game, inst);
    s->state_size = game->state_size(inst);
    if (limits)
        s->limits = *limits;
    if (opt)
        s->opt = *opt;
    else
        ps_options_default(&s->opt);
    s->trace.out = stdout;
    s->trace.format = s->opt.trace_format;
    s->trace.game = game;
    s->trace.inst = inst;
}

void ps_search_free(struct ps_search *s)
{
    free(s->best.moves);
    s->best.moves = NULL;
    s->best.len = s->best.cap = 0;
}

/* The most any line from the start can be worth, for score games: the
 * start's own value when it has no move (the empty line is the only one),
 * else the game's upper bound of the start if it has one. */
static void find_root_bound(struct ps_search *s)
{
    s->bounded = false;
    if (!(s->flags & PS_MAXIMISE))
        return;
    const struct ps_game *g = s->game;
    unsigned char *root = malloc(s->state_size);
    ps_move *moves = malloc((size_t)g->max_moves(s->inst) * sizeof *moves + 1);
    if (root && moves) {
        g->initial_state(s->inst, root);
        if (g->moves(s->inst, root, moves, NULL) == 0) {
            s->bounded = true;
            s->root_bound = ps_final_value(s, root, 0);
        } else if ((s->flags & PS_HAS_BOUND) && g->upper_bound) {
            s->bounded = true;
            s->root_bound = g->upper_bound(s->inst, root);
        }
    }
    free(root);
    free(moves);
}

/* Is the best line a complete game worth the root bound? Replayed, since an
 * algorithm stopped early may offer a partial line (greedy does). */
static bool best_is_proven(const struct ps_search *s)
{
    if (!s->bounded || !s->best.found || s->best.value < s->root_bound)
        return false;
    const struct ps_game *g = s->game;
    unsigned char *a = malloc(s->state_size), *b = malloc(s->state_size);
    ps_move *moves = malloc((size_t)g->max_moves(s->inst) * sizeof *moves + 1);
    bool over = false;
    if (a && b && moves) {
        g->initial_state(s->inst, a);
        for (int i = 0; i < s->best.len; i++) {
            g->apply(s->inst, a, s->best.moves[i], b);
            unsigned char *t = a;
            a = b;
            b = t;
        }
        over = g->moves(s->inst, a, moves, NULL) == 0;
    }
    free(a);
    free(b);
    free(moves);
    return over;
}

enum ps_status ps_search_run(struct ps_search *s, const struct ps_algorithm *a)
{
    memset(&s->stats, 0, sizeof s->stats);
    s->best.len = 0;
    s->best.found = false;
    s->stop = PS_STOP_NONE;
    s->note[0] = '\0';
    s->tick = 0;
    s->algo_name = a->name;
    s->start = ps_now();
    s->last_progress = s->start;
    s->trace.limit = s->opt.trace;
    s->trace.shown = 0;
    s->trace.seq = 0;
    s->trace.algo = a->name;
    s->trace.start = s->start;
    ps_search_trace_event(s, &(struct ps_trace_event){.kind = PS_TRACE_BEGIN});
    /* A game that can prove an instance unsolvable without search (colour
     * counts, sizes) does so before any algorithm runs. */
    if (s->game->check && !s->game->check(s->inst, s->note, sizeof s->note)) {
        s->stats.seconds = ps_now() - s->start;
        return PS_UNSOLVABLE;
    }
    find_root_bound(s);
    enum ps_status st = a->run(s);
    s->stats.seconds = ps_now() - s->start;
    if (st != PS_UNSOLVABLE && best_is_proven(s)) {
        /* Whatever stopped the run, this line cannot be beaten. */
        if (st != PS_OPTIMAL) {
            char was[sizeof s->note];
            const char *how = s->note;
            if (strncmp(how, "heuristic: ", 11) == 0)
                how += 11;
            snprintf(was, sizeof was, "%s", how);
            snprintf(s->note, sizeof s->note,
                     "optimal: reaches the upper bound of the start%s%.60s",
                     was[0] ? "; found by " : "", was);
        }
        st = PS_OPTIMAL;
        s->stop = PS_STOP_NONE;
    }
    if (s->stop != PS_STOP_NONE && st != PS_UNSOLVABLE)
        st = PS_INCOMPLETE;
    if (s->progress)
        fputc('\n', stderr);
    return st;
}

static void print_progress(struct ps_search *s, double now)
{
    double el = now - s->start;
    uint64_t work = s->stats.expanded + s->stats.playouts;
    fprintf(stderr, "\r[%s] %.0fs  nodes %llu (%.0f/s)  table %llu  ",
            s->algo_name ? s->algo_name : "?", el, (unsigned long long)work,
            el > 0 ? (double)work / el : 0.0,
            (unsigned long long)s->stats.table_entries);
    if (s->stats.playouts)
        fprintf(stderr, "playouts %llu (%.0f/s)  ",
                (unsigned long long)s->stats.playouts,
                el > 0 ? (double)s->stats.playouts / el : 0.0);
    if (s->best.found)
        fprintf(stderr, "best %lld   ", (long long)s->best.value);
    else
        fprintf(stderr, "best -   ");
    fflush(stderr);
}

/* The checks that cost nothing: a stop already decided, Ctrl-C, the node
 * budget. */
static bool stopped_cheap(struct ps_search *s)
{
    if (s->stop != PS_STOP_NONE)
        return true;
    if (ps_interrupted) {
        s->stop = PS_STOP_INTERRUPT;
        return true;
    }
    if (s->limits.max_nodes && s->stats.expanded >= s->limits.max_nodes) {
        s->stop = PS_STOP_NODES;
        return true;
    }
    return false;
}

static bool stopped_by_clock(struct ps_search *s)
{
    double now = ps_now();
    if (s->limits.seconds > 0 && now - s->start >= s->limits.seconds) {
        s->stop = PS_STOP_TIME;
        return true;
    }
    if (s->progress && now - s->last_progress >= 1.0) {
        s->last_progress = now;
        print_progress(s, now);
    }
    return false;
}

bool ps_search_stopped(struct ps_search *s)
{
    if (stopped_cheap(s))
        return true;
    /* The clock costs more than the rest; read it every 1024 calls. */
    if ((++s->tick & 1023u) != 0)
        return false;
    return stopped_by_clock(s);
}

bool ps_search_poll(struct ps_search *s)
{
    return stopped_cheap(s) || stopped_by_clock(s);
}

bool ps_search_improves(const struct ps_search *s, ps_value value)
{
    if (!s->best.found)
        return true;
    if (s->flags & PS_MAXIMISE)
        return value > s->best.value;
    return value < s->best.value;
}

bool ps_search_offer(struct ps_search *s, const ps_move *moves, int len,
                     ps_value value)
{
    if (!ps_search_improves(s, value))
        return false;
    if (len > s->best.cap) {
        int cap = len < 64 ? 64 : len;
        ps_move *m = realloc(s->best.moves, (size_t)cap * sizeof *m);
        if (!m)
            return false;
        s->best.moves = m;
        s->best.cap = cap;
    }
    if (len > 0)
        memcpy(s->best.moves, moves, (size_t)len * sizeof *moves);
    s->best.len = len;
    s->best.value = value;
    s->best.found = true;
    if (s->anytime)
        ps_anytime_add(s->anytime, ps_now() - s->start, value, len);
    ps_search_trace_event(s, &(struct ps_trace_event){
                                 .kind = PS_TRACE_IMPROVE,
                                 .has = PS_TF_VALUE | PS_TF_LEN,
                                 .value = value,
                                 .len = len});
    if (s->bounded && value >= s->root_bound && s->stop == PS_STOP_NONE)
        s->stop = PS_STOP_PROVEN;
    return true;
}

bool ps_memory_reserve(struct ps_search *s, uint64_t bytes)
{
    if (s->limits.max_memory && s->stats.memory + bytes > s->limits.max_memory)
        return false;
    s->stats.memory += bytes;
    if (s->stats.memory > s->stats.peak_memory)
        s->stats.peak_memory = s->stats.memory;
    return true;
}

void ps_memory_release(struct ps_search *s, uint64_t bytes)
{
    s->stats.memory = bytes > s->stats.memory ? 0 : s->stats.memory - bytes;
}

void ps_search_trace_event(struct ps_search *s, const struct ps_trace_event *ev)
{
    ps_trace_emit(&s->trace, ev);
}

void ps_search_trace(struct ps_search *s, const void *state, int depth,
                     ps_value g, ps_value h, const char *what)
{
    ps_search_trace_event(s, &(struct ps_trace_event){
                                 .kind = PS_TRACE_EXPAND,
                                 .has = PS_TF_DEPTH | PS_TF_G | PS_TF_H,
                                 .depth = depth,
                                 .g = g,
                                 .h = h,
                                 .move = what,
                                 .state = state});
}

ps_value ps_final_value(const struct ps_search *s, const void *state,
                        ps_value so_far)
{
    if (s->game->end_value)
        return so_far + s->game->end_value(s->inst, state);
    return so_far;
}

const char *ps_status_name(enum ps_status st)
{
    switch (st) {
    case PS_OPTIMAL: return "optimal";
    case PS_HEURISTIC: return "heuristic";
    case PS_UNSOLVABLE: return "unsolvable";
    case PS_INCOMPLETE: return "incomplete";
    }
    return "?";
}

const char *ps_stop_name(enum ps_stop_reason r)
{
    switch (r) {
    case PS_STOP_NONE: return "none";
    case PS_STOP_TIME: return "time limit";
    case PS_STOP_NODES: return "node limit";
    case PS_STOP_MEMORY: return "memory limit";
    case PS_STOP_INTERRUPT: return "interrupted";
    case PS_STOP_PROVEN: return "proven optimal";
    }
    return "?";
}
