// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6: cgroup clamps propagate down the hierarchy.
 *
 * cgroup v2 at /sys/fs/cgroup with the cpu controller enabled down the tree
 * (+cpu in cgroup.subtree_control).  A group's cpu.uclamp.{min,max} is its
 * request; cpu.uclamp.{min,max}.effective is what its tasks get: the
 * request capped by the parent's effective value, and min capped by max.
 * Effective values are printed like the requests: "max" or a percentage
 * with two decimals.  A task's effective clamps are in /proc/PID/sched.
 */
#include "schedlab.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CGROOT "/sys/fs/cgroup"

static void enable_cpu(const char *grp)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), CGROOT "%s%s/cgroup.subtree_control",
		 *grp ? "/" : "", grp);
	ret = sl_write_str(path, "+cpu");
	ck_assert_msg(ret == 0, "writing +cpu to %s: error %d", path, ret);
}

/* mkdir @grp (a path under the root) with the cpu controller available. */
static void mkgroup(const char *grp)
{
	char path[256];

	snprintf(path, sizeof(path), CGROOT "/%s", grp);
	ck_assert_msg(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s: %s",
		      path, strerror(errno));
}

static void cg_write(const char *grp, const char *file, const char *val)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), CGROOT "/%s/%s", grp, file);
	ret = sl_write_str(path, val);
	ck_assert_msg(ret == 0, "writing '%s' to %s: error %d (a child's write must never fail)",
		      val, path, ret);
}

static char *cg_read(const char *grp, const char *file, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), CGROOT "/%s/%s", grp, file);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot open %s", path);
	ck_assert_msg(fgets(buf, len, f), "cannot read %s", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

#define expect_file(grp, file, want) do {					\
	char _b[64];								\
	cg_read(grp, file, _b, sizeof(_b));					\
	ck_assert_msg(!strcmp(_b, want), "%s/%s reads '%s', expected '%s'",	\
		      grp, file, _b, want);					\
} while (0)

static void expect_eff(const char *grp, const char *min, const char *max)
{
	expect_file(grp, "cpu.uclamp.min.effective", min);
	expect_file(grp, "cpu.uclamp.max.effective", max);
}

/* Three levels a/b/c under a test-specific top group. */
static void tree(const char *top, char a[64], char b[64], char c[64])
{
	enable_cpu("");
	snprintf(a, 64, "%s", top);
	snprintf(b, 64, "%s/b", top);
	snprintf(c, 64, "%s/b/c", top);
	mkgroup(a);
	enable_cpu(a);
	mkgroup(b);
	enable_cpu(b);
	mkgroup(c);
}

/* A parent's max restriction reaches every descendant. */
START_TEST(test_parent_max_propagates)
{
	char a[64], b[64], c[64];

	tree("l6_pmax", a, b, c);
	cg_write(a, "cpu.uclamp.max", "40");
	expect_eff(a, "0.00", "40.00");
	expect_eff(b, "0.00", "40.00");
	expect_eff(c, "0.00", "40.00");
}
END_TEST

/*
 * Siblings: top has b1 (max 10%, with a child c1) and b2 (max "max", with a
 * child c2).  top's max 50% leaves b1's subtree unchanged, and the walk
 * must skip that subtree only, not stop there: b2 and c2 come after it.
 */
START_TEST(test_sibling_subtrees)
{
	const char *top = "l6_sib";
	const char *b1 = "l6_sib/b1", *c1 = "l6_sib/b1/c1";
	const char *b2 = "l6_sib/b2", *c2 = "l6_sib/b2/c2";

	enable_cpu("");
	mkgroup(top);
	enable_cpu(top);
	mkgroup(b1);	/* b1 first: the walk visits it before b2 */
	enable_cpu(b1);
	mkgroup(c1);
	mkgroup(b2);
	enable_cpu(b2);
	mkgroup(c2);
	cg_write(b1, "cpu.uclamp.max", "10");
	expect_eff(c1, "0.00", "10.00");
	cg_write(top, "cpu.uclamp.max", "50");
	expect_eff(b1, "0.00", "10.00");
	expect_eff(c1, "0.00", "10.00");
	expect_eff(b2, "0.00", "50.00");
	expect_eff(c2, "0.00", "50.00");
	cg_write(top, "cpu.uclamp.max", "max");
	expect_eff(b1, "0.00", "10.00");
	expect_eff(b2, "0.00", "max");
	expect_eff(c2, "0.00", "max");
}
END_TEST

/* A parent's min restriction (a lower protection) reaches every descendant. */
START_TEST(test_parent_min_propagates)
{
	char a[64], b[64], c[64];

	tree("l6_pmin", a, b, c);
	cg_write(c, "cpu.uclamp.min", "60");
	cg_write(b, "cpu.uclamp.min", "70");
	cg_write(a, "cpu.uclamp.min", "20");
	expect_eff(a, "20.00", "max");
	expect_eff(b, "20.00", "max");
	expect_eff(c, "20.00", "max");
}
END_TEST

/* A child asking for more than its parent allows: the write works, the value is capped. */
START_TEST(test_child_write_capped)
{
	char a[64], b[64], c[64];

	tree("l6_cap", a, b, c);
	cg_write(a, "cpu.uclamp.max", "50");
	cg_write(a, "cpu.uclamp.min", "30");
	cg_write(b, "cpu.uclamp.max", "80");
	cg_write(b, "cpu.uclamp.min", "45");
	expect_file(b, "cpu.uclamp.max", "80.00");
	expect_file(b, "cpu.uclamp.min", "45.00");
	expect_eff(b, "30.00", "50.00");
	cg_write(c, "cpu.uclamp.max", "20");
	expect_eff(c, "0.00", "20.00");
}
END_TEST

