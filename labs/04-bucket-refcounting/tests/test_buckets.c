// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4: per-rq clamp buckets, refcounted on enqueue/dequeue, max-aggregated.
 *
 * Clamped tasks are spinners (schedlab.h) pinned to the last CPU (the test
 * itself runs on CPU 0): RUNNABLE after sl_spin(), dequeued after
 * sl_rest().  Their clamps come from first-level cgroups (cpu.uclamp.min
 * and .max): a task that sets no clamp of its own gets its group's, so the
 * tests need neither lab 5 nor lab 6.  The rq state is read from the kit's
 * debugfs file (uclamp.h) as soon as the event that settles it happened;
 * only a kernel thread passing on the CPU makes a read wait.
 */
#include "uclamp.h"

#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIN	SL_UCLAMP_MIN
#define MAX	SL_UCLAMP_MAX
#define ANY	SL_ANY_VALUE

static int test_cpu(void)
{
	return sl_nr_cpus() - 1;
}

static void setup(void)
{
	ck_assert_int_eq(sl_pin(0, 0), 0);
	ck_assert_msg(sl_nr_cpus() > 1, "the lab needs two CPUs");
}

/* The capacity @pct100 hundredths of a percent stand for, and its bucket. */
static unsigned int util(unsigned int pct100)
{
	return sl_util_of_pct100(pct100);
}

static int bkt(unsigned int pct100)
{
	return sl_uclamp_bucket_of(util(pct100));
}

/* The test CPU's bucket @b of clamp @id has @tasks tasks (and rq value @value). */
static void expect(const char *what, int id, int b, unsigned long tasks, long value)
{
	sl_expect_rq(what, test_cpu(), id, b, tasks, value);
}

/* First-level group @grp with cpu.uclamp.min/max of @min100/@max100 hundredths of %. */
static void cg_make(const char *grp, unsigned int min100, unsigned int max100)
{
	char v[16];

	sl_cg_enable("", "cpu");
	sl_cg_mkdir(grp);
	sl_cg_write(grp, "cpu.uclamp.max", sl_pct100_str(max100, v));
	sl_cg_write(grp, "cpu.uclamp.min", sl_pct100_str(min100, v));
}

/* A sleeping spinner in group @grp, on the test CPU. */
static pid_t spawn(const char *grp)
{
	return sl_spawn_spinner(test_cpu(), grp);
}

/*
 * sched_uclamp_used is switched on by the first clamp written (here a
 * group's cpu.uclamp.min) while tasks are RUNNABLE: they were never
 * counted (not active), so their dequeue must release nothing, and their
 * next enqueue counts them.  This is the lab's first test, so it normally
 * runs before anything switched uclamp on; if something did, the task is
 * counted from the start and the write moves it to its new bucket at once.
 */
START_TEST(test_enabled_while_running)
{
	unsigned int v = util(2500);
	int b = bkt(2500), was_on = sl_uclamp_counting();
	pid_t p;

	sl_cg_enable("", "cpu");
	sl_cg_mkdir("l4_late");		/* no clamp written yet */
	p = spawn("l4_late");
	sl_spin(p);
	sl_cg_write("l4_late", "cpu.uclamp.min", "25.00");
	if (was_on)
		expect("a RUNNABLE task whose group's util_min became 25%", MIN, b, 1, v);
	else
		expect("a task RUNNABLE since before uclamp was switched on (it was never counted)",
		       MIN, b, 0, ANY);
	sl_rest(p);
	expect("after it slept", MIN, b, 0, 0);
	sl_spin(p);
	expect("after it woke up (util_min 25%)", MIN, b, 1, v);
	sl_reap(&p, 1);
}
END_TEST

/* One RUNNABLE task refcounts its min and max buckets; the rq takes its values. */
START_TEST(test_enqueue_refcounts)
{
	pid_t p;

	cg_make("l4_enq", 2500, 7500);
	p = spawn("l4_enq");
	sl_spin(p);
	expect("a RUNNABLE task with util_min 25%", MIN, bkt(2500), 1, util(2500));
	expect("a RUNNABLE task with util_max 75%", MAX, bkt(7500), 1, util(7500));
	sl_reap(&p, 1);
}
END_TEST

