// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6: cgroup clamps propagate down the hierarchy.
 *
 * cgroup v2 at /sys/fs/cgroup with the cpu controller enabled down the tree
 * (+cpu in cgroup.subtree_control).  A group's cpu.uclamp.{min,max} is its
 * request; cpu.uclamp.{min,max}.effective (the kit's instrumentation, in a
 * file no lab's solution may change) shows tg->uclamp[], what its tasks
 * get: the request capped by the parent's effective value, and min capped
 * by max.  Effective values are printed like the requests: "max" or a
 * percentage with two decimals.  The values the tasks run with are checked
 * a second way: /proc/PID/sched ("effective uclamp.min") and, for a
 * RUNNABLE task, its CPU's clamp buckets (lab 4's debugfs file).
 *
 * Most tests are scripts (struct step): make groups, write requests,
 * check the files.  Group names are relative to the test's own top group.
 */
#include "uclamp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum op { MKDIR, WRITE, READS, EFFECTIVE, END };

struct step {
	enum op op;
	const char *grp;	/* below the test's top group; "" is the top */
	const char *a, *b;	/* WRITE/READS: file, value; EFFECTIVE: min, max */
};

#define MK(g)			{ MKDIR, g, NULL, NULL }
#define W(g, file, v)		{ WRITE, g, "cpu.uclamp." file, v }
#define R(g, file, v)		{ READS, g, "cpu.uclamp." file, v }
#define E(g, min, max)		{ EFFECTIVE, g, min, max }

/* @top/@grp, or @top when @grp is "". */
static char *path(char *buf, size_t len, const char *top, const char *grp)
{
	snprintf(buf, len, "%s%s%s", top, *grp ? "/" : "", grp);
	return buf;
}

/*
 * The writes a test made so far (its groups' files and the sysctls), to
 * say what led to a wrong value; a test starts with none (a new top group).
 */
static char done[512], done_top[64];

static void note(const char *fmt, ...)
{
	size_t n = strlen(done);
	va_list ap;

	if (n)
		n += snprintf(done + n, sizeof(done) - n, ", ");
	va_start(ap, fmt);
	vsnprintf(done + n, sizeof(done) - n, fmt, ap);
	va_end(ap);
}

/* A sysctl written, and noted. */
static void write_sysctl(const char *path, unsigned int val)
{
	sl_uclamp_sysctl(path, val);
	note("%s %u", strrchr(path, '/') + 1, val);
}

static void expect_file(const char *grp, const char *file, const char *want)
{
	char b[64];

	sl_cg_read(grp, file, b, sizeof(b));
	ck_assert_msg(!strcmp(b, want), "%s/%s reads '%s', expected '%s' (after writing %s)",
		      grp, file, b, want, *done ? done : "nothing");
}

/* A group with the cpu controller: its parent hands it on. */
static void mkgroup(const char *top, const char *grp)
{
	char g[128], parent[128];

	path(g, sizeof(g), top, grp);
	snprintf(parent, sizeof(parent), "%s", g);
	*(strrchr(parent, '/') ? strrchr(parent, '/') : parent) = 0;
	sl_cg_enable(parent, "cpu");
	sl_cg_mkdir(g);
}

static void run_steps(const char *top, const struct step *s)
{
	char g[128];

	if (strcmp(done_top, top)) {
		done[0] = '\0';
		snprintf(done_top, sizeof(done_top), "%s", top);
	}
	mkgroup("", top);
	for (; s->op != END; s++) {
		path(g, sizeof(g), top, s->grp);
		switch (s->op) {
		case MKDIR:
			mkgroup(top, s->grp);
			break;
		case WRITE:
			/* a child's write must never fail */
			sl_cg_write(g, s->a, s->b);
			note("%s/%s %s", g, s->a, s->b);
			break;
		case READS:
			expect_file(g, s->a, s->b);
			break;
		case EFFECTIVE:
			expect_file(g, "cpu.uclamp.min.effective", s->a);
			expect_file(g, "cpu.uclamp.max.effective", s->b);
			break;
		case END:
			break;
		}
	}
}

