/*
 * report.c - the results on stdout (report.h): solution file with '# key:
 * value' lines, one JSON object, or a side-by-side table; each solution
 * replayed first.
 */
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/* One counter of the list (search.h's PS_STATS), by its type; seconds
 * with `digits` decimals. */
#define print_stat(out, v, digits)                                             \
    _Generic((v), double: print_seconds, int: print_int, default: print_u64)( \
        out, v, digits)

static void print_u64(FILE *out, uint64_t v, int digits)
{
    (void)digits;
    fprintf(out, "%llu", (unsigned long long)v);
}

static void print_int(FILE *out, int v, int digits)
{
    (void)digits;
    fprintf(out, "%d", v);
}

static void print_seconds(FILE *out, double v, int digits)
{
    fprintf(out, "%.*f", digits, v);
}

void ps_run_capture(struct ps_run *r, const struct ps_search *s,
                    enum ps_status status)
{
    memset(r, 0, sizeof *r);
    r->algo = s->algo_name;
    r->status = status;
    r->stop = s->stop;
    r->stats = s->stats;
    snprintf(r->note, sizeof r->note, "%s", s->note);
    r->found = s->best.found;
    r->value = s->best.value;
    r->heuristic = s->used_heuristic ? s->heuristic_name : NULL;
    if (s->layers.n > 0) {
        r->layers = malloc((size_t)s->layers.n * sizeof *r->layers);
        if (r->layers) {
            memcpy(r->layers, s->layers.v,
                   (size_t)s->layers.n * sizeof *r->layers);
            r->nlayers = s->layers.n;
            r->layer_kind = s->layers.kind;
        }
    }
    if (!r->found)
        return;
    r->len = s->best.len;
    r->moves = malloc((size_t)(r->len > 0 ? r->len : 1) * sizeof *r->moves);
    unsigned char *final = malloc(s->state_size);
    if (!r->moves || !final) {
        snprintf(r->verify_error, sizeof r->verify_error, "out of memory");
        free(final);
        return;
    }
    if (r->len > 0)
        memcpy(r->moves, s->best.moves, (size_t)r->len * sizeof *r->moves);
    struct ps_error err;
    ps_error_clear(&err);
    if (!ps_replay_moves(s->game, s->inst, r->moves, r->len, final, &r->replay,
                         &err)) {
        ps_error_format(&err, r->verify_error, sizeof r->verify_error);
        if (r->replay.text_error) {
            /* Its moves cannot be printed: no answer, an error. */
            r->game_error = true;
            r->found = false;
            r->status = PS_INCOMPLETE;
            if (r->stop != PS_STOP_TIME && r->stop != PS_STOP_INTERRUPT)
                r->stop = PS_STOP_ERROR;
            snprintf(r->note, sizeof r->note, "%.*s", (int)sizeof r->note - 1,
                     r->verify_error);
            free(final);
            return;
        }
    } else if (r->replay.value != r->value) {
        snprintf(r->verify_error, sizeof r->verify_error,
                 "the search claimed %lld but the replay gives %lld",
                 (long long)r->value, (long long)r->replay.value);
    } else {
        r->verified = true;
    }
    if (s->game->facts)
        r->nfacts = s->game->facts(s->inst, final, r->facts, PS_MAX_FACTS);
    free(final);
}

void ps_run_free(struct ps_run *r)
{
    free(r->moves);
    r->moves = NULL;
    free(r->layers);
    r->layers = NULL;
    r->nlayers = 0;
}

double ps_effective_branching(uint64_t generated, int depth)
{
    if (depth <= 0 || generated == 0)
        return 0;
    double n = (double)generated, lo = 0, hi = n > 2 ? n : 2;
    /* sum_{i=1..d} b^i grows with b: bisect, stopping a sum once past n. */
    for (int it = 0; it < 200; it++) {
        double b = (lo + hi) / 2, term = 1, sum = 0;
        for (int i = 1; i <= depth && sum <= n; i++) {
            term *= b;
            sum += term;
        }
        if (sum > n)
            hi = b;
        else
            lo = b;
    }
    return (lo + hi) / 2;
}