/* A task that sleeps releases its buckets; waking up takes them again. */
START_TEST(test_sleep_dequeues)
{
	pid_t p;

	cg_make("l4_sleep", 2500, 7500);
	p = spawn("l4_sleep");
	sl_spin(p);
	expect("a RUNNABLE task with util_min 25%", MIN, bkt(2500), 1, util(2500));
	sl_rest(p);
	expect("after it slept (no task left: util_min 0)", MIN, bkt(2500), 0, 0);
	expect("after it slept", MAX, bkt(7500), 0, ANY);
	sl_spin(p);
	expect("after it woke up", MIN, bkt(2500), 1, util(2500));
	expect("after it woke up (util_max 75%)", MAX, bkt(7500), 1, ANY);
	sl_reap(&p, 1);
}
END_TEST

/* A task that exits while RUNNABLE releases its buckets. */
START_TEST(test_exit_dequeues)
{
	int b = bkt(5000);
	pid_t p[2];

	cg_make("l4_exit", 5000, 5000);
	p[0] = spawn("l4_exit");
	p[1] = spawn("l4_exit");
	sl_spin(p[0]);
	sl_spin(p[1]);
	expect("two RUNNABLE tasks with util_min 50%", MIN, b, 2, util(5000));
	expect("two RUNNABLE tasks with util_max 50%", MAX, b, 2, ANY);
	sl_reap(&p[0], 1);
	sl_await_rq("after one of them exited", test_cpu(), MIN, b, 1, util(5000));
	sl_reap(&p[1], 1);
	sl_await_rq("after both exited", test_cpu(), MIN, b, 0, 0);
	sl_await_rq("after both exited", test_cpu(), MAX, b, 0, ANY);
}
END_TEST

/*
 * Tasks in different buckets: the rq value is the largest of the RUNNABLE
 * tasks' values, for util_min and util_max alike.  A lower task joining
 * does not lower it; when the top task leaves, the rq takes the value of
 * the next bucket down that still has a task, not of the lowest.
 */
START_TEST(test_max_aggregation_buckets)
{
	unsigned int lo = util(2500), mid = util(5000), hi = util(7500);
	int blo = bkt(2500), bmid = bkt(5000), bhi = bkt(7500);
	pid_t a, b, c;

	ck_assert_msg(blo != bmid && bmid != bhi, "25%%, 50%% and 75%% do not have buckets of their own");
	cg_make("l4_agg_lo", 2500, 2500);
	cg_make("l4_agg_mid", 5000, 5000);
	cg_make("l4_agg_hi", 7500, 7500);
	a = spawn("l4_agg_lo");
	b = spawn("l4_agg_mid");
	c = spawn("l4_agg_hi");
	sl_spin(c);
	expect("a RUNNABLE 75% task", MIN, bhi, 1, hi);
	sl_spin(a);
	expect("a 25% task joining the 75% one (the rq keeps 75%)", MIN, blo, 1, hi);
	expect("a 25% task joining the 75% one (the rq keeps 75%)", MAX, blo, 1, hi);
	sl_spin(b);
	expect("25%, 50% and 75% tasks RUNNABLE", MIN, bmid, 1, hi);
	sl_rest(c);
	expect("after the 75% task slept (50% and 25% left)", MIN, bhi, 0, mid);
	expect("after the 75% task slept (50% and 25% left)", MAX, bhi, 0, mid);
	sl_rest(b);
	expect("after the 50% task slept too (25% left)", MIN, bmid, 0, lo);
	expect("after the 50% task slept too (25% left)", MAX, bmid, 0, lo);
	sl_rest(a);
	expect("after all three slept", MIN, blo, 0, 0);
	sl_reap(&a, 1);
	sl_reap(&b, 1);
	sl_reap(&c, 1);
}
END_TEST

/*
 * Bucket 0 is a bucket like the others: a 10% util_max task (bucket 0)
 * left alone when a 75% one sleeps gives the rq its 10%, not the idle
 * value (the rq is not idle).  Three times, so that a kernel thread in the
 * last bucket at that moment cannot hide the value the rq took.
 */
