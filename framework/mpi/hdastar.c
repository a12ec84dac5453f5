/*
 * hdastar.c - hash-distributed A* (--algo hdastar; Kishimoto, Fukunaga &
 * Botea 2009), for cost games: exact, like astar.
 *
 * Every state has one owner, the rank hash mod P (the game's hash, which
 * is canonical: Water Sort hashes its sorted tubes, so symmetric positions
 * meet at one owner; it is mixed once more first, because each rank's table
 * indexes its slots by the low bits of the same hash). A rank expands the
 * best (f = g + h) state of its own open list; the successors it owns go to
 * its table, the others are batched per owner and sent without blocking.
 * The owner keeps the best g per state (reopening on a better one, as A*
 * does), and parents are (rank, entry) pairs.
 *
 * The incumbent (the cheapest goal so far) is sent to every rank as soon as
 * it improves; states with f >= incumbent are pruned. The search is over
 * when every rank is idle (nothing left below the incumbent, its batches
 * sent) and no message is in flight: Mattern's counting with non-blocking
 * reductions. An idle rank adds its counts of messages sent and received to
 * a wave; two consecutive waves with sent = received = the same totals prove
 * that no rank was active and no message in flight at the end of the first
 * (each rank's counters cannot change between its two idle contributions
 * without a receipt). The incumbent is then optimal; none means proven
 * unsolvable. Limits (--max-nodes split over the ranks, --time, memory)
 * stop a rank, and the wave stops them all.
 *
 * The path is rebuilt on rank 0 by asking each parent's owner for its state
 * and parent, then turned into moves by ps_moves_from_states.
 *
 * States travel by value (ps_game_state_pack): a game's state bytes, or
 * what its state_pack makes of a state whose bytes mean something only in
 * its own process (a Lua game's ids); the receiver rebuilds its own.
 */
#include <stdlib.h>
#include <string.h>

#include "bestfirst.h"
#include "hash.h"
#include "mpi_frontend.h"
#include "table.h"
#include "transport.h"

#define HD_BATCH_BYTES (32 * 1024) /* a batch is sent when it is this full */
#define HD_POLL_EVERY 16           /* expansions between message polls */
#define HD_NO_INCUMBENT INT64_MAX
#define HD_NO_PARENT (-1)

struct hd_node {
    ps_value g;
    int32_t parent_rank; /* HD_NO_PARENT for the start */
    uint32_t parent;     /* entry index at parent_rank */
};

/* A state on the wire: this header, then `bytes` bytes of the packed state. */
struct hd_record {
    int64_t g, h;
    int32_t parent_rank;
    uint32_t parent;
    uint64_t bytes;
};

struct hd_batch {
    unsigned char *buf;
    size_t len, cap;
};

struct hd {
    struct ps_search *s;
    int rank, size;
    struct ps_table table;
    struct ps_bf_heap open;
    struct hd_batch *out;        /* per rank */
    struct ps_mpi_sends *sends;
    unsigned char *wire;         /* a packed state (hd_pack) */
    size_t wire_len, wire_cap;
    int64_t sent, received;      /* messages, for the termination waves */
    ps_value incumbent;
    int64_t goal;                /* entry of the incumbent here, or -1 */
    unsigned char *cur, *next;
    ps_move *moves;
};

static int owner_of(const struct hd *d, uint64_t hash)
{
    return (int)(ps_hash_mix(hash) % (uint64_t)d->size);
}

/* A state that did not pack or unpack: the game's fault says why. */
static void hd_state_failed(struct hd *d)
{
    struct ps_search *s = d->s;
    struct ps_error err;
    enum ps_fault f = ps_game_fault(s->game, s->inst, &err);
    if (f == PS_FAULT_NONE)
        ps_error_set(&err, NULL, 0, 0, "a state did not travel to its owner");
    ps_search_fault(s, f == PS_FAULT_NONE ? PS_FAULT_ERROR : f, &err);
}

/* Room for `need` bytes in *buf (*cap of them now); false (the search
 * stopped) when out of memory. */
static bool hd_room(struct hd *d, unsigned char **buf, size_t *cap,
                    size_t need)
{
    if (need <= *cap)
        return true;
    unsigned char *more = realloc(*buf, need);
    if (!more) {
        d->s->stop = PS_STOP_MEMORY;
        return false;
    }
    *buf = more;
    *cap = need;
    return true;
}