#define TREE	MK("b"), MK("b/c")
#define DONE	{ END, NULL, NULL, NULL }

/* A parent's max restriction reaches every descendant. */
START_TEST(test_parent_max_propagates)
{
	static const struct step s[] = {
		TREE,
		W("", "max", "40"),
		E("", "0.00", "40.00"), E("b", "0.00", "40.00"), E("b/c", "0.00", "40.00"),
		DONE
	};

	run_steps("l6_pmax", s);
}
END_TEST

/*
 * Siblings: top has b1 (max 10%, with a child c1) and b2 (max "max", with a
 * child c2).  top's max 50% leaves b1's subtree unchanged, and the walk
 * must skip that subtree only, not stop there: b2 and c2 come after it.
 */
START_TEST(test_sibling_subtrees)
{
	static const struct step s[] = {
		MK("b1"), MK("b1/c1"),	/* b1 first: the walk visits it before b2 */
		MK("b2"), MK("b2/c2"),
		W("b1", "max", "10"),
		E("b1/c1", "0.00", "10.00"),
		W("", "max", "50"),
		E("b1", "0.00", "10.00"), E("b1/c1", "0.00", "10.00"),
		E("b2", "0.00", "50.00"), E("b2/c2", "0.00", "50.00"),
		W("", "max", "max"),
		E("b1", "0.00", "10.00"), E("b2", "0.00", "max"), E("b2/c2", "0.00", "max"),
		DONE
	};

	run_steps("l6_sib", s);
}
END_TEST

/* A parent's min restriction (a lower protection) reaches every descendant. */
START_TEST(test_parent_min_propagates)
{
	static const struct step s[] = {
		TREE,
		W("b/c", "min", "60"), W("b", "min", "70"), W("", "min", "20"),
		E("", "20.00", "max"), E("b", "20.00", "max"), E("b/c", "20.00", "max"),
		DONE
	};

	run_steps("l6_pmin", s);
}
END_TEST

/* A child asking for more than its parent allows: the write works, the value is capped. */
START_TEST(test_child_write_capped)
{
	static const struct step s[] = {
		TREE,
		W("", "max", "50"), W("", "min", "30"),
		W("b", "max", "80"), W("b", "min", "45"),
		R("b", "max", "80.00"), R("b", "min", "45.00"),
		E("b", "30.00", "50.00"),
		W("b/c", "max", "20"),
		E("b/c", "0.00", "20.00"),
		DONE
	};

	run_steps("l6_cap", s);
}
END_TEST

/* Relaxing the parent gives the child back its own request. */
START_TEST(test_relax_restores)
{
	static const struct step s[] = {
		TREE,
		W("b/c", "max", "75"), W("b/c", "min", "25"),
		W("", "max", "10"),
		E("b/c", "0.00", "10.00"),
		W("", "max", "max"),
		E("b", "0.00", "max"), E("b/c", "0.00", "75.00"),
		W("", "min", "50"), W("b", "min", "50"),
		E("b/c", "25.00", "75.00"),
		DONE
	};

	run_steps("l6_relax", s);
}
END_TEST

/*
 * A group's effective min never exceeds its effective max: the group
 * written, and a descendant an ancestor's write reaches.
 */
START_TEST(test_min_capped_by_max)
{
	static const struct step s[] = {
		TREE,
		W("", "min", "100"),	/* a protection needs room above */
		W("b", "min", "60"), W("b", "max", "30"),
		R("b", "min", "60.00"),
		E("b", "30.00", "30.00"),
		W("b/c", "min", "90"),
		E("b/c", "30.00", "30.00"),
		W("b", "max", "max"),
		E("b", "60.00", "max"), E("b/c", "60.00", "max"),
		/* a descendant's own min above its own max, raised from above */
		W("b/c", "max", "30"), W("b", "min", "0"),
		E("b/c", "0.00", "30.00"),
		W("b", "min", "80"),
		E("b", "80.00", "max"), E("b/c", "30.00", "30.00"),
		DONE
	};

	run_steps("l6_minmax", s);
}
END_TEST