START_TEST(test_bucket_zero_left)
{
	unsigned int lo = util(1000), hi = util(7500);
	pid_t a, b;

	ck_assert_msg(bkt(1000) == 0 && bkt(7500) > 0, "10%% is not in bucket 0");
	cg_make("l4_zero_lo", 0, 1000);
	cg_make("l4_zero_hi", 0, 7500);
	a = spawn("l4_zero_lo");
	b = spawn("l4_zero_hi");
	for (int i = 0; i < 3; i++) {
		sl_spin(a);
		sl_spin(b);
		expect("10% and 75% util_max tasks RUNNABLE", MAX, bkt(7500), 1, hi);
		sl_rest(b);
		expect("after the 75% task slept (the 10% one, in bucket 0, left)", MAX, 0, 1, lo);
		sl_rest(a);
	}
	sl_reap(&a, 1);
	sl_reap(&b, 1);
}
END_TEST

/*
 * The bucket-refcounting patch's own example: a 25% task and a 30% task
 * share a bucket.  The bucket (and so the rq) takes the larger value, 30%,
 * and keeps it while any of its tasks is RUNNABLE (the 25% task is
 * over-boosted); once the bucket is empty, the next task sets the bucket's
 * value to its own, 25%.  The bucket's own value (values[] in debugfs) is
 * checked besides the rq's, also while the bucket is empty (it keeps 30%).
 */
START_TEST(test_same_bucket_value)
{
	unsigned int v25 = util(2500), v30 = util(3000);
	int bkt25 = bkt(2500);
	struct sl_rq_clamp rc;
	pid_t a, b;

	ck_assert_msg(bkt25 == bkt(3000), "25%% and 30%% are not in one bucket");
	cg_make("l4_same25", 2500, 10000);
	cg_make("l4_same30", 3000, 10000);
	a = spawn("l4_same25");
	b = spawn("l4_same30");
	sl_spin(a);
	expect("a RUNNABLE 25% task", MIN, bkt25, 1, v25);
	sl_spin(b);
	/* the bucket itself takes 30%, not only the rq (checked by expect()) */
	expect("a 30% task joining it in the same bucket", MIN, bkt25, 2, v30);
	sl_rest(b);
	expect("after the 30% task slept (the bucket keeps 30% while it has a task)",
	       MIN, bkt25, 1, v30);
	sl_rest(a);
	expect("after both slept", MIN, bkt25, 0, 0);
	sl_read_rq_clamp(test_cpu(), MIN, &rc);
	ck_assert_msg(rc.values[bkt25] == v30,
		      "after both slept: CPU%d uclamp.min bucket %d, now empty, has value %lu; expected %u, the 30%% it had: a bucket's value is set only by a task entering it, never on dequeue",
		      test_cpu(), bkt25, rc.values[bkt25], v30);
	sl_spin(a);
	expect("the 25% task alone again (the empty bucket took its value)", MIN, bkt25, 1, v25);
	sl_reap(&a, 1);
	sl_reap(&b, 1);
}
END_TEST

/*
 * An idle CPU keeps its last util_max (UCLAMP_FLAG_IDLE), so that blocked
 * utilization does not raise the frequency: the value of the task that
 * left, 25%, even though its bucket was at 30% (a 30% task had been in it).  A kernel thread (util_max
 * 1024) that runs there between our task's sleep and the read leaves 1024
 * behind, rightly, and they come often: the RCU grace-period thread, for
 * one, wakes every few ms while a grace period lasts, onto the CPU it last
 * ran on if that one is idle.  So a try counts only when the CPU made
 * exactly one context switch between a read while our task ran and the
 * read after the one of its clamps (sl_cpu_switches()): our task to idle,
 * nothing else.  The first try that counts decides; one that does not
 * waits IDLE_GAP_MS before the next, so the tries span half a second.
 */