/* state packed into d->wire (d->wire_len bytes); false (the search
 * stopped) when out of memory or the game cannot pack it. */
static bool hd_pack(struct hd *d, const void *state)
{
    const struct ps_search *s = d->s;
    for (;;) {
        size_t n = ps_game_state_pack(s->game, s->inst, state, d->wire,
                                      d->wire_cap);
        if (n == 0) {
            hd_state_failed(d);
            return false;
        }
        if (n <= d->wire_cap) {
            d->wire_len = n;
            return true;
        }
        if (!hd_room(d, &d->wire, &d->wire_cap, n))
            return false;
    }
}

/* A packed state back into `state` (this rank's own form). */
static bool hd_unpack(struct hd *d, const void *buf, size_t len, void *state)
{
    const struct ps_search *s = d->s;
    if (ps_game_state_unpack(s->game, s->inst, buf, len, state))
        return true;
    hd_state_failed(d);
    return false;
}

/* The run's heuristic (--heuristic, or the game's slot) when it keeps the
 * search exact (ps_search_h_exact), as A* reads it. */
static ps_value heuristic_of(const struct ps_search *s, const void *state)
{
    return ps_search_h_exact(s) ? ps_search_h(s, state) : 0;
}

static void broadcast_incumbent(struct hd *d)
{
    for (int r = 0; r < d->size; r++) {
        if (r == d->rank)
            continue;
        int64_t *v = malloc(sizeof *v);
        if (v) {
            *v = d->incumbent;
            if (ps_mpi_isend(d->sends, r, PS_TAG_INCUMBENT, v, sizeof *v))
                d->sent++;
        }
    }
}

/* A state arriving at its owner. False when a limit stops the search. */
static bool hd_reach(struct hd *d, const void *state, ps_value g, ps_value h,
                     int32_t parent_rank, uint32_t parent)
{
    struct ps_search *s = d->s;
    if (g + h >= d->incumbent) {
        s->stats.pruned++;
        return true;
    }
    bool added;
    int64_t idx = ps_table_insert(&d->table, s->game->hash(s->inst, state),
                                  state, &added);
    if (idx == PS_TABLE_FULL) {
        s->stop = PS_STOP_MEMORY;
        return false;
    }
    struct hd_node *node = ps_table_value(&d->table, idx);
    if (!added && g >= node->g) {
        s->stats.duplicates++;
        return true;
    }
    node->g = g;
    node->parent_rank = parent_rank;
    node->parent = parent;
    if (s->game->is_goal(s->inst, state)) {
        /* Costs are >= 0: nothing through a goal is cheaper than it. */
        d->incumbent = g;
        d->goal = idx;
        broadcast_incumbent(d);
        return true;
    }
    struct ps_bf_item it = {g + h, g, (uint32_t)idx};
    return ps_bf_heap_push(s, &d->open, it);
}

static void hd_flush(struct hd *d, int r)
{
    struct hd_batch *b = &d->out[r];
    if (b->len == 0)
        return;
    if (ps_mpi_isend(d->sends, r, PS_TAG_NODES, b->buf, b->len))
        d->sent++;
    else
        d->s->stop = PS_STOP_MEMORY;
    b->buf = NULL; /* the send owns it */
    b->len = b->cap = 0;
}

/* A successor for rank r. */
static bool hd_send(struct hd *d, int r, const void *state, ps_value g,
                    ps_value h, uint32_t parent)
{
    if (!hd_pack(d, state))
        return false;
    struct hd_batch *b = &d->out[r];
    struct hd_record rec = {g, h, d->rank, parent, d->wire_len};
    size_t need = b->len + sizeof rec + d->wire_len;
    if (!hd_room(d, &b->buf, &b->cap,
                 need > HD_BATCH_BYTES ? need : HD_BATCH_BYTES))
        return false;
    memcpy(b->buf + b->len, &rec, sizeof rec);
    memcpy(b->buf + b->len + sizeof rec, d->wire, d->wire_len);
    b->len = need;
    if (b->len >= HD_BATCH_BYTES)
        hd_flush(d, r);
    return true;
}