/*
 * Percentages: the requests keep what was written (two decimals), and an
 * effective value inherited from an ancestor reads as that ancestor's
 * request; a new child starts from its parent's effective values.
 */
START_TEST(test_percent_format)
{
	static const struct step s[] = {
		TREE,
		W("", "max", "33.33"), W("", "min", "12.5"),
		W("b", "max", "66.6"), W("b", "min", "87.65"),
		R("b", "max", "66.60"), R("b", "min", "87.65"),
		E("b", "12.50", "33.33"), E("b/c", "0.00", "33.33"),
		MK("b/d"),
		E("b/d", "0.00", "33.33"),
		DONE
	};

	run_steps("l6_pct", s);
}
END_TEST

/* ... and, @pid being RUNNABLE alone on @cpu, its buckets there. */
static void expect_running(pid_t pid, int cpu, unsigned int min, unsigned int max,
			   const char *what)
{
	sl_expect_effective(pid, min, max, what);
	sl_expect_rq(what, cpu, SL_UCLAMP_MIN, sl_uclamp_bucket_of(min), 1, min);
	sl_expect_rq(what, cpu, SL_UCLAMP_MAX, sl_uclamp_bucket_of(max), 1, max);
}

/* A sleeping task's effective clamps follow its group's effective clamps. */
START_TEST(test_task_follows_group)
{
	static const struct step s[] = {
		TREE,
		W("", "min", "100"), W("b", "min", "100"),
		W("b/c", "min", "50"), W("b/c", "max", "75"),
		DONE
	};
	pid_t p;

	run_steps("l6_task", s);
	ck_assert_int_eq(sl_spawn_sleepers(&p, 1), 0);
	sl_cg_join("l6_task/b/c", p);
	sl_expect_effective(p, 512, 768, "a task in l6_task/b/c (50%/75%)");
	sl_cg_write("l6_task", "cpu.uclamp.max", "25");
	sl_expect_effective(p, 256, 256, "the same after l6_task's max 25%");
	sl_cg_write("l6_task", "cpu.uclamp.max", "max");
	sl_expect_effective(p, 512, 768, "the same after l6_task's max back to max");
	sl_cg_join("", p);
	sl_reap(&p, 1);
}
END_TEST

/*
 * An RT task's util_min defaults to sched_util_clamp_min_rt_default; in a
 * group it is capped by the group's effective max, which comes from an
 * ancestor here, and follows the sysctl below that cap.
 */
START_TEST(test_rt_task_in_group)
{
	static const struct step s[] = {
		TREE,
		W("", "max", "20"),
		DONE
	};
	pid_t p;

	run_steps("l6_rt", s);
	ck_assert_int_eq(sl_spawn_sleepers(&p, 1), 0);
	sl_cg_join("l6_rt/b/c", p);
	ck_assert_int_eq(sl_set_policy(p, SCHED_FIFO, 5, 0), 0);
	write_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, 300);
	sl_expect_effective(p, 205, 205, "a SCHED_FIFO task in l6_rt/b/c (l6_rt's max 20%), RT default 300");
	write_sysctl(SL_SYSCTL_UCLAMP_MIN_RT, 100);
	sl_expect_effective(p, 100, 205, "the same with RT default 100");
	sl_cg_join("", p);
	sl_reap(&p, 1);
}
END_TEST

/*
 * RUNNABLE tasks take their group's new clamps at once: in the written
 * group, and in the groups below a written one (uclamp_update_active_tasks()
 * for each group whose effective values changed).  Their buckets move while
 * they run.  x runs in l6_run/d, y in l6_run/b/c, each alone on a CPU.
 */
