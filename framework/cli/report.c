#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"

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
    fprintf(out,
            "# expanded: %llu\n# generated: %llu\n# duplicates: %llu\n"
            "# pruned: %llu\n# playouts: %llu\n# peak_table: %llu\n"
            "# peak_memory: %llu\n# iterations: %d\n# seconds: %.3f\n",
            (unsigned long long)st->expanded, (unsigned long long)st->generated,
            (unsigned long long)st->duplicates, (unsigned long long)st->pruned,
            (unsigned long long)st->playouts, (unsigned long long)st->peak_table,
            (unsigned long long)st->peak_memory, st->iterations, st->seconds);
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
        else
            fwrite(p, 1, (size_t)n, out);
        p += n > 0 ? n : 1;
    }
    fputc('"', out);
}

void ps_json_stats(FILE *out, const struct ps_stats *st)
{
    fprintf(out,
            "{\"expanded\":%llu,\"generated\":%llu,\"duplicates\":%llu,"
            "\"pruned\":%llu,\"playouts\":%llu,\"table_probes\":%llu,"
            "\"table_hits\":%llu,\"peak_table\":%llu,\"peak_frontier\":%llu,"
            "\"peak_memory\":%llu,\"iterations\":%d,\"seconds\":%.6f}",
            (unsigned long long)st->expanded, (unsigned long long)st->generated,
            (unsigned long long)st->duplicates, (unsigned long long)st->pruned,
            (unsigned long long)st->playouts,
            (unsigned long long)st->table_probes,
            (unsigned long long)st->table_hits,
            (unsigned long long)st->peak_table,
            (unsigned long long)st->peak_frontier,
            (unsigned long long)st->peak_memory, st->iterations, st->seconds);
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
    fprintf(out, ",\"stats\":");
    ps_json_stats(out, &r->stats);
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

void ps_report_table(FILE *out, const struct ps_game *g, const void *inst,
                     const struct ps_run *runs, int n, bool csv)
{
    const char *vk = value_key(g, inst);
    if (csv)
        fprintf(out, "algorithm,status,%s,moves,expanded,generated,duplicates,"
                     "pruned,playouts,peak_table,peak_memory,seconds,verified\n",
                vk);
    else
        fprintf(out, "%-10s %-11s %10s %6s %12s %12s %11s %11s %10s %11s %12s "
                     "%9s\n",
                "algorithm", "status", vk, "moves", "expanded", "generated",
                "duplicates", "pruned", "playouts", "peak_table", "peak_memory",
                "seconds");
    for (int i = 0; i < n; i++) {
        const struct ps_run *r = &runs[i];
        const struct ps_stats *st = &r->stats;
        char value[32] = "-", moves[16] = "-";
        if (r->found) {
            snprintf(value, sizeof value, "%lld", (long long)r->value);
            snprintf(moves, sizeof moves, "%d", r->len);
        }
        const char *fmt = csv ? "%s,%s,%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                                "%.3f,%s\n"
                              : "%-10s %-11s %10s %6s %12llu %12llu %11llu "
                                "%11llu %10llu %11llu %12llu %9.3f%s\n";
        const char *ver = csv ? (r->found ? (r->verified ? "yes" : "no") : "")
                              : (r->found && !r->verified ? "  NOT VERIFIED" : "");
        fprintf(out, fmt, r->algo, ps_status_name(r->status), value, moves,
                (unsigned long long)st->expanded,
                (unsigned long long)st->generated,
                (unsigned long long)st->duplicates,
                (unsigned long long)st->pruned, (unsigned long long)st->playouts,
                (unsigned long long)st->peak_table,
                (unsigned long long)st->peak_memory, st->seconds, ver);
    }
    if (csv)
        return;
    ps_value opt;
    if (!ps_runs_agree(runs, n, &opt))
        fprintf(out, "# ERROR: the exact algorithms disagree on the optimum\n");
    else
        fprintf(out, "# exact algorithms agree\n");
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