static void hd_receive_batch(struct hd *d, const unsigned char *buf,
                             size_t len, bool keep)
{
    struct hd_record rec;
    for (size_t off = 0; len - off >= sizeof rec;) {
        memcpy(&rec, buf + off, sizeof rec);
        off += sizeof rec;
        if (rec.bytes > len - off)
            break; /* cannot happen between ranks of one program */
        if (keep && (!hd_unpack(d, buf + off, (size_t)rec.bytes, d->cur) ||
                     !hd_reach(d, d->cur, rec.g, rec.h, rec.parent_rank,
                               rec.parent)))
            keep = false;
        off += (size_t)rec.bytes;
    }
}

/* Take the messages that are there; `keep` false drops the states (a
 * stopped rank only counts them). */
static bool hd_poll(struct hd *d, bool keep)
{
    bool any = false;
    int src, tag;
    size_t len;
    ps_mpi_relay_signal(); /* a signal to any rank stops every rank's loop */
    while (ps_mpi_probe(-1, &src, &tag, &len)) {
        if (tag != PS_TAG_NODES && tag != PS_TAG_INCUMBENT)
            break; /* not this phase's: the trace comes later */
        unsigned char *buf = malloc(len + 1);
        if (!buf)
            abort(); /* a message that cannot be taken blocks every rank */
        ps_mpi_recv(src, tag, buf, len);
        d->received++;
        any = true;
        if (tag == PS_TAG_INCUMBENT) {
            int64_t v;
            memcpy(&v, buf, sizeof v);
            if (v < d->incumbent) {
                d->incumbent = v;
                d->goal = -1; /* another rank holds the goal */
            }
        } else {
            hd_receive_batch(d, buf, len, keep && d->s->stop == PS_STOP_NONE);
        }
        free(buf);
    }
    ps_mpi_sends_progress(d->sends);
    return any;
}

/* Expand the best open state below the incumbent; false when there is
 * none (the rank is idle). */
static bool hd_expand_one(struct hd *d)
{
    struct ps_search *s = d->s;
    const struct ps_game *g = s->game;
    while (d->open.count) {
        struct ps_bf_item it = ps_bf_heap_pop(&d->open);
        if (it.key >= d->incumbent) {
            d->open.count = 0; /* all the rest is as bad: prune it */
            return false;
        }
        struct hd_node *node = ps_table_value(&d->table, it.entry);
        if (it.g > node->g)
            continue; /* stale: a better g was pushed since */
        memcpy(d->cur, ps_table_state(&d->table, it.entry), s->state_size);
        ps_value g0 = node->g;
        s->stats.expanded++;
        int n = g->moves(s->inst, d->cur, d->moves, NULL);
        for (int i = 0; i < n; i++) {
            ps_value cost = g->apply(s->inst, d->cur, d->moves[i], d->next);
            s->stats.generated++;
            ps_value h = heuristic_of(s, d->next);
            if (g0 + cost + h >= d->incumbent) {
                s->stats.pruned++;
                continue;
            }
            int r = owner_of(d, g->hash(s->inst, d->next));
            bool ok = r == d->rank
                          ? hd_reach(d, d->next, g0 + cost, h, d->rank, it.entry)
                          : hd_send(d, r, d->next, g0 + cost, h, it.entry);
            if (!ok)
                return false;
        }
        return true;
    }
    return false;
}

/* The wave contents: sent, received, stop reason (max as the sum's sign
 * cannot carry it: a separate reduction), incumbent (min). */
enum { W_SENT, W_RECEIVED, W_COUNT };

/* Run until termination; returns the global stop reason (PS_STOP_NONE:
 * the search is complete). */