#define IDLE_TRIES 10
#define IDLE_GAP_MS 50
START_TEST(test_idle_keeps_max)
{
	unsigned int v25 = util(2500), v30 = util(3000), seen = 0;
	int b = bkt(2500), cpu = test_cpu(), counted = 0, i;
	struct sl_rq_clamp rc;
	pid_t lo, hi;

	ck_assert_msg(b == bkt(3000), "25%% and 30%% are not in one bucket");
	cg_make("l4_keep25", 0, 2500);
	cg_make("l4_keep30", 0, 3000);
	lo = spawn("l4_keep25");
	hi = spawn("l4_keep30");
	for (i = 0; i < IDLE_TRIES && !counted; i++) {
		long before;
		int busy = 0;

		if (i)
			usleep(IDLE_GAP_MS * 1000);
		sl_spin(hi);
		sl_spin(lo);
		sl_rest(hi);
		expect("a 25% util_max task left running after a 30% one in its bucket slept",
		       MAX, b, 1, v30);
		before = sl_cpu_switches(cpu);
		sl_rest(lo);
		sl_read_rq_clamp(cpu, MAX, &rc);
		for (int k = 0; k < rc.nr; k++)
			busy |= rc.tasks[k] != 0;
		counted = !busy && sl_cpu_switches(cpu) - before == 1;
		seen = rc.value;
	}
	sl_reap(&lo, 1);
	sl_reap(&hi, 1);
	ck_assert_msg(counted,
		      "inconclusive: in each of %d tries another task ran on CPU%d between our task's sleep and the read of its clamps; the guest is too busy for this test",
		      IDLE_TRIES, cpu);
	ck_assert_msg(seen == v25,
		      "CPU%d idle right after its last task (util_max %u, in a bucket at %u) slept, nothing else having run there since: rq util_max %u; expected %u: an idle CPU keeps the util_max of the task that left (UCLAMP_FLAG_IDLE), not its bucket's",
		      cpu, v25, v30, seen, v25);
}
END_TEST

/*
 * ... but the first task to wake on the idle CPU sets util_max afresh: a
 * 25% max after a 75% one brings the rq down to 25%.  Every read checks
 * that the rq value is the value of the top non-empty bucket, so a kept
 * 75% is seen at the first read after the wakeup; the cycle is run three
 * times, so that a kernel thread passing at that moment cannot hide it.
 */
START_TEST(test_idle_resets_max)
{
	unsigned int hi = util(7500), lo = util(2500);
	pid_t a, b;

	cg_make("l4_idle_hi", 0, 7500);
	cg_make("l4_idle_lo", 0, 2500);
	a = spawn("l4_idle_hi");
	b = spawn("l4_idle_lo");
	for (int i = 0; i < 3; i++) {
		sl_spin(a);
		expect("a task with util_max 75% running alone", MAX, bkt(7500), 1, hi);
		sl_rest(a);
		sl_spin(b);
		expect("then, on the idle CPU, a task with util_max 25%", MAX, bkt(2500), 1, lo);
		sl_rest(b);
	}
	sl_reap(&a, 1);
	sl_reap(&b, 1);
}
END_TEST

/*
 * CONFIG_UCLAMP_BUCKETS_COUNT buckets of SCHED_CAPACITY_SCALE/count each
 * (rounded): a RUNNABLE task whose group's util_min is moved through the
 * middle of every bucket lands in that bucket only, at once, and 100% in
 * the last one.
 */
START_TEST(test_buckets_count)
{
	int nr = sl_uclamp_buckets();
	unsigned int delta = (SL_CAPACITY_SCALE + nr / 2) / nr;
	pid_t p;

	cg_make("l4_count", 0, 10000);
	p = spawn("l4_count");
	sl_spin(p);
	for (int k = 1; k <= nr; k++) {
		/* middle of bucket k, in hundredths of a percent; nr: 100% */
		unsigned int u = k < nr ? k * delta + delta / 2 : SL_CAPACITY_SCALE;
		unsigned int pct100 = u * 10000 / SL_CAPACITY_SCALE;
		int want = k < nr ? k : nr - 1;
		struct sl_rq_clamp rc;
		char v[16], what[64];

		sl_cg_write("l4_count", "cpu.uclamp.min", sl_pct100_str(pct100, v));
		snprintf(what, sizeof(what), "its group's util_min set to %s%%", v);
		expect(what, MIN, want, 1, util(pct100));
		sl_read_rq_clamp(test_cpu(), MIN, &rc);
		for (int b = 1; b < nr; b++)
			ck_assert_msg(b == want || rc.tasks[b] == 0,
				      "util_min %u (%s%%): bucket %d has %lu task(s); with %d buckets only bucket %d should",
				      util(pct100), v, b, rc.tasks[b], nr, want);
	}
	sl_reap(&p, 1);
}
END_TEST

