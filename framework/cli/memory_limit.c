/*
 * memory_limit.c - what this process may really use (physical memory,
 * cgroup, ulimit), for --max-memory's default (memory_limit.h).
 */
#include "memory_limit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The number in a limit file ("max" and anything unreadable: no limit). */
static uint64_t read_limit_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return UINT64_MAX;
    char buf[64] = "";
    bool got = fgets(buf, sizeof buf, f) != NULL;
    fclose(f);
    if (!got || buf[0] < '0' || buf[0] > '9')
        return UINT64_MAX;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    if (*end != '\n' && *end != '\0')
        return UINT64_MAX;
    return (uint64_t)v;
}

/* The smallest `file` in dir/cgroup and each of its ancestors up to dir. */
static uint64_t limit_up_the_tree(const char *dir, const char *cgroup,
                                  const char *file)
{
    char path[4096];
    char rel[2048];
    snprintf(rel, sizeof rel, "%s", cgroup);
    uint64_t limit = UINT64_MAX;
    for (;;) {
        size_t n = strlen(rel);
        while (n > 0 && rel[n - 1] == '/')
            rel[--n] = '\0';
        snprintf(path, sizeof path, "%s%s/%s", dir, rel, file);
        limit = min_u64(limit, read_limit_file(path));
        char *slash = strrchr(rel, '/');
        if (!slash)
            break;
        *slash = '\0';
    }
    return limit;
}

uint64_t ps_cgroup_memory_limit(const char *root)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
    FILE *f = fopen(path, "r");
    uint64_t limit = UINT64_MAX;
    /* cgroup v2 is mounted at /sys/fs/cgroup, or at .../unified beside the
     * v1 hierarchies on a hybrid system. */
    char v2dir[4096], hybrid_dir[4096], v1dir[4096];
    snprintf(v2dir, sizeof v2dir, "%s/sys/fs/cgroup", root);
    snprintf(hybrid_dir, sizeof hybrid_dir, "%s/sys/fs/cgroup/unified", root);
    snprintf(v1dir, sizeof v1dir, "%s/sys/fs/cgroup/memory", root);
    bool saw_v2 = false, saw_v1 = false;
    char line[2048];
    while (f && fgets(line, sizeof line, f)) {
        /* "ID:CONTROLLERS:PATH"; cgroup v2 is "0::PATH". */
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        char *cg = c2 + 1;
        cg[strcspn(cg, "\n")] = '\0';
        *c2 = '\0';
        const char *controllers = c1 + 1;
        if (controllers[0] == '\0') {
            saw_v2 = true;
            limit = min_u64(limit, limit_up_the_tree(v2dir, cg, "memory.max"));
            limit = min_u64(limit,
                            limit_up_the_tree(hybrid_dir, cg, "memory.max"));
        } else if (strstr(controllers, "memory")) {
            saw_v1 = true;
            limit = min_u64(limit, limit_up_the_tree(
                                       v1dir, cg, "memory.limit_in_bytes"));
        }
    }
    if (f)
        fclose(f);
    /* Inside a container the path named may not be visible: the container's
     * own cgroup is then the mount point itself. */
    if (!saw_v2) {
        limit = min_u64(limit, limit_up_the_tree(v2dir, "", "memory.max"));
        limit = min_u64(limit, limit_up_the_tree(hybrid_dir, "", "memory.max"));
    }
    if (!saw_v1)
        limit = min_u64(limit, limit_up_the_tree(v1dir, "",
                                                 "memory.limit_in_bytes"));
    return limit;
}

static uint64_t rlimit_bytes(int resource)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return (uint64_t)rl.rlim_cur;
}

uint64_t ps_memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    uint64_t limit = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size
                                           : (uint64_t)8 << 30;
    limit = min_u64(limit, ps_cgroup_memory_limit(""));
    limit = min_u64(limit, rlimit_bytes(RLIMIT_AS));
    limit = min_u64(limit, rlimit_bytes(RLIMIT_DATA));
    return limit;
}