void ps_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    if (bytes < 1024)
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
    else if (bytes < (uint64_t)1 << 20)
        snprintf(buf, len, "%.1f KB", (double)bytes / 1024);
    else if (bytes < (uint64_t)1 << 30)
        snprintf(buf, len, "%.1f MB", (double)bytes / (1 << 20));
    else
        snprintf(buf, len, "%.2f GB", (double)bytes / (1 << 30));
}

void ps_format_seconds(double seconds, char *buf, size_t len)
{
    if (seconds < 10)
        snprintf(buf, len, "%.0f ms", seconds * 1000);
    else
        snprintf(buf, len, "%.2f s", seconds);
}

static const char *value_key(const struct ps_game *g, const void *inst)
{
    return (ps_game_flags(g, inst) & PS_MAXIMISE) ? "score" : "cost";
}

void ps_report_text(FILE *out, const struct ps_game *g, const void *inst,
                    const struct ps_run *r, const char *path)
{
    /* Escaped: a newline in the path would end the comment and make this
     * very output a solution file that does not verify. */
    fprintf(out, "# psolve: game %s, algorithm %s, ", g->name, r->algo);
    ps_print_escaped(out, path);
    fputc('\n', out);
    if (r->rules[0]) { /* may name a script by its path: escaped too */
        fputs("# rules: ", out);
        ps_print_escaped(out, r->rules);
        fputc('\n', out);
    }
    if (r->heuristic)
        fprintf(out, "# %s: %s\n",
                (ps_game_flags(g, inst) & PS_MAXIMISE) ? "bound" : "heuristic",
                r->heuristic);
    if (r->found)
        ps_print_moves(out, g, inst, r->moves, r->len);
    fprintf(out, "# status: %s\n", ps_status_name(r->status));
    if (r->stop != PS_STOP_NONE)
        fprintf(out, "# stopped: %s\n", ps_stop_name(r->stop));
    if (r->note[0]) {
        fputs("# note: ", out);
        ps_print_escaped(out, r->note);
        fputc('\n', out);
    }
    if (r->found) {
        fprintf(out, "# %s: %lld\n", value_key(g, inst), (long long)r->value);
        fprintf(out, "# moves: %d\n", r->len);
        fprintf(out, "# game_over: %s\n", r->replay.over ? "yes" : "no");
        for (int i = 0; i < r->nfacts; i++)
            fprintf(out, "# %s: %lld\n", r->facts[i].key,
                    (long long)r->facts[i].value);
        fprintf(out, "# verified: %s\n", r->verified ? "yes" : r->verify_error);
    } else {
        fprintf(out, "# solution: none\n");
    }
    const struct ps_stats *st = &r->stats;
#define TEXT_STAT(name, type, where, doc)                                      \
    if (((where) & PS_STAT_SHOWN) &&                                           \
        (!((where) & PS_STAT_ITERATED) || st->iterations)) {                   \
        fprintf(out, "# " #name ": ");                                          \
        print_stat(out, st->name, 3);                                          \
        fputc('\n', out);                                                     \
    }
    PS_STATS(TEXT_STAT)
#undef TEXT_STAT
    if (st->has_h_start)
        fprintf(out, "# h_start: %lld\n", (long long)st->h_start);
    if (st->has_lower_bound)
        fprintf(out, "# lower_bound: %lld\n", (long long)st->lower_bound);
    double ebf = ps_effective_branching(st->generated, r->found ? r->len : 0);
    if (ebf > 0)
        fprintf(out, "# ebf: %.3f\n", ebf);
    ps_report_layers(out, r, 1);
}

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes
 * there are no valid UTF-8 (a stray continuation byte, a cut sequence, an
 * overlong form, a surrogate, a code point past U+10FFFF). */
static int utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    int n;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void ps_json_string(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', out);
    while (*p) {
        unsigned char c = *p;
        int n = utf8_length(p);
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 32 || c == 127)
            fprintf(out, "\\u%04x", c);
        else if (n == 0)
            fputs("\\ufffd", out); /* JSON is UTF-8: a bad byte is replaced */
        else if (n == 2 && c == 0xc2 && p[1] <= 0x9f)
            fprintf(out, "\\u%04x", p[1]); /* C1 controls, like C0's */
        else
            fwrite(p, 1, (size_t)n, out);
        p += n > 0 ? n : 1;
    }
    fputc('"', out);
}