/*
 * A group's write reaches its RUNNABLE tasks at once, but not its sleeping
 * ones: they are in no bucket (not active), and take the new value when
 * they wake.  A RUNNABLE task of another group in the same bucket shows
 * that the sleeping task's old bucket is left alone.
 */
START_TEST(test_group_write_while_asleep)
{
	unsigned int v25 = util(2500), v50 = util(5000);
	int b25 = bkt(2500), b50 = bkt(5000);
	pid_t t, r;

	cg_make("l4_asleep", 2500, 10000);
	cg_make("l4_awake", 2500, 10000);
	t = spawn("l4_asleep");
	r = spawn("l4_awake");
	sl_spin(t);
	sl_spin(r);
	expect("two RUNNABLE tasks with util_min 25%, in two groups", MIN, b25, 2, v25);
	sl_rest(t);
	expect("one of them asleep", MIN, b25, 1, v25);
	sl_cg_write("l4_asleep", "cpu.uclamp.min", "50.00");
	expect("the sleeping task's group set to 50% (the other task is still in the 25% bucket)",
	       MIN, b25, 1, v25);
	expect("the sleeping task's group set to 50% (a sleeping task is in no bucket)",
	       MIN, b50, 0, v25);
	sl_spin(t);
	expect("once the task woke up, with its group's 50%", MIN, b50, 1, v50);
	expect("once the task woke up (the other task is still in the 25% bucket)", MIN, b25, 1, v50);
	sl_reap(&t, 1);
	sl_reap(&r, 1);
}
END_TEST

/*
 * A storm of short-lived clamped tasks on every CPU (created, woken, moved
 * by the load balancer, sleeping briefly, exiting): once all are gone, no
 * bucket they used holds a task and no rq keeps their util_min.  A spinner
 * of the same group, counted before the storm, checks the buckets are used.
 * The tasks are threads of the test, in its group: to the scheduler each
 * is a task like any other (forked by clone(), enqueued, dequeued, moved,
 * exiting), and one creator a CPU starts them side by side.  (Under
 * emulation a thread costs about half what a fork does, and one creator
 * alone took about twice as long.)
 */
#define STORM		120
#define STORM_STACK	(256 * 1024)

static void *storm_task(void *arg)
{
	for (int j = 0; j < 3; j++) {
		for (volatile int k = 0; k < 20000; k++)
			;
		usleep(200);
	}
	return NULL;
}

/* One of the storm's creators: starts @arg tasks, waits for them. */
static void *storm_creator(void *arg)
{
	long n = (long)arg, i;
	pthread_t tids[STORM];
	pthread_attr_t attr;

	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, STORM_STACK))
		return NULL;
	for (i = 0; i < n; i++)
		if (pthread_create(&tids[i], &attr, storm_task, NULL))
			break;
	for (long j = 0; j < i; j++)
		pthread_join(tids[j], NULL);
	pthread_attr_destroy(&attr);
	return (void *)i;
}