static enum ps_stop_reason hd_loop(struct hd *d)
{
    struct ps_search *s = d->s;
    struct ps_mpi_reduction *counts = NULL, *stop = NULL, *inc = NULL;
    int64_t prev[W_COUNT] = {-1, -1};
    unsigned naps = 0;
    int since_poll = 0;
    for (;;) {
        bool busy = false;
        if (s->stop == PS_STOP_NONE && !ps_search_stopped(s)) {
            busy = hd_expand_one(d);
            if (++since_poll >= HD_POLL_EVERY || !busy) {
                since_poll = 0;
                busy |= hd_poll(d, true);
            }
        } else {
            busy = hd_poll(d, false);
            d->open.count = 0;
        }
        if (busy && s->stop == PS_STOP_NONE) {
            naps = 0;
            continue;
        }
        /* Idle (or stopped): send what is batched, join a wave. */
        for (int r = 0; r < d->size; r++)
            hd_flush(d, r);
        if (!counts) {
            int64_t c[W_COUNT] = {d->sent, d->received};
            int64_t st = s->stop, in = d->incumbent;
            counts = ps_mpi_reduce_start(c, W_COUNT, PS_MPI_SUM);
            stop = ps_mpi_reduce_start(&st, 1, PS_MPI_MAX);
            inc = ps_mpi_reduce_start(&in, 1, PS_MPI_MIN);
            if (!counts || !stop || !inc)
                abort(); /* the collectives must stay in step on all ranks */
        }
        int64_t c[W_COUNT], st, in;
        if (ps_mpi_reduce_test(counts, c)) {
            while (!ps_mpi_reduce_test(stop, &st))
                ps_mpi_idle(&naps, false);
            while (!ps_mpi_reduce_test(inc, &in))
                ps_mpi_idle(&naps, false);
            counts = stop = inc = NULL;
            if (in < d->incumbent) {
                d->incumbent = in;
                d->goal = -1;
            }
            if (st != PS_STOP_NONE)
                return (enum ps_stop_reason)st;
            if (c[W_SENT] == c[W_RECEIVED] && prev[W_SENT] == c[W_SENT] &&
                prev[W_RECEIVED] == c[W_RECEIVED])
                return PS_STOP_NONE;
            prev[W_SENT] = c[W_SENT];
            prev[W_RECEIVED] = c[W_RECEIVED];
            continue;
        }
        ps_mpi_idle(&naps, false);
    }
}

/* After a stop: take (and drop) every message still in flight, so that no
 * send is left waiting for a receiver. */
static void hd_drain(struct hd *d)
{
    unsigned naps = 0;
    for (;;) {
        for (int r = 0; r < d->size; r++)
            hd_flush(d, r);
        hd_poll(d, false);
        int64_t c[W_COUNT] = {d->sent, d->received};
        struct ps_mpi_reduction *red = ps_mpi_reduce_start(c, W_COUNT,
                                                           PS_MPI_SUM);
        if (!red)
            abort();
        while (!ps_mpi_reduce_test(red, c)) {
            hd_poll(d, false);
            ps_mpi_idle(&naps, false);
        }
        if (c[W_SENT] == c[W_RECEIVED])
            return;
    }
}

/* A trace request: entry index, or -1 for "your goal", -2 for "done". */
struct hd_trace_reply {
    int32_t parent_rank;
    uint32_t parent;
    uint32_t entry;
    uint32_t ok;  /* 0: the state could not be packed (no state follows) */
    /* then the state, packed */
};

/* Entry idx's reply, malloc'd into *out (*len bytes); NULL when out of
 * memory. */
static unsigned char *hd_entry_reply(struct hd *d, int64_t idx, size_t *len)
{
    struct hd_node *node = ps_table_value(&d->table, idx);
    struct hd_trace_reply rep = {node->parent_rank, node->parent,
                                 (uint32_t)idx, 0};
    rep.ok = hd_pack(d, ps_table_state(&d->table, idx));
    size_t n = rep.ok ? d->wire_len : 0;
    unsigned char *buf = malloc(sizeof rep + n + 1);
    if (buf) {
        memcpy(buf, &rep, sizeof rep);
        if (n)
            memcpy(buf + sizeof rep, d->wire, n);
    }
    *len = sizeof rep + n;
    return buf;
}

/* Ranks > 0: answer rank 0's requests until it is done. */
static void hd_serve_trace(struct hd *d)
{
    for (;;) {
        int src, tag;
        size_t len;
        ps_mpi_wait(PS_TAG_TRACE, &src, &tag, &len);
        int64_t idx;
        ps_mpi_recv(src, tag, &idx, sizeof idx);
        if (idx == -2)
            break;
        if (idx == -1)
            idx = d->goal;
        unsigned char *buf = hd_entry_reply(d, idx, &len);
        if (!buf)
            abort(); /* rank 0 waits for the answer */
        ps_mpi_send(0, PS_TAG_TRACE_REPLY, buf, len);
        free(buf);
    }
}

