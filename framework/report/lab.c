/*
 * lab.c - labs over many puzzles (lab.h): run, lay out, summarise.
 */
#include "lab.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "progress.h"
#include "textfile.h"
#include "threads.h"
#include "dirlist.h" /* a directory's puzzles */
#include "escape.h"

/* ---- running one puzzle ---- */

static void row_start(struct ps_lab_row *row, const char *path,
                      const struct ps_lab_setup *setup, const char *algo)
{
    memset(row, 0, sizeof *row);
    snprintf(row->puzzle, sizeof row->puzzle, "%s", path);
    snprintf(row->game, sizeof row->game, "%s", setup->game->name);
    snprintf(row->rules, sizeof row->rules, "%s", setup->rules_name);
    snprintf(row->algo, sizeof row->algo, "%s", algo);
    row->maximise = ps_game_may_score(setup->game);
}

void ps_lab_row_from_run(struct ps_lab_row *row, const char *path,
                         const struct ps_lab_setup *setup,
                         const struct ps_run *run, bool maximise)
{
    row_start(row, path, setup, run->algo);
    row->maximise = maximise;
    row->status = run->status;
    row->stop = run->stop;
    row->found = run->found;
    row->verified = run->verified;
    row->value = run->value;
    row->len = run->len;
    row->stats = run->stats;
    snprintf(row->message, sizeof row->message, "%s",
             run->found && !run->verified ? run->verify_error : run->note);
}

const char *ps_lab_label(const struct ps_lab_setup *setup, int i)
{
    return setup->variant[i].algo ? setup->variant[i].label
                                  : setup->algos[i]->name;
}

const struct ps_options *ps_lab_options(const struct ps_lab_setup *setup,
                                        int i)
{
    return setup->variant[i].algo ? &setup->variant[i].opt : &setup->opt;
}

static void rows_fail(struct ps_lab_row *rows, const char *path,
                      const struct ps_lab_setup *setup, const char *why)
{
    for (int i = 0; i < setup->nalgos; i++) {
        row_start(&rows[i], path, setup, ps_lab_label(setup, i));
        rows[i].error = true;
        snprintf(rows[i].message, sizeof rows[i].message, "%s", why);
    }
}

bool ps_lab_run_puzzle(const struct ps_lab_setup *setup, const char *path,
                       struct ps_lab_row *rows)
{
    const struct ps_game *g = setup->game;
    struct ps_error err;
    ps_error_clear(&err);
    char *text = NULL;
    size_t len;
    void *inst = NULL;
    if (ps_read_text_file(path, &text, &len, &err))
        inst = g->load(setup->rules, path, text, len, &err);
    free(text);
    if (!inst) {
        char why[sizeof rows->message];
        ps_error_format(&err, why, sizeof why);
        rows_fail(rows, path, setup, why);
        return false;
    }
    bool maximise = ps_game_flags(g, inst) & PS_MAXIMISE;
    for (int i = 0; i < setup->nalgos; i++) {
        const struct ps_algorithm *a = setup->algos[i];
        if (maximise ? !a->for_score : !a->for_cost) {
            char why[sizeof rows->message];
            snprintf(why, sizeof why, "algorithm %s does not run on %s games",
                     a->name, maximise ? "score" : "cost");
            rows_fail(rows, path, setup, why);
            g->free_instance(inst);
            return false;
        }
    }
    bool ok = true;
    for (int i = 0; i < setup->nalgos; i++) {
        struct ps_search s;
        ps_search_init(&s, g, inst, &setup->limits, ps_lab_options(setup, i));
        s.trace.out = stderr;
        enum ps_status st = ps_search_run(&s, setup->algos[i]);
        struct ps_run run;
        ps_run_capture(&run, &s, st);
        run.algo = ps_lab_label(setup, i);
        ps_search_free(&s);
        ps_lab_row_from_run(&rows[i], path, setup, &run, maximise);
        ps_run_free(&run);
        if (rows[i].found && !rows[i].verified)
            ok = false;
    }
    g->free_instance(inst);
    return ok;
}

