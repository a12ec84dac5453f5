/*
 * trace.c - --trace's emitter (trace.h): one event as a text line or as one
 * JSON object.
 */
#include "trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

static const char *const kind_names[] = {
    [PS_TRACE_BEGIN] = "begin",         [PS_TRACE_EXPAND] = "expand",
    [PS_TRACE_PUSH] = "push",           [PS_TRACE_ITERATION] = "iteration",
    [PS_TRACE_DEPTH] = "depth",         [PS_TRACE_LEVEL] = "level",
    [PS_TRACE_IMPROVE] = "improve",
};

static bool budgeted(enum ps_trace_kind kind)
{
    return kind == PS_TRACE_EXPAND || kind == PS_TRACE_DEPTH ||
           kind == PS_TRACE_LEVEL;
}

bool ps_trace_wanted(const struct ps_tracer *t, enum ps_trace_kind kind)
{
    if (t->limit <= 0 || (!t->out && !t->capture))
        return false;
    return !budgeted(kind) || t->shown < t->limit;
}

void ps_trace_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '/':
            /* "</script>" inside a string would end the page's data block. */
            fputs(p > (const unsigned char *)s && p[-1] == '<' ? "\\/" : "/",
                  out);
            break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

/* print_state's drawing as a string (malloc'd), without ANSI colours. */
static char *state_text(const struct ps_game *g, const void *inst,
                        const void *state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return NULL;
    g->print_state(inst, state, mem, false);
    fclose(mem);
    return buf;
}

void ps_trace_state_json(FILE *out, const struct ps_game *g, const void *inst,
                         const void *state, const ps_move *next)
{
    if (g->state_json) {
        g->state_json(inst, state, next, out);
        return;
    }
    char *text = state_text(g, inst, state);
    fputs("{\"text\":", out);
    ps_trace_json_string(out, text ? text : "");
    fputc('}', out);
    free(text);
}

/* The fields in one order for both formats: name, bit, value. */
struct field {
    const char *name;
    unsigned bit;
    int64_t value;
    bool is_real;  /* the key: printed from `real` */
    double real;
};

static int event_fields(const struct ps_trace_event *ev, struct field *f)
{
    const struct field all[] = {
        {"id", PS_TF_ID, ev->id, false, 0},
        {"parent", PS_TF_PARENT, ev->parent, false, 0},
        {"depth", PS_TF_DEPTH, ev->depth, false, 0},
        {"g", PS_TF_G, ev->g, false, 0},
        {"h", PS_TF_H, ev->h, false, 0},
        {"key", PS_TF_KEY, 0, true, ev->key},
        {"open", PS_TF_OPEN, (int64_t)ev->open, false, 0},
        {"iteration", PS_TF_ITERATION, ev->iteration, false, 0},
        {"bound", PS_TF_BOUND, ev->bound, false, 0},
        {"level", PS_TF_LEVEL, ev->level, false, 0},
        {"width", PS_TF_WIDTH, ev->width, false, 0},
        {"candidates", PS_TF_CANDIDATES, (int64_t)ev->candidates, false, 0},
        {"value", PS_TF_VALUE, ev->value, false, 0},
        {"len", PS_TF_LEN, ev->len, false, 0},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (ev->has & all[i].bit)
            f[n++] = all[i];
    return n;
}

#define MAX_FIELDS 16

static void write_jsonl(FILE *out, const struct ps_tracer *t,
                        const struct ps_trace_event *ev, double seconds)
{
    fprintf(out, "{\"event\":\"%s\",\"algo\":", kind_names[ev->kind]);
    ps_trace_json_string(out, t->algo ? t->algo : "?");
    fprintf(out, ",\"n\":%d,\"t\":%.6f", t->seq, seconds);
    struct field f[MAX_FIELDS];
    int n = event_fields(ev, f);
    for (int i = 0; i < n; i++)
        if (f[i].is_real)
            fprintf(out, ",\"%s\":%.10g", f[i].name, f[i].real);
        else
            fprintf(out, ",\"%s\":%" PRId64, f[i].name, f[i].value);
    if (ev->move) {
        fputs(",\"move\":", out);
        ps_trace_json_string(out, ev->move);
    }
    if (ev->state && t->game) {
        fputs(",\"state\":", out);
        ps_trace_state_json(out, t->game, t->inst, ev->state, NULL);
    }
    fputs("}\n", out);
}

/* Text: one '#' line a student can read, then the board of an expansion. */
static void write_text(FILE *out, const struct ps_tracer *t,
                       const struct ps_trace_event *ev, double seconds)
{
    if (ev->kind == PS_TRACE_BEGIN) {
        fprintf(out, "== %s ==\n", t->algo ? t->algo : "?");
        return;
    }
    struct field f[MAX_FIELDS];
    int n = event_fields(ev, f);
    if (ev->kind == PS_TRACE_ITERATION && (ev->has & PS_TF_BOUND) &&
        (ev->has & PS_TF_ITERATION)) {
        /* The line IDA* is taught with. */
        fprintf(out, "# iteration %d: bound %" PRId64 "\n", ev->iteration,
                ev->bound);
        return;
    }
    fprintf(out, "# %s%s", ev->kind == PS_TRACE_PUSH ? "  " : "",
            kind_names[ev->kind]);
    for (int i = 0; i < n; i++) {
        if (f[i].is_real)
            fprintf(out, "  %s %.10g", f[i].name, f[i].real);
        else if (f[i].bit == PS_TF_ID || f[i].bit == PS_TF_PARENT)
            fprintf(out, "  %s #%" PRId64, f[i].name, f[i].value);
        else
            fprintf(out, "  %s %" PRId64, f[i].name, f[i].value);
    }
    if (ev->move)
        fprintf(out, "  move %s", ev->move);
    if (ev->kind == PS_TRACE_IMPROVE)
        fprintf(out, "  at %.3f s", seconds);
    fputc('\n', out);
    if (ev->state && t->game)
        t->game->print_state(t->inst, ev->state, out, false);
}

void ps_trace_emit(struct ps_tracer *t, const struct ps_trace_event *ev)
{
    if (!ps_trace_wanted(t, ev->kind))
        return;
    if (budgeted(ev->kind))
        t->shown++;
    t->seq++;
    double seconds = ps_now() - t->start;
    if (t->out) {
        if (t->format == PS_TRACE_JSONL)
            write_jsonl(t->out, t, ev, seconds);
        else
            write_text(t->out, t, ev, seconds);
    }
    if (t->capture)
        write_jsonl(t->capture, t, ev, seconds);
}

void ps_anytime_add(struct ps_anytime *a, double seconds, ps_value value,
                    int len)
{
    if (a->n == a->cap) {
        int cap = a->cap ? a->cap * 2 : 64;
        struct ps_anytime_point *p = realloc(a->points, (size_t)cap * sizeof *p);
        if (!p)
            return; /* the curve loses a point, the search goes on */
        a->points = p;
        a->cap = cap;
    }
    a->points[a->n++] = (struct ps_anytime_point){seconds, value, len};
}

void ps_anytime_free(struct ps_anytime *a)
{
    free(a->points);
    a->points = NULL;
    a->n = a->cap = 0;
}
