/*
 * test_examples.c - every example a user is shown runs: the README's and
 * docs' code blocks marked runnable, the Examples: section of psolve --help,
 * psolve help ALGO and psolve help COMMAND. Each command runs in one scratch directory per
 * block (the source tree's games/, scripts/, tests/, examples/ and docs/
 * linked in, build/psolve and psolve on PATH), so a block may build on its
 * earlier lines (gen > board.txt, then solve board.txt) and the files it
 * names must be shipped. A command passes with exit status 0, 3 (proven
 * unsolvable) or 4 (stopped by its --time or node budget, the best line
 * printed); anything else, a missing file included, fails the test with
 * the command and its output. Examples finish by their own budgets; the
 * EXAMPLE_GUARD_SECONDS guard only turns a hang into a failure.
 *
 * How examples are marked (docs/cli.md, "Examples that are tested"):
 *   - Markdown: the line `<!-- runnable -->` right before a fenced block.
 *     In a block with `$ ` prompts, the prompted lines are the commands
 *     (the rest is output); otherwise every line that is not blank and not
 *     a `#` comment is one. A line ending in `\` goes on on the next.
 *   - --help, psolve help ALGO and psolve help COMMAND: every line of the
 *     section whose title
 *     starts with "Examples", up to the first blank line; a trailing
 *     "  (...)" is a comment.
 *   - mpirun lines run when psolve-mpi is built, else are skipped.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

#include "commands.h"
#include "search.h"

#define MAX_COMMANDS 256
/* A hang guard, not a time limit: the CI machine ran these examples 5 to 18
 * times slower than a developer's (a lab of 4 s took over 120 s there). */
#define EXAMPLE_GUARD_SECONDS 600
#define MAX_COMMAND 2048

struct example {
    char where[128]; /* README.md:12, --help, help nrpa */
    char command[MAX_COMMAND];
    int block;       /* commands of one block share a directory */
};

static struct example examples[MAX_COMMANDS];
static int nexamples, nblocks;
static char scratch[] = "/tmp/psolve_examples_XXXXXX";

static void add_example(const char *where, int line, const char *command)
{
    if (nexamples == MAX_COMMANDS)
        fail_msg("more than %d examples", MAX_COMMANDS);
    struct example *e = &examples[nexamples++];
    if (line)
        snprintf(e->where, sizeof e->where, "%s:%d", where, line);
    else
        snprintf(e->where, sizeof e->where, "%s", where);
    snprintf(e->command, sizeof e->command, "%s", command);
    e->block = nblocks;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* A fenced block's lines [first, last) of `lines`: its commands. */
static void block_commands(const char *where, char **lines, int first,
                           int last)
{
    bool prompts = false;
    for (int i = first; i < last; i++)
        prompts = prompts || strncmp(lines[i], "$ ", 2) == 0;
    char command[MAX_COMMAND] = "";
    int start = 0;
    for (int i = first; i < last; i++) {
        const char *l = lines[i];
        bool going_on = command[0] != '\0';
        if (!going_on) {
            while (*l == ' ')
                l++;
            if (prompts ? strncmp(l, "$ ", 2) != 0 : !*l || *l == '#')
                continue;
            if (prompts)
                l += 2;
            start = i + 1;
        }
        size_t n = strlen(command);
        snprintf(command + n, sizeof command - n, "%s%s", going_on ? " " : "",
                 l);
        n = strlen(command);
        if (n > 0 && command[n - 1] == '\\') {
            command[n - 1] = '\0';
            continue;
        }
        add_example(where, start, command);
        command[0] = '\0';
    }
    nblocks++;
}

/* The runnable blocks of a Markdown file. */
static void markdown_examples(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char *lines[8192];
    int n = 0;
    char buf[MAX_COMMAND];
    while (n < 8192 && fgets(buf, sizeof buf, f)) {
        chomp(buf);
        lines[n] = strdup(buf);
        assert_non_null(lines[n]);
        n++;
    }
    fclose(f);
    for (int i = 0; i + 1 < n; i++) {
        if (strcmp(lines[i], "<!-- runnable -->") != 0)
            continue;
        if (strncmp(lines[i + 1], "```", 3) != 0)
            fail_msg("%s:%d: <!-- runnable --> is not followed by a fenced "
                     "block", name, i + 1);
        int end = i + 2;
        while (end < n && strncmp(lines[end], "```", 3) != 0)
            end++;
        block_commands(name, lines, i + 2, end);
        i = end;
    }
    for (int i = 0; i < n; i++)
        free(lines[i]);
}

/* The Examples: section of a help text (psolve --help, psolve help A). */
static void help_examples(const char *where, const char *text)
{
    const char *p = strstr(text, "\nExamples");
    if (!p || !(p = strchr(p + 1, '\n')))
        return;
    p++;
    static char *lines[256];
    int n = 0;
    while (*p && *p != '\n' && n < 256) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *l = strndup(p, len);
        assert_non_null(l);
        /* "  psolve FILE        (greedy)": the parenthesis is a comment. */
        char *comment = strstr(l, "  (");
        if (comment && l[len - 1] == ')')
            *comment = '\0';
        chomp(l);
        lines[n++] = l;
        p = nl ? nl + 1 : p + len;
    }
    block_commands(where, lines, 0, n);
    for (int i = 0; i < n; i++)
        free(lines[i]);
}