/* ---- collecting the puzzles ---- */

static bool is_puzzle_name(const char *name)
{
    size_t n = strlen(name);
    return name[0] != '.' && n > 4 && strcmp(name + n - 4, ".txt") == 0;
}

/* Push a copy of path. */
static bool push_path(char ***paths, int *n, int *cap, const char *path)
{
    if (*n == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        char **np = realloc(*paths, (size_t)ncap * sizeof *np);
        if (!np)
            return false;
        *paths = np;
        *cap = ncap;
    }
    char *p = strdup(path);
    if (!p)
        return false;
    (*paths)[(*n)++] = p;
    return true;
}

/* Push the *.txt files of directory `dir`, sorted by name. */
static bool push_directory(char ***paths, int *n, int *cap, const char *dir,
                           struct ps_error *err)
{
    char **files;
    int nfiles;
    if (!ps_dir_list(dir, is_puzzle_name, "directory", &files, &nfiles, err))
        return false;
    bool ok = nfiles > 0 ||
              ps_error_set(err, dir, 0, 0,
                           "no puzzle files (*.txt) in the directory");
    for (int i = 0; ok && i < nfiles; i++) {
        /* A FIFO named *.txt would hang the run waiting for a writer. */
        struct stat st;
        if (stat(files[i], &st) != 0 || !S_ISREG(st.st_mode))
            ok = ps_error_set(err, files[i], 0, 0,
                              "not a regular file (a FIFO, a device or a "
                              "directory): a directory's puzzles must be "
                              "plain files");
        else if (!push_path(paths, n, cap, files[i]))
            ok = ps_error_set(err, dir, 0, 0, "out of memory");
    }
    ps_dir_list_free(files, nfiles);
    return ok;
}

bool ps_lab_collect(const char *const *args, int nargs, char ***paths,
                    int *npaths, struct ps_error *err)
{
    *paths = NULL;
    *npaths = 0;
    int cap = 0;
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        bool ok = stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)
                      ? push_directory(paths, npaths, &cap, args[i], err)
                      : push_path(paths, npaths, &cap, args[i]) ||
                            ps_error_set(err, NULL, 0, 0, "out of memory");
        if (!ok) {
            for (int k = 0; k < *npaths; k++)
                free((*paths)[k]);
            free(*paths);
            *paths = NULL;
            *npaths = 0;
            return false;
        }
    }
    return true;
}

/* ---- output ---- */

/* The text row: puzzle, algorithm, then these columns (printf widths). */
#define TEXT_FIXED_COLUMNS                                                    \
    (1 + 10 + 1 + 9 + 1 + 5 + 1 + 11 + 1 + 8 + 1 + 8) /* status .. seconds */
#define TEXT_PLAYOUTS_COLUMN (1 + 9)
#define TEXT_MIN_PUZZLE 12

/* The longest directory part ("dir/") that every path starts with. */
static void common_dir(const char *const *paths, int npaths, char *dir,
                       size_t len)
{
    dir[0] = '\0';
    if (npaths < 1)
        return;
    size_t n = strlen(paths[0]);
    for (int i = 1; i < npaths; i++) {
        size_t k = 0;
        while (k < n && paths[i][k] == paths[0][k])
            k++;
        n = k;
    }
    while (n > 0 && paths[0][n - 1] != '/')
        n--;
    if (n < len)
        snprintf(dir, len, "%.*s", (int)n, paths[0]);
}