void ps_json_stats(FILE *out, const struct ps_stats *st)
{
#define JSON_STAT(name, type, where, doc)                                      \
    if ((where) & PS_STAT_SHOWN) {                                             \
        fprintf(out, "\"" #name "\":");                                        \
        print_stat(out, st->name, 6);                                          \
        fputc(',', out);                                                       \
    }
    fputc('{', out);
    PS_STATS(JSON_STAT)
#undef JSON_STAT
    fprintf(out, "\"h_start\":");
    if (st->has_h_start)
        fprintf(out, "%lld", (long long)st->h_start);
    else
        fprintf(out, "null");
    fprintf(out, ",\"lower_bound\":");
    if (st->has_lower_bound)
        fprintf(out, "%lld}", (long long)st->lower_bound);
    else
        fprintf(out, "null}");
}

/* --layers as JSON: {"kind":"f","rows":[{"key":..,"expanded":..,
 * "generated":..},...]} */
void ps_json_layers(FILE *out, const struct ps_run *r)
{
    fprintf(out, "{\"kind\":\"%s\",\"rows\":[", r->layer_kind);
    for (int i = 0; i < r->nlayers; i++)
        fprintf(out, "%s{\"key\":%lld,\"expanded\":%llu,\"generated\":%llu}",
                i ? "," : "", (long long)r->layers[i].key,
                (unsigned long long)r->layers[i].expanded,
                (unsigned long long)r->layers[i].generated);
    fprintf(out, "]}");
}

static void json_run_body(FILE *out, const struct ps_game *g, const void *inst,
                          const struct ps_run *r)
{
    fprintf(out, "\"algorithm\":");
    ps_json_string(out, r->algo);
    fprintf(out, ",\"status\":\"%s\"", ps_status_name(r->status));
    fprintf(out, ",\"stopped\":");
    if (r->stop != PS_STOP_NONE)
        ps_json_string(out, ps_stop_name(r->stop));
    else
        fprintf(out, "null");
    fprintf(out, ",\"note\":");
    ps_json_string(out, r->note);
    fprintf(out, ",\"found\":%s", r->found ? "true" : "false");
    if (r->found) {
        fprintf(out, ",\"%s\":%lld,\"length\":%d,\"game_over\":%s",
                value_key(g, inst), (long long)r->value, r->len,
                r->replay.over ? "true" : "false");
        for (int i = 0; i < r->nfacts; i++)
            fprintf(out, ",\"%s\":%lld", r->facts[i].key,
                    (long long)r->facts[i].value);
        fprintf(out, ",\"verified\":%s", r->verified ? "true" : "false");
        fprintf(out, ",\"moves\":[");
        size_t size = g->state_size(inst);
        unsigned char *cur = malloc(size), *next = malloc(size);
        if (cur && next) {
            g->initial_state(inst, cur);
            for (int k = 0; k < r->len; k++) {
                char text[64];
                g->format_move(inst, cur, r->moves[k], text, sizeof text);
                fprintf(out, "%s", k ? "," : "");
                ps_json_string(out, text);
                g->apply(inst, cur, r->moves[k], next);
                unsigned char *t = cur;
                cur = next;
                next = t;
            }
        }
        free(cur);
        free(next);
        fprintf(out, "]");
    }
    fprintf(out, ",\"heuristic\":");
    if (r->heuristic)
        ps_json_string(out, r->heuristic);
    else
        fprintf(out, "null");
    if (r->rules[0]) {
        fprintf(out, ",\"rules\":");
        ps_json_string(out, r->rules);
    }
    double ebf = ps_effective_branching(r->stats.generated, r->found ? r->len : 0);
    if (ebf > 0)
        fprintf(out, ",\"ebf\":%.4f", ebf);
    else
        fprintf(out, ",\"ebf\":null");
    fprintf(out, ",\"stats\":");
    ps_json_stats(out, &r->stats);
    if (r->nlayers) {
        fprintf(out, ",\"layers\":");
        ps_json_layers(out, r);
    }
}

void ps_report_json(FILE *out, const struct ps_game *g, const void *inst,
                    const struct ps_run *r, const char *path)
{
    fprintf(out, "{\"game\":");
    ps_json_string(out, g->name);
    fprintf(out, ",\"file\":");
    ps_json_string(out, path);
    fprintf(out, ",");
    json_run_body(out, g, inst, r);
    fprintf(out, "}\n");
}

bool ps_runs_agree(const struct ps_run *runs, int n, ps_value *optimum)
{
    bool have = false;
    ps_value v = 0;
    for (int i = 0; i < n; i++) {
        if (runs[i].status != PS_OPTIMAL && runs[i].status != PS_UNSOLVABLE)
            continue;
        /* An unsolvable proof is compared as "no value". */
        ps_value this = runs[i].status == PS_UNSOLVABLE ? INT64_MIN : runs[i].value;
        if (have && this != v)
            return false;
        have = true;
        v = this;
    }
    if (optimum)
        *optimum = v;
    return true;
}

static bool run_exact(const struct ps_run *r)
{
    return r->status == PS_OPTIMAL || r->status == PS_UNSOLVABLE;
}

void ps_report_agreement(FILE *out, const struct ps_run *runs, int n)
{
    ps_value opt;
    if (!ps_runs_agree(runs, n, &opt)) {
        fprintf(out, "# ERROR: the exact algorithms disagree on the optimum\n");
        return;
    }
    int exact = 0, unfinished = 0;
    for (int i = 0; i < n; i++) {
        exact += run_exact(&runs[i]);
        unfinished += runs[i].status == PS_INCOMPLETE;
    }
    if (exact >= 2) {
        fprintf(out, "# exact algorithms agree (%d runs, ", exact);
        if (opt != INT64_MIN)
            fprintf(out, "optimum %lld)", (long long)opt);
        else
            fprintf(out, "unsolvable)");
    } else if (exact == 1) {
        for (int i = 0; i < n; i++)
            if (run_exact(&runs[i]))
                fprintf(out, "# only %s finished exactly: nothing to compare "
                             "it with",
                        runs[i].algo);
    } else {
        fprintf(out, "# no exact answer");
    }
    if (unfinished) {
        fprintf(out, "; did not finish:");
        int k = 0;
        for (int i = 0; i < n; i++)
            if (runs[i].status == PS_INCOMPLETE) {
                fprintf(out, "%s %s (%s", k++ ? "," : "", runs[i].algo,
                        runs[i].stop != PS_STOP_NONE ? ps_stop_name(runs[i].stop)
                                                     : runs[i].note);
                /* How far its proof got: every solution costs this much. */
                if (runs[i].stats.has_lower_bound)
                    fprintf(out, ", lower_bound %lld",
                            (long long)runs[i].stats.lower_bound);
                fputc(')', out);
            }
    }
    fputc('\n', out);
}

/* 1234567 as "1,234,567": the winner line's numbers. */
static void format_thousands(long long v, char *buf, size_t len)
{
    char digits[32];
    /* The magnitude without negating LLONG_MIN. */
    unsigned long long m = v < 0 ? (unsigned long long)-(v + 1) + 1 : (unsigned long long)v;
    snprintf(digits, sizeof digits, "%llu", m);
    int n = (int)strlen(digits), k = 0;
    if (v < 0 && len > 1)
        buf[k++] = '-';
    for (int i = 0; i < n && (size_t)k + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
}

/* Appends to the winner line, cut at its size. */
static void winner_add(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* Is a better than b? Found beats not found; then the objective. */
static bool run_better(const struct ps_run *a, const struct ps_run *b,
                       bool maximise)
{
    if (a->found != b->found)
        return a->found;
    if (!a->found)
        return false;
    return maximise ? a->value > b->value : a->value < b->value;
}

void ps_winner_line(char *buf, size_t len, bool maximise,
                    const struct ps_run *runs, int n)
{
    buf[0] = '\0';
    if (len == 0 || n <= 0)
        return;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (run_better(&runs[i], &runs[best], maximise))
            best = i;
    if (!runs[best].found) {
        int proofs = 0;
        for (int i = 0; i < n; i++)
            proofs += runs[i].status == PS_UNSOLVABLE;
        winner_add(buf, len, proofs ? "best: none, the puzzle has no solution "
                                      "(proved by"
                                    : "best: none, no run found a solution (");
        int k = 0;
        for (int i = 0; i < n; i++) {
            const struct ps_run *r = &runs[i];
            if (proofs && r->status != PS_UNSOLVABLE)
                continue;
            if (proofs)
                winner_add(buf, len, "%s %s", k++ ? "," : "", r->algo);
            else
                winner_add(buf, len, "%s%s: %s", k++ ? ", " : "", r->algo,
                           r->stop != PS_STOP_NONE ? ps_stop_name(r->stop)
                                                   : ps_status_name(r->status));
        }
        winner_add(buf, len, ")");
        return;
    }
    /* The winners: every run with the best value, "a", "a and b tie". */
    int nwin = 0, last = best;
    bool optimal = false, verified = true, moves = true;
    for (int i = 0; i < n; i++)
        if (!run_better(&runs[best], &runs[i], maximise)) {
            nwin++;
            last = i;
            optimal |= runs[i].status == PS_OPTIMAL;
            verified &= runs[i].verified;
            moves &= runs[i].len == runs[i].value;
        }
    winner_add(buf, len, "best: ");
    for (int i = 0, k = 0; i < n; i++)
        if (!run_better(&runs[best], &runs[i], maximise))
            winner_add(buf, len, "%s%s", k++ == 0 ? "" : i == last ? " and " : ", ",
                       runs[i].algo);
    char v[32];
    format_thousands(runs[best].value, v, sizeof v);
    winner_add(buf, len, "%s, ", nwin > 1 ? " tie" : "");
    if (maximise)
        winner_add(buf, len, "%s points", v);
    else
        winner_add(buf, len, moves ? "%s moves" : "cost %s", v);
    winner_add(buf, len, optimal ? ", optimal" : ", not proved optimal");
    if (!verified)
        winner_add(buf, len, ", NOT VERIFIED");
    /* The others, best first. */
    bool shown[PS_WINNER_MAX_RUNS] = {false};
    int others = 0;
    for (int round = 0; round < n && round < PS_WINNER_MAX_RUNS; round++) {
        int next = -1;
        for (int i = 0; i < n && i < PS_WINNER_MAX_RUNS; i++)
            if (!shown[i] && run_better(&runs[best], &runs[i], maximise) &&
                (next < 0 || run_better(&runs[i], &runs[next], maximise)))
                next = i;
        if (next < 0)
            break;
        shown[next] = true;
        if (runs[next].found)
            format_thousands(runs[next].value, v, sizeof v);
        winner_add(buf, len, "%s%s %s", others++ ? ", " : " (", runs[next].algo,
                   runs[next].found ? v : "none");
    }
    if (others)
        winner_add(buf, len, ")");
}

void ps_report_winner(FILE *out, bool maximise, const struct ps_run *runs, int n)
{
    char line[PS_WINNER_LINE];
    ps_winner_line(line, sizeof line, maximise, runs, n);
    fprintf(out, "# %s\n", line);
}

static const char *layer_title(const char *kind)
{
    if (strcmp(kind, "bound") == 0)
        return "one per iteration, by its bound";
    if (strcmp(kind, "g") == 0)
        return "by g, the depth when every move costs 1";
    if (strcmp(kind, "h") == 0)
        return "by h";
    return "by f = g + h";
}

void ps_report_layers(FILE *out, const struct ps_run *runs, int n)
{
    for (int i = 0; i < n; i++) {
        const struct ps_run *r = &runs[i];
        if (!r->nlayers)
            continue;
        bool bound = strcmp(r->layer_kind, "bound") == 0;
        fprintf(out, "# layers of %s (%s):\n# %10s %14s %14s%s\n", r->algo,
                layer_title(r->layer_kind), r->layer_kind, "expanded",
                "generated", bound ? "  expanded so far" : "");
        uint64_t total = 0;
        for (int k = 0; k < r->nlayers; k++) {
            const struct ps_layer *l = &r->layers[k];
            total += l->expanded;
            fprintf(out, "# %10lld %14llu %14llu", (long long)l->key,
                    (unsigned long long)l->expanded,
                    (unsigned long long)l->generated);
            if (bound)
                fprintf(out, " %16llu", (unsigned long long)total);
            fputc('\n', out);
        }
        uint64_t last = r->layers[r->nlayers - 1].expanded;
        if (bound && last)
            fprintf(out, "# re-expansion overhead of %s: %llu expanded in all, "
                         "%llu in the last iteration (%.2fx)\n",
                    r->algo, (unsigned long long)total,
                    (unsigned long long)last, (double)total / (double)last);
    }
}

/* The cells of a run both tables print: `none` where a value is missing
 * ("" in CSV, "-" in text), the ebf with `digits` decimals. */
struct run_cells {
    char value[32], moves[16], h0[24], ebf[24];
};

static void run_cells(const struct ps_run *r, const char *none, int digits,
                      struct run_cells *c)
{
    const struct ps_stats *st = &r->stats;
    snprintf(c->value, sizeof c->value, "%s", none);
    snprintf(c->moves, sizeof c->moves, "%s", none);
    snprintf(c->h0, sizeof c->h0, "%s", none);
    snprintf(c->ebf, sizeof c->ebf, "%s", none);
    if (r->found) {
        snprintf(c->value, sizeof c->value, "%lld", (long long)r->value);
        snprintf(c->moves, sizeof c->moves, "%d", r->len);
    }
    if (st->has_h_start)
        snprintf(c->h0, sizeof c->h0, "%lld", (long long)st->h_start);
    double b = ps_effective_branching(st->generated, r->found ? r->len : 0);
    if (b > 0)
        snprintf(c->ebf, sizeof c->ebf, "%.*f", digits, b);
}

/* The CSV table: the columns of earlier versions first, in their order
 * (frozen: a script may read them by position), then every other counter
 * of search.h's list, in its order, then lower_bound (empty when the run
 * proved none); raw numbers throughout. */
static const char *const csv_frozen[] = {
    "expanded", "generated", "duplicates", "pruned", "playouts",
    "peak_table", "peak_memory", "seconds", "verified", "heuristic",
    "h_start", "ebf", "iterations", "stopped", "cycles", "reexpanded",
    "pruned_bound", "pruned_commuting", "pruned_candidates", "pruned_depth",
    "peak_frontier", "last_iteration_expanded", NULL,
};

static bool csv_is_frozen(const char *name)
{
    for (int i = 0; csv_frozen[i]; i++)
        if (strcmp(csv_frozen[i], name) == 0)
            return true;
    return false;
}

/* The cell `name` of run r: a counter of the list, or one of the run's. */
static void csv_cell(FILE *out, const struct ps_run *r,
                     const struct run_cells *c, const char *name)
{
    const struct ps_stats *st = &r->stats;
#define CSV_STAT(stat, type, where, doc)                                       \
    if (strcmp(name, #stat) == 0) {                                            \
        print_stat(out, st->stat, 3);                                          \
        return;                                                                \
    }
    PS_STATS(CSV_STAT)
#undef CSV_STAT
    if (strcmp(name, "verified") == 0)
        fputs(r->found ? (r->verified ? "yes" : "no") : "", out);
    else if (strcmp(name, "heuristic") == 0)
        fputs(r->heuristic ? r->heuristic : "", out);
    else if (strcmp(name, "h_start") == 0)
        fputs(c->h0, out);
    else if (strcmp(name, "ebf") == 0)
        fputs(c->ebf, out);
    else if (strcmp(name, "stopped") == 0)
        fputs(r->stop != PS_STOP_NONE ? ps_stop_name(r->stop) : "", out);
}

static void table_csv(FILE *out, const char *vk, const struct ps_run *runs,
                      int n)
{
    fprintf(out, "algorithm,status,%s,moves", vk);
    for (int k = 0; csv_frozen[k]; k++)
        fprintf(out, ",%s", csv_frozen[k]);
#define CSV_HEAD(name, type, where, doc)                                       \
    if (((where) & PS_STAT_SHOWN) && !csv_is_frozen(#name))                    \
        fprintf(out, "," #name);
    PS_STATS(CSV_HEAD)
#undef CSV_HEAD
    fputs(",lower_bound\n", out);
    for (int i = 0; i < n; i++) {
        const struct ps_run *r = &runs[i];
        struct run_cells c;
        run_cells(r, "", 4, &c);
        fprintf(out, "%s,%s,%s,%s", r->algo, ps_status_name(r->status),
                c.value, c.moves);
        for (int k = 0; csv_frozen[k]; k++) {
            fputc(',', out);
            csv_cell(out, r, &c, csv_frozen[k]);
        }
#define CSV_REST(name, type, where, doc)                                       \
    if (((where) & PS_STAT_SHOWN) && !csv_is_frozen(#name)) {                  \
        fputc(',', out);                                                       \
        csv_cell(out, r, &c, #name);                                           \
    }
        PS_STATS(CSV_REST)
#undef CSV_REST
        fputc(',', out);
        if (r->stats.has_lower_bound)
            fprintf(out, "%lld", (long long)r->stats.lower_bound);
        fputc('\n', out);
    }
}

void ps_report_table(FILE *out, const struct ps_game *g, const void *inst,
                     const struct ps_run *runs, int n, bool csv)
{
    const char *vk = value_key(g, inst);
    if (csv) {
        table_csv(out, vk, runs, n);
        return;
    }
    int aw = 10;
    for (int i = 0; i < n; i++)
        if ((int)strlen(runs[i].algo) > aw)
            aw = (int)strlen(runs[i].algo);
    fprintf(out, "%-*s %-10s %7s %5s %6s %11s %11s %10s %10s %10s %9s %6s %5s "
                 "%9s %8s %s\n",
            aw, "algorithm", "status", vk, "moves", "h0", "expanded",
            "generated", "duplicates", "reexpanded", "pruned", "playouts",
            "ebf", "iters", "memory", "time", "stopped");
    for (int i = 0; i < n; i++) {
        const struct ps_run *r = &runs[i];
        const struct ps_stats *st = &r->stats;
        struct run_cells c;
        run_cells(r, "-", 3, &c);
        char iters[16] = "-", mem[24], time[24];
        if (st->iterations)
            snprintf(iters, sizeof iters, "%d", st->iterations);
        ps_format_bytes(st->peak_memory, mem, sizeof mem);
        ps_format_seconds(st->seconds, time, sizeof time);
        fprintf(out, "%-*s %-10s %7s %5s %6s %11llu %11llu %10llu %10llu %10llu "
                     "%9llu %6s %5s %9s %8s %s%s\n",
                aw, r->algo, ps_status_name(r->status), c.value, c.moves, c.h0,
                (unsigned long long)st->expanded,
                (unsigned long long)st->generated,
                (unsigned long long)st->duplicates,
                (unsigned long long)st->reexpanded,
                (unsigned long long)st->pruned,
                (unsigned long long)st->playouts, c.ebf, iters, mem, time,
                r->stop != PS_STOP_NONE ? ps_stop_name(r->stop) : "-",
                r->found && !r->verified ? "  NOT VERIFIED" : "");
    }
    ps_report_agreement(out, runs, n);
    ps_report_winner(out, ps_game_flags(g, inst) & PS_MAXIMISE, runs, n);
    ps_report_layers(out, runs, n);
}

void ps_report_table_json(FILE *out, const struct ps_game *g, const void *inst,
                          const struct ps_run *runs, int n, const char *path)
{
    fprintf(out, "{\"game\":");
    ps_json_string(out, g->name);
    fprintf(out, ",\"file\":");
    ps_json_string(out, path);
    fprintf(out, ",\"agree\":%s,\"runs\":[", ps_runs_agree(runs, n, NULL) ? "true" : "false");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s{", i ? "," : "");
        json_run_body(out, g, inst, &runs[i]);
        fprintf(out, "}");
    }
    fprintf(out, "]}\n");
}
