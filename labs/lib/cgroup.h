/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup.h - cgroup v2 files, and cpuset partitions.
 *
 * Groups are named by their path under /sys/fs/cgroup ("" is the root).
 * A cpuset partition (cpuset.cpus.partition = root) is a root domain of
 * its own: SCHED_DEADLINE admission and placement then see only its
 * CPUs, and the rest of the machine forms another root domain.
 */
#ifndef SCHEDLAB_CGROUP_H
#define SCHEDLAB_CGROUP_H

#include "schedlab.h"

#define SL_CGROOT "/sys/fs/cgroup"

/* Write @val to @file of group @grp; 0 or -errno. */
SL_MUST_CHECK int sl_cg_try_write(const char *grp, const char *file, const char *val);
/* The same, failing the test on an error. */
void sl_cg_write(const char *grp, const char *file, const char *val);
/* Move task @pid (0: the caller) into @grp; 0 or -errno. */
SL_MUST_CHECK int sl_cg_move(const char *grp, pid_t pid);
/* The same, failing the test on an error. */
void sl_cg_join(const char *grp, pid_t pid);
/* The first line of @file of @grp into @buf (returned), or fail the test. */
char *sl_cg_read(const char *grp, const char *file, char *buf, size_t len);
/* Make group @grp if it is not there, or fail the test. */
void sl_cg_mkdir(const char *grp);
/* Give @grp's children controller @ctrl ("+ctrl" to its subtree_control). */
void sl_cg_enable(const char *grp, const char *ctrl);

/*
 * Make group @grp (a child of the root) a cpuset partition of @cpus
 * (e.g. "0-1" or "0,2"), or fail the test; sl_partition_remove() undoes
 * it and may be called when there is none.
 */
void sl_partition_make(const char *grp, const char *cpus);
void sl_partition_remove(const char *grp);

#endif /* SCHEDLAB_CGROUP_H */