void ps_lab_layout_init(struct ps_lab_layout *lay, enum ps_lab_format format,
                        const struct ps_game *g, const char *const *paths,
                        int npaths)
{
    lay->format = format;
    lay->playouts = ps_game_may_score(g);
    common_dir(paths, npaths, lay->puzzle_dir, sizeof lay->puzzle_dir);
    size_t strip = strlen(lay->puzzle_dir);
    lay->puzzle_width = (int)strlen("puzzle");
    for (int i = 0; i < npaths; i++) {
        char shown[1024];
        int w = (int)ps_escape(shown, sizeof shown, paths[i] + strip,
                               strlen(paths[i] + strip), true);
        if (w > lay->puzzle_width)
            lay->puzzle_width = w;
    }
    if (lay->puzzle_width > 255)
        lay->puzzle_width = 255;
    lay->value_key = ps_game_may_score(g) ? "score" : "cost";
    lay->algo_width = 10;
    ps_lab_layout_fit(lay);
}

/* Long labels take the room of the playouts column first, then the puzzle
 * column shrinks to TEXT_MIN_PUZZLE; only labels (never cut) longer than
 * about 30 characters make a row wider than PS_LAB_TEXT_WIDTH. */
void ps_lab_layout_fit(struct ps_lab_layout *lay)
{
    int room = PS_LAB_TEXT_WIDTH - 1 - lay->algo_width - TEXT_FIXED_COLUMNS -
               (lay->playouts ? TEXT_PLAYOUTS_COLUMN : 0);
    if (room < TEXT_MIN_PUZZLE && lay->playouts) {
        lay->playouts = false;
        room += TEXT_PLAYOUTS_COLUMN;
    }
    if (room < TEXT_MIN_PUZZLE)
        room = TEXT_MIN_PUZZLE;
    if (lay->puzzle_width > room)
        lay->puzzle_width = room;
}

/* The puzzle column: the path without the common directory, its end kept
 * ("...name.txt") when it is still too long. */
static void puzzle_cell(const struct ps_lab_layout *lay, const char *path,
                        char *buf, size_t len)
{
    size_t strip = strlen(lay->puzzle_dir);
    if (strncmp(path, lay->puzzle_dir, strip) == 0)
        path += strip;
    /* A file name may hold any byte but '/' and NUL: a newline or an
     * escape sequence would break the table or drive the terminal. */
    char shown[1024];
    size_t n = ps_escape(shown, sizeof shown, path, strlen(path), true);
    size_t w = (size_t)lay->puzzle_width;
    const char *from = shown, *dots = "";
    if (n > w && w > 3) {
        from = shown + n - (w - 3);
        dots = "...";
    }
    size_t keep = strlen(from) < len - 4 ? strlen(from) : len - 4;
    memcpy(buf, dots, strlen(dots));
    memcpy(buf + strlen(dots), from, keep);
    buf[strlen(dots) + keep] = '\0';
}

static const char *row_status(const struct ps_lab_row *r)
{
    return r->error ? "error" : ps_status_name(r->status);
}

void ps_lab_print_begin(FILE *out, const struct ps_lab_layout *lay,
                        const struct ps_lab_setup *setup, int npuzzles)
{
    switch (lay->format) {
    case PS_LAB_TEXT:
        fprintf(out, "# lab: %d puzzles x %d algorithms, game %s, rules %s\n",
                npuzzles, setup->nalgos, setup->game->name, setup->rules_name);
        if (lay->puzzle_dir[0]) {
            fprintf(out, "# puzzles in ");
            ps_print_escaped(out, lay->puzzle_dir);
            fputc('\n', out);
        }
        fprintf(out, "%-*s %-*s %-10s %9s %5s %11s", lay->puzzle_width,
                "puzzle", lay->algo_width, "algorithm", "status",
                lay->value_key, "moves", "expanded");
        if (lay->playouts)
            fprintf(out, " %9s", "playouts");
        fprintf(out, " %8s %8s\n", "memory", "seconds");
        break;
    case PS_LAB_CSV:
        fprintf(out, "puzzle,game,rules,algorithm,status,stopped,%s,moves,"
                     "expanded,generated,duplicates,pruned,playouts,peak_table,"
                     "peak_memory,iterations,seconds,verified,lower_bound\n",
                lay->value_key);
        break;
    case PS_LAB_JSON:
        fprintf(out, "{\"game\":");
        ps_json_string(out, setup->game->name);
        fprintf(out, ",\"rules\":");
        ps_json_string(out, setup->rules_name);
        fprintf(out, ",\"puzzles\":%d,\"algorithms\":[", npuzzles);
        for (int i = 0; i < setup->nalgos; i++) {
            fprintf(out, "%s", i ? "," : "");
            ps_json_string(out, ps_lab_label(setup, i));
        }
        fprintf(out, "],\n\"rows\":[\n");
        break;
    }
}

