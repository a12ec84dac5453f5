/*
 * test_inputs.c - hostile input: numbers out of range in every file format
 * and on the command line, raw bytes in error messages, a byte order mark,
 * paths with a newline or invalid UTF-8 that must still round-trip (solution
 * files, --json), and options on either side of the command word.
 */
#include "support.h"

#include "escape.h"
#include "number.h"
#include "report.h"

/* ---- the helpers ---- */

static void test_number_scan(void **unused)
{
    (void)unused;
    long long v;
    size_t used;
    assert_int_equal(ps_number_scan("42 x", 4, 0, 100, &v, &used), PS_NUMBER_OK);
    assert_int_equal(v, 42);
    assert_int_equal(used, 2);
    assert_int_equal(ps_number_scan("-7", 2, -10, 10, &v, &used), PS_NUMBER_OK);
    assert_int_equal(v, -7);
    assert_int_equal(ps_number_scan("0000000000000000000000012", 25, 0, 100, &v,
                                    &used),
                     PS_NUMBER_OK);
    assert_int_equal(v, 12);
    /* 2^32 is no 0, 2^64 + 1 is no 1, twenty nines are no -1 */
    assert_int_equal(ps_number_scan("4294967296", 10, INT32_MIN, INT32_MAX, &v,
                                    &used),
                     PS_NUMBER_RANGE);
    assert_int_equal(used, 10);
    assert_int_equal(ps_number_scan("18446744073709551617", 20, INT64_MIN,
                                    INT64_MAX, &v, &used),
                     PS_NUMBER_RANGE);
    assert_int_equal(ps_number_scan("99999999999999999999", 20, INT64_MIN,
                                    INT64_MAX, &v, &used),
                     PS_NUMBER_RANGE);
    assert_int_equal(ps_number_scan("9223372036854775807", 19, 0, INT64_MAX, &v,
                                    &used),
                     PS_NUMBER_OK);
    assert_true(v == INT64_MAX);
    assert_int_equal(ps_number_scan("+1", 2, 0, 9, &v, &used), PS_NUMBER_NONE);
    assert_int_equal(ps_number_scan("-", 1, -9, 9, &v, &used), PS_NUMBER_NONE);
    assert_int_equal(ps_number_scan(" 1", 2, 0, 9, &v, &used), PS_NUMBER_NONE);
    /* the length bounds the scan: no reading past a line */
    assert_int_equal(ps_number_scan("12345", 2, 0, 99, &v, &used), PS_NUMBER_OK);
    assert_int_equal(v, 12);
}

static void test_number_fields(void **unused)
{
    (void)unused;
    long long f[2];
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_number_fields("  3\t4", 2, 0, 9, f, "'a b'", &err));
    assert_int_equal(f[0], 3);
    assert_int_equal(f[1], 4);
    assert_false(ps_number_fields("3 4294967296", 2, INT32_MIN, INT32_MAX, f,
                                  "'a b'", &err));
    assert_int_equal(err.col, 3);
    assert_non_null(strstr(err.msg, "'4294967296' is out of range"));
    assert_false(ps_number_fields("3 4 5", 2, 0, 9, f, "'a b'", &err));
    assert_int_equal(err.col, 5);
    assert_false(ps_number_fields("3 4x", 2, 0, 9, f, "'a b'", &err));
    assert_non_null(strstr(err.msg, "expected 'a b'"));
    assert_false(ps_number_fields("3", 2, 0, 9, f, "'a b'", &err));
}