/* Rank 0: entry idx of rank `rank` (-1: its goal), malloc'd. */
static unsigned char *hd_ask_entry(struct hd *d, int rank, int64_t idx,
                                   size_t *len)
{
    if (rank == 0)
        return hd_entry_reply(d, idx == -1 ? d->goal : idx, len);
    ps_mpi_send(rank, PS_TAG_TRACE, &idx, sizeof idx);
    int src, tag;
    ps_mpi_wait(PS_TAG_TRACE_REPLY, &src, &tag, len);
    unsigned char *buf = malloc(*len + 1);
    if (!buf)
        abort(); /* the reply must be taken */
    ps_mpi_recv(src, tag, buf, *len);
    return buf;
}

/* Rank 0: the states from start to goal (chain[0] the start) into moves,
 * offered to the search. */
static void hd_offer_chain(struct hd *d, const unsigned char *states, size_t n)
{
    struct ps_search *s = d->s;
    const void **chain = malloc(n * sizeof *chain);
    ps_move *moves = malloc(n * sizeof *moves);
    if (chain && moves) {
        for (size_t k = 0; k < n; k++)
            chain[k] = states + (n - 1 - k) * s->state_size;
        ps_value cost = ps_moves_from_states(s, chain, (int)n, moves);
        if (cost != d->incumbent)
            snprintf(s->note, sizeof s->note,
                     "internal: path replay cost %lld, search g %lld",
                     (long long)cost, (long long)d->incumbent);
        ps_search_offer(s, moves, (int)n - 1, d->incumbent);
    } else {
        s->stop = PS_STOP_MEMORY;
    }
    free(chain);
    free(moves);
}

/* Rank 0: the chain of states from the goal at `winner` back to the start,
 * then the moves; offered to the search. */
static void hd_trace(struct hd *d, int winner)
{
    struct ps_search *s = d->s;
    size_t cap = 64, n = 0;
    unsigned char *states = malloc(cap * s->state_size);
    int rank = winner;
    int64_t idx = -1;
    bool done = false;
    while (states && !done) {
        size_t len;
        unsigned char *buf = hd_ask_entry(d, rank, idx, &len);
        if (!buf)
            break;
        struct hd_trace_reply rep;
        memcpy(&rep, buf, sizeof rep);
        if (n == cap) {
            unsigned char *more = realloc(states, 2 * cap * s->state_size);
            cap *= 2;
            if (!more) {
                free(buf);
                break;
            }
            states = more;
        }
        bool ok = rep.ok && len >= sizeof rep &&
                  hd_unpack(d, buf + sizeof rep, len - sizeof rep,
                            states + n * s->state_size);
        free(buf);
        if (!ok) {
            if (s->stop != PS_STOP_ERROR)
                hd_state_failed(d);
            break;
        }
        n++;
        done = rep.parent_rank == HD_NO_PARENT;
        rank = rep.parent_rank;
        idx = rep.parent;
    }
    if (done)
        hd_offer_chain(d, states, n);
    else if (s->stop == PS_STOP_NONE)
        s->stop = PS_STOP_MEMORY;
    int64_t end = -2;
    for (int r = 1; r < d->size; r++)
        ps_mpi_send(r, PS_TAG_TRACE, &end, sizeof end);
    free(states);
}

/* The error the lowest rank met (a script's) goes to rank 0, which
 * reports it: said once, by rank 0, as dnrpa's and dnmcs's. */
static void hd_gather_error(struct hd *d)
{
    struct ps_search *s = d->s;
    bool have = s->stop == PS_STOP_ERROR && s->error.msg[0];
    int64_t who = have ? -(int64_t)d->rank : -(int64_t)d->size;
    ps_mpi_max(&who, 1);
    int r = (int)-who;
    if (r == 0 || r >= d->size)
        return;
    if (d->rank == r) {
        ps_mpi_send(0, PS_TAG_ERROR, &s->error, sizeof s->error);
    } else if (d->rank == 0) {
        int src, tag;
        size_t len;
        struct ps_error err;
        ps_mpi_wait(PS_TAG_ERROR, &src, &tag, &len);
        ps_mpi_recv(src, tag, &err, sizeof err);
        err.file[sizeof err.file - 1] = err.msg[sizeof err.msg - 1] = '\0';
        ps_search_fault(s, PS_FAULT_ERROR, &err);
    }
}