START_TEST(test_storm_no_leak)
{
	int nr_cpus = sl_nr_cpus(), b = bkt(4000);
	unsigned int v = util(4000);
	pthread_t creators[SL_MAX_CPUS];
	long started = 0;
	pid_t anchor;

	cg_make("l4_storm", 4000, 4000);
	anchor = spawn("l4_storm");
	sl_spin(anchor);
	expect("a RUNNABLE task with util_min 40%", MIN, b, 1, v);
	sl_cg_join("l4_storm", getpid());
	ck_assert_int_eq(sl_unpin(0), 0);	/* the storm's tasks inherit it */
	for (int i = 0; i < nr_cpus; i++)
		ck_assert_int_eq(pthread_create(&creators[i], NULL, storm_creator,
						(void *)(long)(STORM / nr_cpus + (i < STORM % nr_cpus))), 0);
	for (int i = 0; i < nr_cpus; i++) {
		void *n;

		pthread_join(creators[i], &n);
		started += (long)n;
	}
	ck_assert_int_eq(started, STORM);
	sl_reap(&anchor, 1);
	sl_cg_join("", getpid());		/* back to the root group */
	ck_assert_int_eq(sl_pin(0, 0), 0);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		sl_await_rq("after the storm", cpu, MAX, b, 0, ANY);
		/* CPU 0 runs this test: its rq value is ours */
		sl_await_rq("after the storm", cpu, MIN, b, 0, cpu ? 0 : ANY);
	}
}
END_TEST

/*
 * The rules against a model, on a seeded random scenario (sl_seed()): four
 * spinners on the test CPU, each in a group of its own, start and stop
 * running and have their group's clamps rewritten at random (while they
 * run, too: the write moves them to their new buckets at once).  After
 * every step each bucket's count, each non-empty bucket's value and the
 * rq's value are compared with the model: a RUNNABLE task refcounts the
 * bucket of each of its clamps; a bucket's value is the largest of the
 * tasks that entered it since it was last empty; the rq's is the value of
 * its top most non-empty bucket; a write that changes a RUNNABLE task's
 * effective clamps takes it out of both its buckets and puts it back.
 * The values are kept in buckets 1 to 3 (20% to 80%): kernel threads
 * visit min bucket 0 and the last bucket of both (an RT one has util_min
 * 1024), which the model cannot know, so those are not compared, nor is
 * the rq's value while a kernel thread is in the last bucket.  A group's
 * min is never written above its max, nor its max below its min: a min
 * capped by the max is lab 6's rule (cpu_util_update_eff()), and lab 4
 * is graded on trees where lab 6 is not done yet.
 */
#define RAND_TASKS	4
#define RAND_STEPS	40

struct model4 {
	pid_t pid[RAND_TASKS];
	int running[RAND_TASKS];
	unsigned int req[RAND_TASKS][2];	/* the group's requests */
	unsigned int pct100[RAND_TASKS][2];	/* the same, as written */
	unsigned long tasks[2][SL_MAX_BUCKETS], value[2][SL_MAX_BUCKETS];
};

/* Task @t's effective clamp @id: its group's (whose min is at most its max). */
static unsigned int eff4(const struct model4 *m, int t, int id)
{
	return m->req[t][id];
}

static void enqueue4(struct model4 *m, int t)
{
	for (int id = MIN; id <= MAX; id++) {
		unsigned int v = eff4(m, t, id);
		int b = sl_uclamp_bucket_of(v);

		if (!m->tasks[id][b]++ || v > m->value[id][b])
			m->value[id][b] = v;
	}
}

static void dequeue4(struct model4 *m, int t)
{
	for (int id = MIN; id <= MAX; id++)
		m->tasks[id][sl_uclamp_bucket_of(eff4(m, t, id))]--;
}

static void check4(const struct model4 *m)
{
	int cpu = test_cpu(), any = 0;

	for (int t = 0; t < RAND_TASKS; t++)
		any |= m->running[t];
	for (int id = MIN; id <= MAX; id++) {
		struct sl_rq_clamp rc;
		int foreign, top = -1;

		sl_read_rq_clamp(cpu, id, &rc);
		/* kernel threads: min bucket 0 (and RT ones the last), max the last */
		foreign = rc.tasks[rc.nr - 1] != 0;
		for (int b = 0; b < rc.nr; b++) {
			if (b == rc.nr - 1 || (id == MIN && b == 0))
				continue;
			char want[48];

			snprintf(want, sizeof(want), m->tasks[id][b] ? ", value %lu" : " (any value)",
				 m->value[id][b]);
			ck_assert_msg(rc.tasks[b] == m->tasks[id][b] &&
				      (!m->tasks[id][b] || rc.values[b] == m->value[id][b]),
				      "CPU%d uclamp.%s bucket %d: %lu task(s), value %lu; expected %lu task(s)%s; %s",
				      cpu, sl_clamp_name(id), b, rc.tasks[b], rc.values[b], m->tasks[id][b],
				      want, sl_scenario("test_random_scenarios"));
			if (m->tasks[id][b])
				top = b;
		}
		if (!any || foreign)
			continue;
		ck_assert_msg(rc.value == m->value[id][top],
			      "CPU%d uclamp.%s is %u; expected %lu, the value of its top most bucket with tasks, %d; %s",
			      cpu, sl_clamp_name(id), rc.value, m->value[id][top], top,
			      sl_scenario("test_random_scenarios"));
	}
}

