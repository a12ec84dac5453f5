/*
 * html.c - the --html page (html.h): the runs' data as JSON inside the
 * template report.html, one self-contained file.
 */
#include "html.h"
#include "textfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* framework/report/report.html, embedded by cmake/embed.cmake. */
extern const unsigned char ps_html_template[];
extern const size_t ps_html_template_len;

/* Where the data goes in the template. */
static const char data_marker[] = "/*PSOLVE-DATA*/";

/* A replay longer than this shows its first moves only: the page stays
 * small enough for a browser to open at once. */
#define MAX_FRAMES 5000

void ps_html_capture_begin(struct ps_html_capture *c, struct ps_search *s)
{
    memset(c, 0, sizeof c[0]);
    s->anytime = &c->anytime;
    if (s->opt.trace > 0) {
        c->mem = open_memstream(&c->trace, &c->trace_len);
        s->trace.capture = c->mem;
    }
}

void ps_html_capture_end(struct ps_html_capture *c, struct ps_search *s)
{
    s->anytime = NULL;
    s->trace.capture = NULL;
    if (c->mem)
        fclose(c->mem);
    c->mem = NULL;
}

void ps_html_capture_free(struct ps_html_capture *c)
{
    ps_anytime_free(&c->anytime);
    free(c->trace);
    c->trace = NULL;
}

static void json_key(FILE *out, const char *key)
{
    ps_trace_json_string(out, key);
    fputc(':', out);
}

/* The board before each move with that move highlighted, the moves, and
 * the value after each move: what the replay steps through. */
static void write_replay(FILE *out, const struct ps_game *g, const void *inst,
                         const struct ps_run *r)
{
    int n = r->len < MAX_FRAMES ? r->len : MAX_FRAMES;
    struct ps_walk w;
    fputs(",\"moves\":[", out);
    if (ps_walk_begin(&w, g, inst)) {
        for (int k = 0; k < n; k++) {
            char text[64], about[128];
            ps_move_texts(g, inst, w.cur, r->moves[k], text, sizeof text, about,
                          sizeof about);
            ps_value v = ps_walk_step(&w, r->moves[k]);
            fprintf(out, "%s{\"text\":", k ? "," : "");
            ps_trace_json_string(out, text);
            fprintf(out, ",\"gain\":%lld,\"desc\":", (long long)v);
            ps_trace_json_string(out, about);
            fputc('}', out);
        }
        ps_walk_end(&w);
    }
    fputs("],\"frames\":[", out);
    if (ps_walk_begin(&w, g, inst)) {
        for (int k = 0; k <= n; k++) {
            /* The last frame shows the run's value: it adds the end value
             * (a clearing bonus) to the gains. */
            ps_value shown = k == r->len && r->verified ? r->replay.value
                                                        : w.so_far;
            fprintf(out, "%s{\"value\":%lld,\"state\":", k ? "," : "",
                    (long long)shown);
            ps_trace_state_json(out, g, inst, w.cur, k < n ? &r->moves[k] : NULL);
            fputc('}', out);
            if (k < n)
                ps_walk_step(&w, r->moves[k]);
        }
        ps_walk_end(&w);
    }
    fputc(']', out);
}

/* JSONL lines as the elements of a JSON array. */
static void write_trace(FILE *out, const char *jsonl, size_t len)
{
    fputs(",\"trace\":[", out);
    bool first = true;
    for (size_t i = 0; i < len;) {
        const char *end = memchr(jsonl + i, '\n', len - i);
        size_t n = end ? (size_t)(end - (jsonl + i)) : len - i;
        if (n > 0) {
            if (!first)
                fputc(',', out);
            fwrite(jsonl + i, 1, n, out);
            first = false;
        }
        i += n + 1;
    }
    fputc(']', out);
}

static void write_run(FILE *out, const struct ps_html_report *rep,
                      const struct ps_run *r, const struct ps_html_capture *c)
{
    fputc('{', out);
    json_key(out, "algo");
    ps_trace_json_string(out, r->algo ? r->algo : "?");
    fputs(",\"status\":", out);
    ps_trace_json_string(out, ps_status_name(r->status));
    fputs(",\"stop\":", out);
    ps_trace_json_string(out, ps_stop_name(r->stop));
    fputs(",\"note\":", out);
    ps_trace_json_string(out, r->note);
    fprintf(out, ",\"found\":%s,\"verified\":%s,\"value\":%lld,\"len\":%d,"
                 "\"over\":%s,\"stats\":",
            r->found ? "true" : "false", r->verified ? "true" : "false",
            (long long)r->value, r->len, r->replay.over ? "true" : "false");
    ps_json_stats(out, &r->stats);
    if (r->nlayers) {
        fputs(",\"layers\":", out);
        ps_json_layers(out, r);
    }
    if (r->found && r->moves)
        write_replay(out, rep->game, rep->inst, r);
    if (c) {
        fputs(",\"anytime\":[", out);
        for (int i = 0; i < c->anytime.n; i++)
            fprintf(out, "%s[%.6f,%lld]", i ? "," : "",
                    c->anytime.points[i].seconds,
                    (long long)c->anytime.points[i].value);
        fputc(']', out);
        if (c->trace)
            write_trace(out, c->trace, c->trace_len);
    }
    fputc('}', out);
}