START_TEST(test_running_tasks_follow)
{
	static const struct step s[] = {
		TREE, MK("d"),
		W("", "min", "100"), W("b", "min", "100"),
		W("d", "min", "60"), W("d", "max", "80"),
		W("b/c", "min", "50"), W("b/c", "max", "75"),
		DONE
	};
	int cx = sl_nr_cpus() - 1, cy = sl_nr_cpus() - 2;
	pid_t x, y;

	ck_assert_msg(cy > 0, "the test needs three CPUs");
	ck_assert_int_eq(sl_pin(0, 0), 0);
	run_steps("l6_run", s);
	x = sl_spawn_spinner(cx, "l6_run/d");
	y = sl_spawn_spinner(cy, "l6_run/b/c");
	sl_spin(x);
	sl_spin(y);
	expect_running(x, cx, 614, 819, "a RUNNABLE task in l6_run/d (60%/80%)");
	expect_running(y, cy, 512, 768, "a RUNNABLE task in l6_run/b/c (50%/75%)");
	sl_cg_write("l6_run", "cpu.uclamp.max", "25");
	expect_running(x, cx, 256, 256, "the task in l6_run/d, right after l6_run's max 25%");
	expect_running(y, cy, 256, 256, "the task in l6_run/b/c, right after l6_run's max 25%");
	sl_cg_write("l6_run", "cpu.uclamp.max", "max");
	expect_running(x, cx, 614, 819, "the task in l6_run/d, right after l6_run's max back to max");
	expect_running(y, cy, 512, 768, "the task in l6_run/b/c, right after l6_run's max back to max");
	sl_cg_write("l6_run/d", "cpu.uclamp.max", "50");
	expect_running(x, cx, 512, 512, "the task in l6_run/d, right after its own group's max 50%");
	sl_reap(&x, 1);
	sl_reap(&y, 1);
}
END_TEST

/*
 * The root group's clamps are the sysctls sched_util_clamp_{min,max}
 * (uclamp_update_root_tg()): they propagate like any group's, to a
 * RUNNABLE task too.  A value no request explains reads as the
 * percentage it stands for.
 */
START_TEST(test_root_sysctls)
{
	static const struct step s[] = {
		TREE,
		W("", "min", "100"), W("b", "min", "100"), W("b/c", "min", "40"),
		E("", "max", "max"), E("b/c", "40.00", "max"),
		DONE
	};
	static const struct step min25[] = {
		E("", "25.00", "max"), E("b", "25.00", "max"), E("b/c", "25.00", "max"),
		DONE
	};
	static const struct step max50[] = {
		E("", "25.00", "50.00"), E("b", "25.00", "50.00"), E("b/c", "25.00", "50.00"),
		DONE
	};
	int cpu = sl_nr_cpus() - 1;
	pid_t y;

	ck_assert_int_eq(sl_pin(0, 0), 0);
	run_steps("l6_root", s);
	y = sl_spawn_spinner(cpu, "l6_root/b/c");
	sl_spin(y);
	write_sysctl(SL_SYSCTL_UCLAMP_MIN, 256);
	run_steps("l6_root", min25);
	sl_expect_effective(y, 256, 1024, "a RUNNABLE task in l6_root/b/c after sched_util_clamp_min 256");
	sl_expect_rq("a RUNNABLE task in l6_root/b/c after sched_util_clamp_min 256", cpu,
		     SL_UCLAMP_MIN, sl_uclamp_bucket_of(256), 1, 256);
	write_sysctl(SL_SYSCTL_UCLAMP_MAX, 512);
	run_steps("l6_root", max50);
	/* root tasks (kernel threads) now share its max bucket: /proc only */
	sl_expect_effective(y, 256, 512, "the same after sched_util_clamp_max 512");
	sl_reap(&y, 1);
}
END_TEST

/*
 * The rules against a model, on a seeded random scenario (sl_seed()):
 * groups made under random parents, requests written at random (two
 * decimals, "max", often a value another group holds), the root's
 * sysctls now and then (a min above the max is refused), and two sleeping
 * tasks moved between groups.  After every step, every group's effective
 * values and the tasks' are compared with the model: a group's effective
 * clamp is its request capped by its parent's effective clamp, then its
 * min capped by its max; the root's are the sysctls; a task without
 * clamps of its own gets its group's.  In capacity units: an effective
 * file's "max" is 1024, "P.QQ" is P.QQ% of 1024, rounded.
 */