/* A CSV field: control bytes as C escapes (as in the text table: a raw
 * escape sequence would drive the terminal of whoever looks at the file),
 * then quoted when it holds a comma or quote. --json gives the exact
 * bytes. */
static void csv_field(FILE *out, const char *raw)
{
    char s[2048];
    ps_escape(s, sizeof s, raw, strlen(raw), true);
    if (!strpbrk(s, ",\"")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (const char *c = s; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

static void row_text(FILE *out, const struct ps_lab_layout *lay,
                     const struct ps_lab_row *r)
{
    char value[32] = "-", moves[16] = "-", puzzle[256], memory[32];
    if (r->found) {
        snprintf(value, sizeof value, "%lld", (long long)r->value);
        snprintf(moves, sizeof moves, "%d", r->len);
    }
    const struct ps_stats *st = &r->stats;
    puzzle_cell(lay, r->puzzle, puzzle, sizeof puzzle);
    ps_format_bytes(st->peak_memory, memory, sizeof memory);
    fprintf(out, "%-*s %-*s %-10s %9s %5s %11llu", lay->puzzle_width, puzzle,
            lay->algo_width, r->algo, row_status(r), value, moves,
            (unsigned long long)st->expanded);
    if (lay->playouts)
        fprintf(out, " %9llu", (unsigned long long)st->playouts);
    fprintf(out, " %8s %8.3f\n", memory, st->seconds);
    /* The reason on a line of its own, so that the table keeps its width. */
    if (r->error)
        fprintf(out, "  # %s\n", r->message);
    else if (r->found && !r->verified)
        fprintf(out, "  # NOT VERIFIED: %s\n", r->message);
}

static void row_csv(FILE *out, const struct ps_lab_layout *lay,
                    const struct ps_lab_row *r)
{
    (void)lay;
    const struct ps_stats *st = &r->stats;
    csv_field(out, r->puzzle);
    fprintf(out, ",%s,", r->game);
    csv_field(out, r->rules);
    fprintf(out, ",%s,%s,%s,", r->algo, row_status(r),
            r->stop != PS_STOP_NONE ? ps_stop_name(r->stop) : "");
    if (r->found)
        fprintf(out, "%lld,%d", (long long)r->value, r->len);
    else
        fprintf(out, ",");
    fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%d,%.3f,%s,",
            (unsigned long long)st->expanded, (unsigned long long)st->generated,
            (unsigned long long)st->duplicates, (unsigned long long)st->pruned,
            (unsigned long long)st->playouts, (unsigned long long)st->peak_table,
            (unsigned long long)st->peak_memory, st->iterations, st->seconds,
            r->found ? (r->verified ? "yes" : "no") : "");
    if (st->has_lower_bound)
        fprintf(out, "%lld", (long long)st->lower_bound);
    fputc('\n', out);
}

static void row_json(FILE *out, const struct ps_lab_layout *lay,
                     const struct ps_lab_row *r, int index)
{
    fprintf(out, "%s{\"puzzle\":", index ? ",\n" : "");
    ps_json_string(out, r->puzzle);
    fprintf(out, ",\"game\":");
    ps_json_string(out, r->game);
    fprintf(out, ",\"rules\":");
    ps_json_string(out, r->rules);
    fprintf(out, ",\"algorithm\":");
    ps_json_string(out, r->algo);
    fprintf(out, ",\"status\":\"%s\",\"stopped\":", row_status(r));
    if (r->stop != PS_STOP_NONE)
        ps_json_string(out, ps_stop_name(r->stop));
    else
        fprintf(out, "null");
    fprintf(out, ",\"%s\":", r->error ? "error" : "note");
    ps_json_string(out, r->message);
    fprintf(out, ",\"found\":%s", r->found ? "true" : "false");
    if (r->found)
        fprintf(out, ",\"%s\":%lld,\"length\":%d,\"verified\":%s",
                lay->value_key, (long long)r->value, r->len,
                r->verified ? "true" : "false");
    fprintf(out, ",\"stats\":");
    ps_json_stats(out, &r->stats);
    fprintf(out, "}");
}

void ps_lab_print_row(FILE *out, const struct ps_lab_layout *lay,
                      const struct ps_lab_row *row, int index)
{
    switch (lay->format) {
    case PS_LAB_TEXT: row_text(out, lay, row); break;
    case PS_LAB_CSV: row_csv(out, lay, row); break;
    case PS_LAB_JSON: row_json(out, lay, row, index); break;
    }
}

/* ---- the summary ---- */

/* Per algorithm, over the puzzles. */
struct algo_summary {
    const char *algo;
    int runs, solved, optimal, unsolvable, incomplete, errors;
    int exact;     /* finished with an exact answer (optimal / unsolvable) */
    int agree;     /* ... agreeing with another exact answer on its puzzle */
    ps_value sum_value; /* over the solved runs */
    uint64_t sum_expanded;
    double sum_seconds;
    double median_expanded, gmean_expanded, median_seconds, gmean_seconds;
};

static bool row_exact(const struct ps_lab_row *r)
{
    return !r->error && (r->status == PS_OPTIMAL || r->status == PS_UNSOLVABLE);
}

/* Exact answers compare as values; unsolvable as "no value". */
static ps_value exact_answer(const struct ps_lab_row *r)
{
    return r->status == PS_UNSOLVABLE ? INT64_MIN : r->value;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Geometric mean with a floor: a zero (no node expanded, a run under the
 * clock's resolution) would make it zero, so values below `floor` count as
 * `floor`. */
static double gmean(const double *v, int n, double floor)
{
    if (n == 0)
        return 0;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += log(v[i] > floor ? v[i] : floor);
    return exp(sum / n);
}

/* Puzzles are the runs of rows with the same puzzle next to each other (as
 * ps_lab_run lays them out). For row `i`, is its exact answer confirmed by
 * another exact answer on the same puzzle, and does any disagree? */
static void exact_peers(const struct ps_lab_row *rows, int nrows, int i,
                        bool *confirmed, bool *disagrees)
{
    *confirmed = *disagrees = false;
    for (int k = 0; k < nrows; k++) {
        if (k == i || !row_exact(&rows[k]) ||
            strcmp(rows[k].puzzle, rows[i].puzzle) != 0)
            continue;
        if (exact_answer(&rows[k]) == exact_answer(&rows[i]))
            *confirmed = true;
        else
            *disagrees = true;
    }
}

static void summarise(struct algo_summary *sum, const char *algo,
                      const struct ps_lab_row *rows, int nrows, double *scratch,
                      bool *all_agree)
{
    memset(sum, 0, sizeof *sum);
    sum->algo = algo;
    int n = 0;
    for (int i = 0; i < nrows; i++) {
        const struct ps_lab_row *r = &rows[i];
        if (strcmp(r->algo, algo) != 0)
            continue;
        sum->runs++;
        if (r->error) {
            sum->errors++;
            continue;
        }
        if (r->found && r->verified) {
            sum->solved++;
            sum->sum_value += r->value;
        }
        sum->optimal += r->status == PS_OPTIMAL;
        sum->unsolvable += r->status == PS_UNSOLVABLE;
        sum->incomplete += r->status == PS_INCOMPLETE;
        if (row_exact(r)) {
            bool confirmed, disagrees;
            exact_peers(rows, nrows, i, &confirmed, &disagrees);
            sum->exact++;
            sum->agree += confirmed && !disagrees;
            if (disagrees)
                *all_agree = false;
        }
        sum->sum_expanded += r->stats.expanded;
        sum->sum_seconds += r->stats.seconds;
        scratch[n++] = (double)r->stats.expanded;
    }
    sum->gmean_expanded = gmean(scratch, n, 1);
    sum->median_expanded = median(scratch, n);
    n = 0;
    for (int i = 0; i < nrows; i++)
        if (strcmp(rows[i].algo, algo) == 0 && !rows[i].error)
            scratch[n++] = rows[i].stats.seconds;
    sum->gmean_seconds = gmean(scratch, n, 1e-3);
    sum->median_seconds = median(scratch, n);
}

/* The summary's columns after the label take 82 characters. */
#define SUMMARY_ALGO_WIDTH (PS_LAB_TEXT_WIDTH - 82)

static void summary_text(FILE *out, const struct ps_lab_layout *lay,
                         const struct algo_summary *s, bool header)
{
    char sum_key[32];
    snprintf(sum_key, sizeof sum_key, "sum_%s", lay->value_key);
    int algo_width = lay->algo_width < SUMMARY_ALGO_WIDTH ? lay->algo_width
                                                          : SUMMARY_ALGO_WIDTH;
    if (header)
        fprintf(out, "\n# summary per algorithm (gm = geometric mean; values "
                     "below 1 node or 1 ms count as 1 node\n# or 1 ms; sums "
                     "and medians of nodes and seconds: --csv, --json)\n"
                     "%-*s %4s %6s %7s %6s %7s %6s %10s %11s %8s %7s\n",
                algo_width, "algorithm", "runs", "solved", "optimal",
                "unsolv", "incompl", "errors", sum_key, "gm_expanded",
                "gm_sec", "agree");
    char agree[24] = "-";
    if (s->exact)
        snprintf(agree, sizeof agree, "%d/%d", s->agree, s->exact);
    /* A label too long for the width: on a line of its own, the numbers
     * under it. */
    const char *label = s->algo;
    if (algo_width < (int)strlen(label)) {
        fprintf(out, "%s\n", label);
        label = "";
    }
    fprintf(out, "%-*s %4d %6d %7d %6d %7d %6d %10lld %11.1f %8.4f %7s\n",
            algo_width, label, s->runs, s->solved, s->optimal,
            s->unsolvable, s->incomplete, s->errors, (long long)s->sum_value,
            s->gmean_expanded, s->gmean_seconds, agree);
}

static void summary_csv(FILE *out, const struct ps_lab_layout *lay,
                        const struct algo_summary *s, bool header)
{
    if (header)
        fprintf(out, "\nalgorithm,runs,solved,optimal,unsolvable,incomplete,"
                     "errors,sum_%s,sum_expanded,median_expanded,gmean_expanded,"
                     "sum_seconds,median_seconds,gmean_seconds,exact,agree\n",
                lay->value_key);
    fprintf(out, "%s,%d,%d,%d,%d,%d,%d,%lld,%llu,%.1f,%.1f,%.3f,%.4f,%.4f,%d,%d\n",
            s->algo, s->runs, s->solved, s->optimal, s->unsolvable,
            s->incomplete, s->errors, (long long)s->sum_value,
            (unsigned long long)s->sum_expanded, s->median_expanded,
            s->gmean_expanded, s->sum_seconds, s->median_seconds,
            s->gmean_seconds, s->exact, s->agree);
}

static void summary_json(FILE *out, const struct ps_lab_layout *lay,
                         const struct algo_summary *s, bool header)
{
    fprintf(out, "%s{\"algorithm\":", header ? "],\n\"summary\":[\n" : ",\n");
    ps_json_string(out, s->algo);
    fprintf(out, ",\"runs\":%d,\"solved\":%d,\"optimal\":%d,\"unsolvable\":%d,"
                 "\"incomplete\":%d,\"errors\":%d,\"sum_%s\":%lld,"
                 "\"sum_expanded\":%llu,\"median_expanded\":%.1f,"
                 "\"gmean_expanded\":%.1f,\"sum_seconds\":%.6f,"
                 "\"median_seconds\":%.6f,\"gmean_seconds\":%.6f,\"exact\":%d,"
                 "\"agree\":%d}",
            s->runs, s->solved, s->optimal, s->unsolvable, s->incomplete,
            s->errors, lay->value_key, (long long)s->sum_value,
            (unsigned long long)s->sum_expanded, s->median_expanded,
            s->gmean_expanded, s->sum_seconds, s->median_seconds,
            s->gmean_seconds, s->exact, s->agree);
}

/* How many puzzles had two or more exact answers to compare. */
static int puzzles_compared(const struct ps_lab_row *rows, int nrows)
{
    int compared = 0;
    for (int i = 0; i < nrows; i++) {
        if (i > 0 && strcmp(rows[i].puzzle, rows[i - 1].puzzle) == 0)
            continue;
        int exact = 0;
        for (int k = i; k < nrows && strcmp(rows[k].puzzle, rows[i].puzzle) == 0;
             k++)
            exact += row_exact(&rows[k]);
        compared += exact >= 2;
    }
    return compared;
}

bool ps_lab_print_summary(FILE *out, const struct ps_lab_layout *lay,
                          const struct ps_lab_setup *setup,
                          const struct ps_lab_row *rows, int nrows)
{
    double *scratch = malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof *scratch);
    bool agree = true;
    if (lay->format == PS_LAB_JSON && setup->nalgos == 0)
        fprintf(out, "],\n\"summary\":[");
    for (int i = 0; i < setup->nalgos && scratch; i++) {
        struct algo_summary s;
        summarise(&s, ps_lab_label(setup, i), rows, nrows, scratch, &agree);
        switch (lay->format) {
        case PS_LAB_TEXT: summary_text(out, lay, &s, i == 0); break;
        case PS_LAB_CSV: summary_csv(out, lay, &s, i == 0); break;
        case PS_LAB_JSON: summary_json(out, lay, &s, i == 0); break;
        }
    }
    free(scratch);
    int compared = puzzles_compared(rows, nrows);
    switch (lay->format) {
    case PS_LAB_TEXT:
        if (!agree)
            fprintf(out, "# ERROR: the exact algorithms disagree (the agree "
                         "column counts the answers confirmed by another)\n");
        else if (compared)
            fprintf(out, "# exact algorithms agree on all %d puzzles where two "
                         "or more finished\n",
                    compared);
        else
            fprintf(out, "# no puzzle had two exact algorithms finish: nothing "
                         "to compare\n");
        break;
    case PS_LAB_CSV: break;
    case PS_LAB_JSON:
        fprintf(out, "],\n\"agree\":%s,\"compared\":%d}\n",
                agree ? "true" : "false", compared);
        break;
    }
    return agree;
}

/* ---- the whole lab, on worker threads ---- */

struct lab_pool {
    const struct ps_lab_setup *setup;
    const char *const *paths;
    int npaths;
    struct ps_lab_row *rows;   /* npaths x nalgos */
    bool *done, *ok;
    struct ps_progress *progress;
    int next;                  /* the next puzzle to take */
    pthread_mutex_t lock;
    pthread_cond_t finished;
};

static void lab_worker(void *arg)
{
    struct lab_pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        int i = ps_interrupted ? p->npaths : p->next++;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->npaths)
            break;
        bool ok = ps_lab_run_puzzle(p->setup, p->paths[i],
                                    &p->rows[(size_t)i * p->setup->nalgos]);
        ps_progress_puzzle(p->progress, &p->rows[(size_t)i * p->setup->nalgos],
                           p->setup->nalgos);
        pthread_mutex_lock(&p->lock);
        p->ok[i] = ok;
        p->done[i] = true;
        pthread_cond_broadcast(&p->finished);
        pthread_mutex_unlock(&p->lock);
    }
    /* Wake the printer in case it waits for a puzzle nobody will take. */
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->finished);
    pthread_mutex_unlock(&p->lock);
}