static void write_lab_row(FILE *out, const struct ps_lab_row *row)
{
    fputs("{\"puzzle\":", out);
    ps_trace_json_string(out, row->puzzle);
    fputs(",\"algo\":", out);
    ps_trace_json_string(out, row->algo);
    fputs(",\"status\":", out);
    ps_trace_json_string(out, row->error ? "error" : ps_status_name(row->status));
    fprintf(out, ",\"found\":%s,\"value\":%lld,\"len\":%d,\"stats\":",
            row->found ? "true" : "false", (long long)row->value, row->len);
    ps_json_stats(out, &row->stats);
    fputc('}', out);
}

static void write_data(FILE *out, const struct ps_html_report *r)
{
    fputs("{\"psolve\":", out);
    ps_trace_json_string(out, PSOLVE_VERSION);
    fputs(",\"command\":", out);
    ps_trace_json_string(out, r->command);
    fputs(",\"game\":", out);
    ps_trace_json_string(out, r->game->name);
    fputs(",\"puzzle\":", out);
    ps_trace_json_string(out, r->puzzle ? r->puzzle : "");
    bool maximise = r->inst ? ps_game_flags(r->game, r->inst) & PS_MAXIMISE
                            : (r->nrows > 0 && r->rows[0].maximise);
    fprintf(out, ",\"objective\":\"%s\"", maximise ? "score" : "cost");
    if (r->nruns >= 2) { /* the same line as the table's */
        char line[PS_WINNER_LINE];
        ps_winner_line(line, sizeof line, maximise, r->runs, r->nruns);
        fputs(",\"winner\":", out);
        ps_trace_json_string(out, line);
    }
    fputs(",\"runs\":[", out);
    for (int i = 0; i < r->nruns; i++) {
        if (i)
            fputc(',', out);
        write_run(out, r, &r->runs[i], r->captures ? &r->captures[i] : NULL);
    }
    fputs("],\"lab\":[", out);
    for (int i = 0; i < r->nrows; i++) {
        if (i)
            fputc(',', out);
        write_lab_row(out, &r->rows[i]);
    }
    fputs("]}", out);
}

/* framework/report/board.js, embedded by cmake/embed.cmake. */
extern const unsigned char ps_board_js[];
extern const size_t ps_board_js_len;

static const char common_marker[] = "/*PSOLVE-COMMON*/";

void ps_html_page(FILE *out, const unsigned char *tmpl, size_t len,
                  void (*data)(FILE *out, const void *ctx), const void *ctx)
{
    const char *page = (const char *)tmpl, *end = page + len;
    while (page < end) {
        /* The next marker of the two (each may stand once). */
        const char *d = strstr(page, data_marker);
        const char *c = strstr(page, common_marker);
        const char *at = d && (!c || d < c) ? d : c;
        if (!at) {
            fwrite(page, 1, (size_t)(end - page), out);
            return;
        }
        fwrite(page, 1, (size_t)(at - page), out);
        if (at == d) {
            data(out, ctx);
            page = at + strlen(data_marker);
        } else {
            fwrite(ps_board_js, 1, ps_board_js_len, out);
            page = at + strlen(common_marker);
        }
    }
}

static void report_data(FILE *out, const void *ctx)
{
    write_data(out, ctx);
}

void ps_html_write(FILE *out, const struct ps_html_report *r)
{
    ps_html_page(out, ps_html_template, ps_html_template_len, report_data, r);
}

bool ps_html_write_file(const char *path, const struct ps_html_report *r,
                        struct ps_error *err)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return ps_error_set(err, path, 0, 0, "cannot write the HTML report: %s",
                            strerror(errno));
    errno = 0; /* the cause of a failed write, for ps_output_close */
    ps_html_write(out, r);
    return ps_output_close(out, path, true, err);
}