/* Sum the ranks' statistics into rank 0's. */
static void hd_merge_stats(struct ps_search *s)
{
    struct ps_stats *t = &s->stats;
    int64_t v[] = {(int64_t)t->expanded, (int64_t)t->generated,
                   (int64_t)t->duplicates, (int64_t)t->pruned,
                   (int64_t)t->table_entries, (int64_t)t->peak_table,
                   (int64_t)t->peak_frontier, (int64_t)t->peak_memory};
    ps_mpi_sum(v, (int)(sizeof v / sizeof v[0]));
    t->expanded = (uint64_t)v[0];
    t->generated = (uint64_t)v[1];
    t->duplicates = (uint64_t)v[2];
    t->pruned = (uint64_t)v[3];
    t->table_entries = (uint64_t)v[4];
    t->peak_table = (uint64_t)v[5];
    t->peak_frontier = (uint64_t)v[6];
    t->peak_memory = (uint64_t)v[7];
}

static enum ps_status hdastar_run(struct ps_search *s)
{
    struct hd d;
    memset(&d, 0, sizeof d);
    d.s = s;
    d.rank = ps_mpi_rank();
    d.size = ps_mpi_size();
    d.incumbent = HD_NO_INCUMBENT;
    d.goal = -1;
    s->used_heuristic = ps_search_h_exact(s);
    uint64_t nodes = s->limits.max_nodes;
    if (nodes) {
        uint64_t share = nodes / (uint64_t)d.size;
        s->limits.max_nodes = share ? share : 1;
    }
    const struct ps_game *g = s->game;
    d.out = calloc((size_t)d.size, sizeof *d.out);
    d.sends = ps_mpi_sends_new();
    d.cur = malloc(s->state_size);
    d.next = malloc(s->state_size);
    d.moves = malloc((size_t)g->max_moves(s->inst) * sizeof *d.moves);
    bool ready = d.out && d.sends && d.cur && d.next && d.moves &&
                 ps_table_init(&d.table, s, sizeof(struct hd_node));
    if (!ready)
        s->stop = PS_STOP_MEMORY; /* still joins the waves, as stopped */
    if (ready) {
        g->initial_state(s->inst, d.cur);
        if (owner_of(&d, g->hash(s->inst, d.cur)) == d.rank) {
            memcpy(d.next, d.cur, s->state_size);
            hd_reach(&d, d.next, 0, heuristic_of(s, d.next), HD_NO_PARENT, 0);
        }
    }
    snprintf(s->note, sizeof s->note, "hash-distributed A* over %d ranks",
             d.size);
    enum ps_stop_reason stop = hd_loop(&d);
    if (stop != PS_STOP_NONE)
        hd_drain(&d);
    /* The lowest rank holding a goal at the optimum rebuilds the path. */
    int64_t holder = d.goal >= 0 && d.incumbent != HD_NO_INCUMBENT
                         ? -(int64_t)d.rank : -(int64_t)d.size;
    ps_mpi_max(&holder, 1);
    int winner = (int)-holder;
    if (winner < d.size) {
        if (d.rank == 0)
            hd_trace(&d, winner);
        else
            hd_serve_trace(&d);
    }
    s->limits.max_nodes = nodes;
    if (stop == PS_STOP_ERROR)
        hd_gather_error(&d);
    hd_merge_stats(s);
    if (d.rank == 0 && stop != PS_STOP_NONE && s->stop == PS_STOP_NONE)
        s->stop = stop; /* another rank's limit ended the run */
    for (int r = 0; r < d.size && d.out; r++)
        free(d.out[r].buf);
    free(d.out);
    ps_mpi_sends_free(d.sends);
    ps_table_free(&d.table);
    ps_bf_heap_free(s, &d.open);
    free(d.cur);
    free(d.next);
    free(d.wire);
    free(d.moves);
    if (stop != PS_STOP_NONE)
        return PS_OPTIMAL; /* the driver turns it into incomplete */
    return winner < d.size ? PS_OPTIMAL : PS_UNSOLVABLE;
}

const struct ps_algorithm ps_algo_hdastar = {
    .name = "hdastar",
    .summary = "hash-distributed A* over MPI ranks (psolve-mpi; exact)",
    .for_score = false,
    .for_cost = true,
    .run = hdastar_run,
};