static void test_cli_number_parsers(void **unused)
{
    (void)unused;
    uint64_t u;
    double d;
    assert_true(ps_number_parse_uint("18446744073709551615", 0, UINT64_MAX, &u));
    assert_true(u == UINT64_MAX);
    assert_false(ps_number_parse_uint("18446744073709551616", 0, UINT64_MAX, &u));
    assert_false(ps_number_parse_uint("9223372036854775808", 1, INT64_MAX, &u));
    assert_true(ps_number_parse_uint("9223372036854775807", 1, INT64_MAX, &u));
    const char *bad[] = {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.0"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(ps_number_parse_uint(bad[i], 0, UINT64_MAX, &u));
    assert_true(ps_number_parse_decimal("1.5", 0, 10, &d));
    assert_true(d == 1.5);
    assert_true(ps_number_parse_decimal(".5", 0, 10, &d));
    const char *bad_dec[] = {"", ".", "0x10", "1e1", "inf", "nan", "-1", "+1",
                             "1.2.3", " 1", "11"};
    for (size_t i = 0; i < sizeof bad_dec / sizeof *bad_dec; i++)
        assert_false(ps_number_parse_decimal(bad_dec[i], 0, 10, &d));
}

static void test_escape(void **unused)
{
    (void)unused;
    char out[64];
    ps_escape(out, sizeof out, "a\rb\n\t\x7f\xef.", 8, false);
    assert_string_equal(out, "a\\rb\\n\\t\\x7f\\xef.");
    char twice[64];
    ps_escape(twice, sizeof twice, out, strlen(out), false);
    assert_string_equal(twice, out);
    ps_escape(out, sizeof out, "\xc3\xa9\n", 3, true);
    assert_string_equal(out, "\xc3\xa9\\n");
    /* issue 32: a C1 control (U+009B, a CSI some terminals obey) is a
     * control character too, also where other non-ASCII text is kept */
    ps_escape(out, sizeof out, "x\xc2\x9b" "31m\xc2\xa0", 8, true);
    assert_string_equal(out, "x\\xc2\\x9b" "31m\xc2\xa0");
    char *lines = NULL;
    size_t lines_len = 0;
    FILE *mem = open_memstream(&lines, &lines_len);
    assert_non_null(mem);
    ps_print_escaped_lines(mem, "a\x1b[31m\nb\xc2\x85\n", 11);
    fclose(mem);
    assert_string_equal(lines, "a\\x1b[31m\nb\\xc2\\x85\n");
    free(lines);
    /* cut at a whole escape */
    ps_escape(out, 4, "a\r", 2, false);
    assert_string_equal(out, "a\\r");
    ps_escape(out, 3, "a\r", 2, false);
    assert_string_equal(out, "a");
    struct ps_error err;
    ps_error_set(&err, "f", 1, 2, "unknown cell '%c'", '\r');
    assert_string_equal(err.msg, "unknown cell '\\r'");
}

static void test_json_string_is_utf8(void **unused)
{
    (void)unused;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    ps_json_string(mem, "a\xff\"\n\x7f\xc3\xa9\xed\xa0\x80\xc0\xaf\xe2\x82");
    fclose(mem);
    assert_string_equal(text, "\"a\\ufffd\\\"\\u000a\\u007f\xc3\xa9"
                              "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
    free(text);
}

/* ---- through the command line ---- */

static const char *dir; /* the group's temporary directory */

static int run(char *out, size_t outlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int st = test_psolve_v(dir, out, outlen, true, fmt, ap);
    va_end(ap);
    return st;
}

static void write_file(const char *name, const char *text)
{
    test_write_file(dir, name, text);
}

static void assert_contains(const char *text, const char *needle)
{
    if (!strstr(text, needle))
        fail_msg("'%s' not in:\n%s", needle, text);
}

/* No raw byte outside printable ASCII and newline. */
static void assert_printable(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        if (*p != '\n' && (*p < 32 || *p >= 127))
            fail_msg("raw byte 0x%02x in:\n%s", *p, text);
}

static void test_solution_numbers_are_range_checked(void **unused)
{
    (void)unused;
    static char out[8192];
    write_file("b3.txt", "121\n122\n332\n");
    write_file("wrap.txt", "4294967296 1\n");
    assert_int_equal(run(out, sizeof out, "verify b3.txt wrap.txt"), 1);
    assert_contains(out, "wrap.txt:1:1: error: move 1: number '4294967296' is "
                         "out of range");
    write_file("huge.txt", "1 1\n2 99999999999999999999\n");
    assert_int_equal(run(out, sizeof out, "verify b3.txt huge.txt"), 1);
    assert_contains(out, "huge.txt:2:3: error: move 2: number "
                         "'99999999999999999999' is out of range");
    write_file("w3.txt", "1 2\n2 1\n-\n");
    write_file("wwrap.txt", "  4294967297 3\n");
    assert_int_equal(run(out, sizeof out, "--game watersort verify w3.txt "
                                          "wwrap.txt"),
                     1);
    assert_contains(out, "wwrap.txt:1:3: error: move 1: number '4294967297' is "
                         "out of range");
    write_file("wcap.txt", "capacity 4294967298\n1 1\n");
    assert_int_equal(run(out, sizeof out, "--game watersort show wcap.txt"), 1);
    assert_contains(out, "wcap.txt:1:10: error: capacity must be a number");
    write_file("wcol.txt", "18446744073709551617 1\n1\n");
    assert_int_equal(run(out, sizeof out, "--game watersort show wcol.txt"), 1);
    assert_contains(out, "wcol.txt:1:1: error: colour number "
                         "'18446744073709551617' is out of range");
    /* one overlong tile is out of range, not a puzzle "larger than 6x6" */
    write_file("n.txt", "1 2 3\n4 5 6\n7 12345678901234567890 .\n");
    assert_int_equal(run(out, sizeof out, "--game npuzzle show n.txt"), 1);
    assert_contains(out, "n.txt:3:3: error: tile 12345678901234567890 is out of "
                         "range");
    write_file("n8.txt", "1 2 3\n4 5 6\n7 . 8\n");
    write_file("nsol.txt", "4294967304\n");
    assert_int_equal(run(out, sizeof out, "--game npuzzle verify n8.txt "
                                          "nsol.txt"),
                     1);
    assert_contains(out, "nsol.txt:1:1: error: move 1: number '4294967304' is "
                         "out of range (1..8)");
}

static void test_raw_bytes_are_escaped_and_bom_skipped(void **unused)
{
    (void)unused;
    static char out[8192];
    write_file("cr.txt", "12\r21\r");
    assert_int_equal(run(out, sizeof out, "show cr.txt"), 1);
    assert_contains(out, "cr.txt:1:3: error: a carriage return without a line "
                         "feed");
    assert_printable(out);
    write_file("del.txt", "12\x7f\n21\n");
    assert_int_equal(run(out, sizeof out, "show del.txt"), 1);
    assert_contains(out, "unknown cell '\\x7f'");
    write_file("utf.txt", "1\xc3\xa9\n21\n");
    assert_int_equal(run(out, sizeof out, "show utf.txt"), 1);
    assert_contains(out, "unknown cell '\\xc3'");
    assert_printable(out);
    /* a byte order mark is skipped in every file format */
    write_file("bom.txt", "\xef\xbb\xbf" "121\n122\n332\n");
    assert_int_equal(run(out, sizeof out, "show bom.txt"), 0);
    write_file("bomsol.txt", "\xef\xbb\xbf" "1 1\n");
    assert_int_equal(run(out, sizeof out, "verify bom.txt bomsol.txt"), 0);
    write_file("bomw.txt", "\xef\xbb\xbf" "capacity 2\n1 1\n");
    assert_int_equal(run(out, sizeof out, "--game watersort show bomw.txt"), 0);
    write_file("bom.lua", "\xef\xbb\xbf" "return { min_group = 1 }\n");
    assert_int_equal(run(out, sizeof out, "--rules ./bom.lua show bom.txt"), 0);
}

static void test_paths_round_trip(void **unused)
{
    (void)unused;
    static char out[1 << 16];
    /* a newline in the board's path: the solution file still verifies */
    write_file("a\nb.txt", "121\n122\n332\n");
    assert_int_equal(run(out, sizeof out,
                         "--algo dfs \"$(printf 'a\\nb.txt')\" > sol.txt"),
                     0);
    char path[256];
    snprintf(path, sizeof path, "%s/sol.txt", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    assert_contains(out, "# psolve: game samegame, algorithm dfs, a\\nb.txt\n");
    assert_int_equal(run(out, sizeof out,
                         "verify \"$(printf 'a\\nb.txt')\" sol.txt"),
                     0);
    assert_contains(out, "legal: yes");
    /* invalid UTF-8 in the path: --json stays valid UTF-8 */
    write_file("x\xff\xfe.txt", "121\n122\n332\n");
    assert_int_equal(run(out, sizeof out,
                         "--json --algo greedy \"$(printf 'x\\377\\376.txt')\""),
                     0);
    assert_contains(out, "\"file\":\"x\\ufffd\\ufffd.txt\"");
    assert_printable(out);
}

static void test_command_line_numbers(void **unused)
{
    (void)unused;
    static char out[8192];
    write_file("b3.txt", "121\n122\n332\n");
    assert_int_equal(run(out, sizeof out, "--max-nodes 9223372036854775808 "
                                          "b3.txt"),
                     2);
    assert_contains(out, "--max-nodes expects a whole number "
                         "1..9223372036854775807, got '9223372036854775808'");
    assert_int_equal(run(out, sizeof out, "--seed 18446744073709551616 b3.txt"),
                     2);
    assert_int_equal(run(out, sizeof out, "--seed -1 b3.txt"), 2);
    assert_int_equal(run(out, sizeof out, "gen --rows 2 --cols 2 "
                                          "--seed 18446744073709551615"),
                     0);
    assert_contains(out, "--seed 18446744073709551615\n");
    assert_int_equal(run(out, sizeof out, "--time 0x10 b3.txt"), 2);
    assert_contains(out, "--time expects a number");
    assert_int_equal(run(out, sizeof out, "--time 1e1 b3.txt"), 2);
    assert_int_equal(run(out, sizeof out, "--time inf b3.txt"), 2);
    assert_int_equal(run(out, sizeof out, "--beam-width 4294967297 b3.txt"), 2);
    assert_int_equal(run(out, sizeof out, "--max-memory 0 b3.txt"), 2);
    assert_int_equal(run(out, sizeof out, "bench --seconds 0"), 2);
    assert_contains(out, "--seconds must be more than 0");
    assert_true(strstr(out, "nan") == NULL);
    assert_int_equal(run(out, sizeof out, "gen --game watersort --colors 40"), 2);
    assert_contains(out, "--colors expects a whole number 1..32, got '40'");
    /* the user's own bad argument is echoed escaped too */
    assert_int_equal(run(out, sizeof out, "--algo \"$(printf 'x\\r')\" b3.txt"),
                     2);
    assert_contains(out, "unknown algorithm 'x\\r'");
    assert_printable(out);
}

static void test_options_on_both_sides_of_the_command(void **unused)
{
    (void)unused;
    static char out[8192];
    write_file("w3.txt", "capacity 2\n1 2\n2 1\n-\n");
    assert_int_equal(run(out, sizeof out, "--game watersort --algo bfs w3.txt "
                                          "> wsol.txt"),
                     0);
    assert_int_equal(run(out, sizeof out, "--game watersort verify w3.txt "
                                          "wsol.txt"),
                     0);
    /* Water Sort's verify says "solved" once */
    const char *first = strstr(out, "solved:");
    assert_non_null(first);
    assert_null(strstr(first + 1, "solved:"));
    assert_int_equal(run(out, sizeof out, "verify --game watersort w3.txt "
                                          "wsol.txt --json"),
                     0);
    assert_contains(out, "\"legal\":true");
    assert_int_equal(run(out, sizeof out, "--rows 2 --cols 3 gen --seed 4"), 0);
    assert_contains(out, "--rows 2 --cols 3");
}

static int setup(void **state)
{
    if (test_dir_setup(state) != 0)
        return -1;
    dir = ((struct test_dir *)*state)->dir;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_scan),
        cmocka_unit_test(test_number_fields),
        cmocka_unit_test(test_cli_number_parsers),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_json_string_is_utf8),
        cmocka_unit_test(test_solution_numbers_are_range_checked),
        cmocka_unit_test(test_raw_bytes_are_escaped_and_bom_skipped),
        cmocka_unit_test(test_paths_round_trip),
        cmocka_unit_test(test_command_line_numbers),
        cmocka_unit_test(test_options_on_both_sides_of_the_command),
    };
    return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}