/* Relaxing the parent gives the child back its own request. */
START_TEST(test_relax_restores)
{
	char a[64], b[64], c[64];

	tree("l6_relax", a, b, c);
	cg_write(c, "cpu.uclamp.max", "75");
	cg_write(c, "cpu.uclamp.min", "25");
	cg_write(a, "cpu.uclamp.max", "10");
	expect_eff(c, "0.00", "10.00");
	cg_write(a, "cpu.uclamp.max", "max");
	expect_eff(b, "0.00", "max");
	expect_eff(c, "0.00", "75.00");
	cg_write(a, "cpu.uclamp.min", "50");
	cg_write(b, "cpu.uclamp.min", "50");
	expect_eff(c, "25.00", "75.00");
}
END_TEST

/* A group's effective min never exceeds its effective max. */
START_TEST(test_min_capped_by_max)
{
	char a[64], b[64], c[64];

	tree("l6_minmax", a, b, c);
	cg_write(a, "cpu.uclamp.min", "100");	/* a protection needs room above */
	cg_write(b, "cpu.uclamp.min", "60");
	cg_write(b, "cpu.uclamp.max", "30");
	expect_file(b, "cpu.uclamp.min", "60.00");
	expect_eff(b, "30.00", "30.00");
	cg_write(c, "cpu.uclamp.min", "90");
	expect_eff(c, "30.00", "30.00");
	cg_write(b, "cpu.uclamp.max", "max");
	expect_eff(b, "60.00", "max");
	expect_eff(c, "60.00", "max");
}
END_TEST

/*
 * Percentages: the requests keep what was written (two decimals), and an
 * effective value inherited from an ancestor reads as that ancestor's
 * request; a new child starts from its parent's effective values.
 */
START_TEST(test_percent_format)
{
	char a[64], b[64], c[64], d[80];

	tree("l6_pct", a, b, c);
	cg_write(a, "cpu.uclamp.max", "33.33");
	cg_write(a, "cpu.uclamp.min", "12.5");
	cg_write(b, "cpu.uclamp.max", "66.6");
	cg_write(b, "cpu.uclamp.min", "87.65");
	expect_file(b, "cpu.uclamp.max", "66.60");
	expect_file(b, "cpu.uclamp.min", "87.65");
	expect_eff(b, "12.50", "33.33");
	expect_eff(c, "0.00", "33.33");
	snprintf(d, sizeof(d), "%s/d", b);
	mkgroup(d);
	expect_eff(d, "0.00", "33.33");
}
END_TEST

/* A task's effective clamps follow its group's effective clamps. */
START_TEST(test_task_follows_group)
{
	char a[64], b[64], c[64], pid[16];
	pid_t p;

	tree("l6_task", a, b, c);
	cg_write(a, "cpu.uclamp.min", "100");
	cg_write(b, "cpu.uclamp.min", "100");
	cg_write(c, "cpu.uclamp.min", "50");
	cg_write(c, "cpu.uclamp.max", "75");
	ck_assert_int_eq(sl_spawn_sleepers(&p, 1), 0);
	snprintf(pid, sizeof(pid), "%d", p);
	cg_write(c, "cgroup.procs", pid);
	ck_assert_msg(sl_proc_sched(p, "effective uclamp.min") == 512 &&
		      sl_proc_sched(p, "effective uclamp.max") == 768,
		      "task in %s (50%%/75%%): effective uclamp.min %ld .max %ld, expected 512 768",
		      c, sl_proc_sched(p, "effective uclamp.min"), sl_proc_sched(p, "effective uclamp.max"));
	cg_write(a, "cpu.uclamp.max", "25");
	ck_assert_msg(sl_proc_sched(p, "effective uclamp.min") == 256 &&
		      sl_proc_sched(p, "effective uclamp.max") == 256,
		      "task in %s after %s's max 25%%: effective uclamp.min %ld .max %ld, expected 256 256",
		      c, a, sl_proc_sched(p, "effective uclamp.min"), sl_proc_sched(p, "effective uclamp.max"));
	cg_write(a, "cpu.uclamp.max", "max");
	ck_assert_msg(sl_proc_sched(p, "effective uclamp.min") == 512 &&
		      sl_proc_sched(p, "effective uclamp.max") == 768,
		      "task in %s after %s back to max: effective uclamp.min %ld .max %ld, expected 512 768",
		      c, a, sl_proc_sched(p, "effective uclamp.min"), sl_proc_sched(p, "effective uclamp.max"));
	cg_write("", "cgroup.procs", pid);
	sl_reap(&p, 1);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab06", NULL, NULL);

	sl_add_test(s, test_parent_max_propagates);
	sl_add_test(s, test_sibling_subtrees);
	sl_add_test(s, test_parent_min_propagates);
	sl_add_test(s, test_child_write_capped);
	sl_add_test(s, test_relax_restores);
	sl_add_test(s, test_min_capped_by_max);
	sl_add_test(s, test_percent_format);
	sl_add_test(s, test_task_follows_group);
	return s;
}
