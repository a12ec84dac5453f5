/*
 * dfs_place.c - dfs's place in a cost round, saved to a checkpoint and
 * read back (dfs_place.h).
 */
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "deepening.h"
#include "dfs_place.h"

/* The longest path a file may claim; a real one is far shorter, and each
 * step is replayed anyway. */
#define DFS_PLACE_MAX_LEN (1 << 20)

void dfs_place_save(struct ps_search *s, const struct dfs_place *p)
{
    struct ps_ckpt_buf buf;
    if (!ps_checkpoint_search_save(s, 0, &buf))
        return;
    ps_ckpt_put_u64(&buf, (uint64_t)p->bound);
    ps_ckpt_put_u64(&buf, (uint64_t)p->next_bound);
    ps_ckpt_put_u64(&buf, p->depth_cut);
    ps_ckpt_put_u64(&buf, p->sound);
    ps_ckpt_put_u64(&buf, (uint64_t)p->beam_width);
    ps_ckpt_put_u64(&buf, p->beam_at);
    ps_ckpt_put_u64(&buf, (uint64_t)p->len);
    for (int k = 0; k < p->len; k++) {
        ps_ckpt_put_u64(&buf, (uint64_t)p->at[k]);
        ps_ckpt_put_u64(&buf, p->path[k]);
    }
    ps_checkpoint_save(s, 0, &buf);
}

void dfs_place_free(struct dfs_place *p)
{
    free(p->at);
    free(p->path);
    p->at = NULL;
    p->path = NULL;
    p->len = 0;
}

static bool refuse(struct ps_search *s, struct dfs_place *p, const char *why)
{
    dfs_place_free(p);
    ps_error_set(&s->error, s->checkpoint->resumed, 0, 0, "cannot resume: %s",
                 why);
    s->stop = PS_STOP_ERROR;
    return false;
}

/* The path from the start, each step the move the game lists at its
 * index: the checksum says nothing of a file's truth. */
static bool path_replays(const struct ps_search *s, const void *root,
                         const struct dfs_place *p)
{
    const struct ps_game *g = s->game;
    int mm = g->max_moves(s->inst);
    unsigned char *st = malloc(2 * s->state_size + 1);
    ps_move *moves = malloc((size_t)(mm > 0 ? mm : 1) * sizeof *moves);
    bool sound = st && moves;
    if (sound)
        memcpy(st, root, s->state_size);
    for (int k = 0; k < p->len && sound; k++) {
        int n = g->moves(s->inst, st, moves, NULL);
        sound = p->at[k] < n && moves[p->at[k]] == p->path[k];
        if (sound) {
            g->apply(s->inst, st, p->path[k], st + s->state_size);
            memcpy(st, st + s->state_size, s->state_size);
        }
    }
    free(st);
    free(moves);
    return sound;
}

bool dfs_place_load(struct ps_search *s, const void *root, bool sound,
                    struct dfs_place *p)
{
    memset(p, 0, sizeof *p);
    struct ps_ckpt_reader r;
    if (!ps_checkpoint_search_resume(s, 0, 1, &r))
        return false;
    p->iterations = (uint64_t)s->stats.iterations; /* read back just now */
    p->bound = (ps_value)ps_ckpt_get_u64(&r);
    p->next_bound = (ps_value)ps_ckpt_get_u64(&r);
    p->depth_cut = ps_ckpt_get_count(&r, 1) != 0;
    p->sound = ps_ckpt_get_count(&r, 1) != 0;
    p->beam_width = (int)ps_ckpt_get_count(&r, INT32_MAX);
    p->beam_at = ps_ckpt_get_u64(&r);
    p->len = (int)ps_ckpt_get_count(&r, DFS_PLACE_MAX_LEN);
    /* each step takes 16 bytes: a length the part cannot hold is bad
     * before anything is allocated for it */
    if (r.bad || (size_t)p->len > (r.len - r.pos) / 16)
        r.bad = true;
    else {
        p->at = malloc((size_t)p->len * sizeof *p->at + 1);
        p->path = malloc((size_t)p->len * sizeof *p->path + 1);
        if (!p->at || !p->path)
            r.bad = true;
    }
    for (int k = 0; k < p->len && !r.bad; k++) {
        p->at[k] = (int)ps_ckpt_get_count(&r, INT32_MAX);
        p->path[k] = (ps_move)ps_ckpt_get_count(&r, UINT32_MAX);
    }
    if (!ps_checkpoint_read_end(s, 0, &r)) {
        dfs_place_free(p);
        return false;
    }
    /* Bounds are never negative, and the next one is over the round's. */
    if (p->bound < 0 || p->bound == PS_NO_BOUND || p->next_bound <= p->bound)
        return refuse(s, p, "dfs's round is corrupt (a bound that no round "
                            "of this board had)");
    if (!p->sound && sound)
        return refuse(s, p, "the file's rounds ran with a heuristic that is "
                            "not admissible: they prove nothing");
    if (!path_replays(s, root, p))
        return refuse(s, p, "dfs's path is corrupt (a move the game does not "
                            "list there)");
    return true;
}