/* Wait until puzzle i is done (true) or will never be (interrupted). */
static bool wait_for(struct lab_pool *p, int i)
{
    pthread_mutex_lock(&p->lock);
    while (!p->done[i] && !(ps_interrupted && p->next <= i))
        pthread_cond_wait(&p->finished, &p->lock);
    bool done = p->done[i];
    pthread_mutex_unlock(&p->lock);
    return done;
}

int ps_lab_run(FILE *out, const struct ps_lab_layout *lay,
               const struct ps_lab_setup *setup, const char *const *paths,
               int npaths, int jobs, struct ps_lab_row **rows_out,
               int *nrows_out)
{
    size_t nrows = (size_t)npaths * (size_t)setup->nalgos;
    struct lab_pool p = {.setup = setup, .paths = paths, .npaths = npaths};
    p.rows = calloc(nrows ? nrows : 1, sizeof *p.rows);
    p.done = calloc((size_t)npaths + 1, sizeof *p.done);
    p.ok = calloc((size_t)npaths + 1, sizeof *p.ok);
    if (!p.rows || !p.done || !p.ok) {
        free(p.rows);
        free(p.done);
        free(p.ok);
        fprintf(stderr, "psolve: out of memory\n");
        return PS_EXIT_ERROR;
    }
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.finished, NULL);
    struct ps_progress progress; /* before the workers report to it */
    ps_progress_begin(&progress, stderr, "lab", npaths, setup->progress);
    p.progress = &progress;
    if (jobs > npaths)
        jobs = npaths;
    struct ps_threads fan;
    ps_threads_start(&fan, jobs > 1 ? jobs : 0, lab_worker, &p, 0);
    int started = ps_threads_started(&fan);
    ps_lab_print_begin(out, lay, setup, npaths);
    int printed = 0, status = PS_EXIT_OK;
    for (int i = 0; i < npaths; i++) {
        if (started == 0) {
            /* No threads: run each puzzle here, in order (taken from
             * the pool: a worker run at the join finds none left). */
            if (ps_interrupted)
                break;
            p.next = i + 1;
            p.ok[i] = ps_lab_run_puzzle(setup, paths[i],
                                        &p.rows[(size_t)i * setup->nalgos]);
            p.done[i] = true;
            ps_progress_puzzle(&progress, &p.rows[(size_t)i * setup->nalgos],
                               setup->nalgos);
        } else if (!wait_for(&p, i)) {
            break;
        }
        for (int k = 0; k < setup->nalgos; k++) {
            const struct ps_lab_row *r = &p.rows[(size_t)i * setup->nalgos + k];
            ps_lab_print_row(out, lay, r, printed++);
            if (r->error && k == 0)
                fprintf(stderr, "psolve: %s\n", r->message);
        }
        fflush(out);
        if (!p.ok[i])
            status = PS_EXIT_ERROR;
    }
    ps_threads_join(&fan);
    ps_progress_end(&progress);
    if (!ps_lab_print_summary(out, lay, setup, p.rows, printed)) {
        fprintf(stderr, "psolve: error: the exact algorithms disagree\n");
        status = PS_EXIT_ERROR;
    }
    /* Rows are missing: not a complete lab. */
    if (ps_interrupted && status == PS_EXIT_OK)
        status = PS_EXIT_INTERRUPTED;
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.finished);
    free(p.done);
    free(p.ok);
    if (rows_out) {
        *rows_out = p.rows;
        *nrows_out = printed;
    } else {
        free(p.rows);
    }
    return status;
}