#define RAND_GROUPS	7
#define RAND_STEPS	48
#define RAND_TASKS	2
#define RAND_TOP	"l6_rand"

struct model {
	int nr;
	char name[RAND_GROUPS][64];	/* below RAND_TOP; "" is RAND_TOP */
	int parent[RAND_GROUPS];	/* -1: the root */
	unsigned int req[RAND_GROUPS][2], eff[RAND_GROUPS][2];
	unsigned int sysctl[2];
	int children[RAND_GROUPS];	/* groups below (cgroup v2: then no task in it) */
	pid_t pid[RAND_TASKS];
	int task_grp[RAND_TASKS];	/* the group each task is in; -1: the root */
};

static int has_task(const struct model *m, int grp)
{
	for (int t = 0; t < RAND_TASKS; t++)
		if (m->task_grp[t] == grp)
			return 1;
	return 0;
}

static void model_update(struct model *m)
{
	for (int g = 0; g < m->nr; g++) {	/* parents come first */
		for (int id = 0; id < 2; id++) {
			unsigned int up = m->parent[g] < 0 ? m->sysctl[id] : m->eff[m->parent[g]][id];

			m->eff[g][id] = m->req[g][id] < up ? m->req[g][id] : up;
		}
		if (m->eff[g][0] > m->eff[g][1])
			m->eff[g][0] = m->eff[g][1];
	}
}

static unsigned int effective_util(const char *grp, int id)
{
	char b[32];
	unsigned int p, q = 0;

	sl_cg_read(grp, id ? "cpu.uclamp.max.effective" : "cpu.uclamp.min.effective", b, sizeof(b));
	if (!strcmp(b, "max"))
		return 1024;
	ck_assert_msg(sscanf(b, "%u.%2u", &p, &q) >= 1, "%s's effective %s reads '%s'", grp,
		      id ? "max" : "min", b);
	return sl_util_of_pct100(p * 100 + q);
}

static void model_check(const struct model *m)
{
	static const char *const clamp[2] = { "min", "max" };
	char g[128];

	for (int i = 0; i < m->nr; i++)
		for (int id = 0; id < 2; id++) {
			unsigned int got = effective_util(path(g, sizeof(g), RAND_TOP, m->name[i]), id);
			char cap[48] = "";

			if (!id)
				snprintf(cap, sizeof(cap), ", its effective max %u", m->eff[i][1]);
			ck_assert_msg(got == m->eff[i][id],
				      "%s: cpu.uclamp.%s.effective stands for %u, expected %u (its request %u, its parent's effective %u%s); %s",
				      g, clamp[id], got, m->eff[i][id], m->req[i][id],
				      m->parent[i] < 0 ? m->sysctl[id] : m->eff[m->parent[i]][id], cap,
				      sl_scenario("test_random_scenarios"));
		}
	for (int t = 0; t < RAND_TASKS; t++)
		for (int id = 0; id < 2; id++) {
			long got = sl_proc_sched(m->pid[t], id ? "effective uclamp.max" : "effective uclamp.min");
			int grp = m->task_grp[t];
			/* in the root group, its own request (0, 1024) capped by the sysctl */
			unsigned int want = grp >= 0 ? m->eff[grp][id] : id ? m->sysctl[1] : 0;

			ck_assert_msg(got == want,
				      "a sleeping task in %s%s%s: /proc/%d/sched shows effective uclamp.%s %ld, expected %u (%s); %s",
				      grp >= 0 ? RAND_TOP : "the root group", grp >= 0 && *m->name[grp] ? "/" : "",
				      grp >= 0 ? m->name[grp] : "", m->pid[t], clamp[id], got, want,
				      grp >= 0 ? "its group's" : "its own request, capped by the sysctl",
				      sl_scenario("test_random_scenarios"));
		}
}