static void help_text(const char *args, char *out, size_t len)
{
    assert_int_equal(test_psolve(".", out, len, false, "%s", args), 0);
}

static int setup(void **unused)
{
    (void)unused;
    if (!mkdtemp(scratch))
        return -1;
    markdown_examples(PSOLVE_SOURCE_DIR "/README.md", "README.md");
    DIR *d = opendir(PSOLVE_SOURCE_DIR "/docs");
    if (!d)
        return -1;
    char names[64][64];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 3 && len < 60 && strcmp(e->d_name + len - 3, ".md") == 0)
            memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[4200], name[4200];
        snprintf(path, sizeof path, "%s/docs/%s", PSOLVE_SOURCE_DIR, names[i]);
        snprintf(name, sizeof name, "docs/%s", names[i]);
        markdown_examples(path, name);
    }
    static char out[1 << 17];
    help_text("--help", out, sizeof out);
    help_examples("psolve --help", out);
    const char *topics[64];
    int ntopics = 0;
    for (const struct ps_algorithm *const *a = ps_algorithm_list();
         *a && ntopics < 48; a++)
        topics[ntopics++] = (*a)->name;
    for (const struct ps_command *k = ps_commands; k->name && ntopics < 64;
         k++)
        topics[ntopics++] = k->name;
    for (int i = 0; i < ntopics; i++) {
        char args[64], where[64];
        snprintf(args, sizeof args, "help %s", topics[i]);
        snprintf(where, sizeof where, "psolve help %s", topics[i]);
        help_text(args, out, sizeof out);
        help_examples(where, out);
    }
    /* Pattern databases built by examples stay in the scratch directory. */
    char cache[128];
    snprintf(cache, sizeof cache, "%s/cache", scratch);
    setenv("PSOLVE_CACHE_DIR", cache, 1);
    return 0;
}

static int teardown(void **unused)
{
    (void)unused;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

/* A fresh directory for block b: the shipped trees linked in, psolve (and
 * psolve-mpi) as build/NAME and on PATH. */
static void block_directory(int b, char *dir, size_t len)
{
    snprintf(dir, len, "%s/block-%d", scratch, b);
    char cmd[4096];
    int k = snprintf(cmd, sizeof cmd,
                     "mkdir -p %s/build %s/bin && cd %s && "
                     "for d in games scripts tests examples docs; do "
                     "ln -s %s/$d $d; done && ln -s %s build/psolve && "
                     "ln -s %s bin/psolve",
                     dir, dir, dir, PSOLVE_SOURCE_DIR, PSOLVE_BIN, PSOLVE_BIN);
#ifdef PSOLVE_MPI_BIN
    snprintf(cmd + k, sizeof cmd - (size_t)k,
             " && ln -s %s build/psolve-mpi && ln -s %s bin/psolve-mpi",
             PSOLVE_MPI_BIN, PSOLVE_MPI_BIN);
#else
    (void)k;
#endif
    assert_int_equal(system(cmd), 0);
}

static bool is_mpi(const char *command)
{
    return strncmp(command, "mpirun ", 7) == 0 ||
           strstr(command, "psolve-mpi") != NULL;
}

static void test_examples_run(void **unused)
{
    (void)unused;
    if (nexamples < 20)
        fail_msg("only %d examples found: the markers were lost?", nexamples);
    test_mpi_environment();
    int failed = 0, block = -1;
    char dir[512] = "";
    for (int i = 0; i < nexamples; i++) {
        const struct example *e = &examples[i];
#ifndef PSOLVE_MPI_BIN
        if (is_mpi(e->command)) {
            print_message("skipped (no psolve-mpi): %s: %s\n", e->where,
                          e->command);
            continue;
        }
#else
        (void)is_mpi;
#endif
        if (e->block != block) {
            block = e->block;
            block_directory(block, dir, sizeof dir);
        }
        char script[600];
        snprintf(script, sizeof script, "%s/example.sh", dir);
        FILE *f = fopen(script, "w");
        assert_non_null(f);
        fprintf(f, "%s\n", e->command);
        fclose(f);
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "cd %s && PATH=%s/bin:$PATH timeout %d sh example.sh "
                 "> out.txt 2>&1",
                 dir, dir, EXAMPLE_GUARD_SECONDS);
        double t0 = ps_now();
        int st = system(cmd);
        int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
        print_message("%3d %6.1f s  %s: %s\n", rc, ps_now() - t0, e->where,
                      e->command);
        if (rc == PS_EXIT_OK || rc == PS_EXIT_UNSOLVABLE ||
            rc == PS_EXIT_INCOMPLETE)
            continue;
        failed++;
        char tail[1024];
        snprintf(tail, sizeof tail, "tail -5 %s/out.txt", dir);
        print_message("FAILED (exit %d%s): %s\n  %s\n", rc,
                      rc == 124 ? ", over the hang guard" : "", e->where,
                      e->command);
        if (system(tail) != 0)
            print_message("  (no output)\n");
    }
    assert_int_equal(failed, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_examples_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