START_TEST(test_random_scenarios)
{
	struct model4 m = { .running = { 0 } };
	char grp[32], v[16];

	ck_assert_msg(sl_uclamp_buckets() >= 5 && sl_uclamp_buckets() <= SL_MAX_BUCKETS,
		      "the test needs 5 buckets or more (20%% each at most)");
	for (int t = 0; t < RAND_TASKS; t++) {
		snprintf(grp, sizeof(grp), "l4_rand%d", t);
		cg_make(grp, 2500, 7500);
		m.pct100[t][0] = 2500;
		m.pct100[t][1] = 7500;
		m.req[t][0] = util(2500);
		m.req[t][1] = util(7500);
		m.pid[t] = spawn(grp);
	}
	check4(&m);
	while (sl_nr_steps() < RAND_STEPS) {
		int t = sl_rand(RAND_TASKS);

		if (sl_rand(3)) {
			if (m.running[t]) {
				sl_rest(m.pid[t]);
				dequeue4(&m, t);
			} else {
				sl_spin(m.pid[t]);
				enqueue4(&m, t);
			}
			m.running[t] = !m.running[t];
			sl_step("task %d (l4_rand%d) %s", m.pid[t], t, m.running[t] ? "runs" : "sleeps");
		} else {
			/*
			 * 20.02% to 80% (util 205 to 819, buckets 1 to 3), a
			 * min up to the group's max, a max down to its min
			 */
			unsigned int id = sl_rand(2);
			unsigned int lo = id == MIN ? 2002 : m.pct100[t][MIN];
			unsigned int hi = id == MIN ? m.pct100[t][MAX] : 8000;
			unsigned int pct100 = lo + sl_rand(hi - lo + 1);
			unsigned int old = m.req[t][id], was[2] = { eff4(&m, t, MIN), eff4(&m, t, MAX) };

			snprintf(grp, sizeof(grp), "l4_rand%d", t);
			sl_cg_write(grp, id == MIN ? "cpu.uclamp.min" : "cpu.uclamp.max",
				    sl_pct100_str(pct100, v));
			m.req[t][id] = util(pct100);
			m.pct100[t][id] = pct100;
			/* a RUNNABLE task is moved when its effective clamps change */
			if (m.running[t] && (was[0] != eff4(&m, t, MIN) || was[1] != eff4(&m, t, MAX))) {
				m.req[t][id] = old;
				dequeue4(&m, t);
				m.req[t][id] = util(pct100);
				enqueue4(&m, t);
			}
			sl_step("l4_rand%d's cpu.uclamp.%s %s%s", t, sl_clamp_name(id), v,
			      m.running[t] ? " (it runs)" : "");
		}
		check4(&m);
	}
	sl_reap(m.pid, RAND_TASKS);
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab04", setup, NULL);

	sl_add_test(s, test_enabled_while_running);
	sl_add_test(s, test_enqueue_refcounts);
	sl_add_test(s, test_sleep_dequeues);
	sl_add_test(s, test_exit_dequeues);
	sl_add_test(s, test_max_aggregation_buckets);
	sl_add_test(s, test_bucket_zero_left);
	sl_add_test(s, test_same_bucket_value);
	sl_add_test(s, test_idle_keeps_max);
	sl_add_test(s, test_idle_resets_max);
	sl_add_test(s, test_buckets_count);
	sl_add_test(s, test_group_write_while_asleep);
	sl_add_test(s, test_storm_no_leak);
	sl_add_test(s, test_random_scenarios);
	return s;
}
