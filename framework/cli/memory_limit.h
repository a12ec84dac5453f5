/*
 * memory_limit.h - how much memory this process may really use, for the
 * default of --max-memory: physical memory is not the answer in a container
 * or under ulimit, where the kernel ends the process long before.
 */
#ifndef PS_MEMORY_LIMIT_H
#define PS_MEMORY_LIMIT_H

#include <stdint.h>

/* The memory limit of this process's cgroup, in bytes, or UINT64_MAX for
 * none: cgroup v2 `memory.max` of its cgroup and of every ancestor (under
 * /sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid system), and
 * cgroup v1 `memory.limit_in_bytes` likewise; the smallest wins. `root` is
 * prefixed to /proc/self/cgroup and /sys/fs/cgroup ("" on a real system; a
 * directory that mimics them in the tests). */
uint64_t ps_cgroup_memory_limit(const char *root);

/* The smallest of physical memory, the cgroup limit, RLIMIT_AS and
 * RLIMIT_DATA, in bytes. */
uint64_t ps_memory_limit(void);

#endif