START_TEST(test_random_scenarios)
{
	static const unsigned int pcts[] = { 0, 1000, 1250, 2500, 3333, 5000, 6660, 7500, 8765, 10000 };
	struct model m = { .nr = 1, .parent = { -1 }, .sysctl = { 1024, 1024 } };
	char g[128], v[16];

	m.req[0][1] = 1024;
	mkgroup("", RAND_TOP);
	ck_assert_int_eq(sl_spawn_sleepers(m.pid, RAND_TASKS), 0);
	for (int t = 0; t < RAND_TASKS; t++)
		m.task_grp[t] = -1;
	model_update(&m);
	model_check(&m);
	while (sl_nr_steps() < RAND_STEPS) {
		unsigned int r = sl_rand(100), i = sl_rand(m.nr), id = sl_rand(2), pct;

		if (r < 15 && m.nr < RAND_GROUPS && !has_task(&m, i)) {
			char name[sizeof(m.name[0])];

			snprintf(name, sizeof(name), "%s%s%c", m.name[i], *m.name[i] ? "/" : "", 'a' + m.nr);
			strcpy(m.name[m.nr], name);
			m.parent[m.nr] = i;
			m.children[i]++;
			m.req[m.nr][0] = 0;
			m.req[m.nr][1] = 1024;
			mkgroup(RAND_TOP, m.name[m.nr]);
			sl_step("made %s/%s", RAND_TOP, m.name[m.nr]);
			m.nr++;
		} else if (r < 25) {
			unsigned int val = sl_rand(9) * 128;
			const char *file = id ? SL_SYSCTL_UCLAMP_MAX : SL_SYSCTL_UCLAMP_MIN;
			int refused = id ? val < m.sysctl[0] : val > m.sysctl[1], ret;

			snprintf(v, sizeof(v), "%u", val);
			ret = sl_write_str(file, v);
			ck_assert_msg(refused ? ret != 0 : ret == 0,
				      "writing %u to %s: %s, expected %s; %s", val, file,
				      ret ? "refused" : "done", refused ? "a refusal (min above max)" : "done",
				      sl_scenario("test_random_scenarios"));
			if (!refused)
				m.sysctl[id] = val;
			sl_step("%s %u%s", strrchr(file, '/') + 1, val, refused ? " (refused)" : "");
		} else if (r < 35 && !m.children[i]) {
			unsigned int t = sl_rand(RAND_TASKS);

			sl_cg_join(path(g, sizeof(g), RAND_TOP, m.name[i]), m.pid[t]);
			m.task_grp[t] = i;
			sl_step("task %d into %s", m.pid[t], g);
		} else if (r >= 35) {
			pct = sl_rand(3) ? pcts[sl_rand(10)] : sl_rand(10001);
			if (pct == 10000 && sl_rand(2))
				snprintf(v, sizeof(v), "max");
			else
				sl_pct100_str(pct, v);
			path(g, sizeof(g), RAND_TOP, m.name[i]);
			sl_cg_write(g, id ? "cpu.uclamp.max" : "cpu.uclamp.min", v);
			m.req[i][id] = sl_util_of_pct100(pct);
			sl_step("%s/cpu.uclamp.%s %s", g, id ? "max" : "min", v);
		} else {
			continue;	/* not possible there: draw again */
		}
		model_update(&m);
		model_check(&m);
	}
	for (int t = 0; t < RAND_TASKS; t++)
		sl_cg_join("", m.pid[t]);
	sl_reap(m.pid, RAND_TASKS);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab06", NULL, NULL);

	sl_suite_cleanup(sl_uclamp_sysctls_default);
	sl_add_test(s, test_parent_max_propagates);
	sl_add_test(s, test_sibling_subtrees);
	sl_add_test(s, test_parent_min_propagates);
	sl_add_test(s, test_child_write_capped);
	sl_add_test(s, test_relax_restores);
	sl_add_test(s, test_min_capped_by_max);
	sl_add_test(s, test_percent_format);
	sl_add_test(s, test_task_follows_group);
	sl_add_test(s, test_running_tasks_follow);
	sl_add_test(s, test_root_sysctls);
	sl_add_test(s, test_rt_task_in_group);
	sl_add_test(s, test_random_scenarios);
	return s;
}
