/*
 * test_dirlist.c - the one directory listing (kernel/dirlist.h) that labs
 * and plug-in directories use: the filter, the order (by name, whatever
 * order readdir gives), the joined paths, the errors.
 */
#include "support.h"

#include "dirlist.h"

static bool is_txt(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".txt") == 0;
}

static void lists_in_name_order(void **state)
{
    struct test_dir *f = *state;
    /* Written out of order, with names the filter drops. */
    static const char *const names[] = {"b.txt", "a-b.txt", "c.so", "a.txt",
                                        "B.txt", "txt", "z.txt.bak"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        test_write_file(f->dir, names[i], "x\n");
    char **paths;
    int n;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_dir_list(f->dir, is_txt, "directory", &paths, &n, &err));
    static const char *const want[] = {"B.txt", "a-b.txt", "a.txt", "b.txt"};
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", f->dir, want[i]);
        assert_string_equal(paths[i], path);
    }
    ps_dir_list_free(paths, n);

    /* A directory given with its slash gets no second one. */
    char slashed[128];
    snprintf(slashed, sizeof slashed, "%s/", f->dir);
    assert_true(ps_dir_list(slashed, is_txt, "directory", &paths, &n, &err));
    assert_int_equal(n, 4);
    char first[256];
    snprintf(first, sizeof first, "%s/B.txt", f->dir);
    assert_string_equal(paths[0], first);
    ps_dir_list_free(paths, n);
}

static bool keep_none(const char *name)
{
    (void)name;
    return false;
}

static void empty_and_unreadable(void **state)
{
    struct test_dir *f = *state;
    char **paths;
    int n = -1;
    struct ps_error err;
    ps_error_clear(&err);
    assert_true(ps_dir_list(f->dir, keep_none, "directory", &paths, &n, &err));
    assert_int_equal(n, 0);
    ps_dir_list_free(paths, n);

    char missing[128];
    snprintf(missing, sizeof missing, "%s/no-such-dir", f->dir);
    n = -1; /* the failure must set both, not keep what was there */
    paths = (char **)&err;
    assert_false(ps_dir_list(missing, is_txt, "plug-in directory", &paths, &n,
                             &err));
    assert_int_equal(n, 0);
    assert_null(paths);
    assert_string_equal(err.file, missing);
    assert_string_equal(err.msg, "cannot read the plug-in directory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_in_name_order),
        cmocka_unit_test(empty_and_unreadable),
    };
    return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}
