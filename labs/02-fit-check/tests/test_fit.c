// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: a waking SCHED_DEADLINE task goes to a free CPU that fits it.
 *
 * Each test starts a task on a CPU chosen to be wrong, lets it sleep and
 * wake up, and checks the CPU it runs on after every wakeup.  A task
 * "fits" a CPU when its demand, runtime / deadline x 1024 (or, when that
 * is lower, its remaining runtime over the time left to its scheduling
 * deadline), is at most the CPU's capacity.  The suite runs on three
 * capacity tiers (TOPOLOGY=three-tier: 256 512 1024 1024), the only way to
 * tell "the slowest CPU that fits" from "any CPU that fits" and "the
 * fastest CPU when none fits" from "the slowest one".
 *
 * Not statistical: every wakeup must be right.  The free CPUs are known
 * (every CPU but those the test keeps busy with SCHED_DEADLINE hogs, which
 * never throttle within a test), and cpudl_find() leaves exactly the
 * expected CPUs in later_mask, so find_later_rq() can only return one of
 * them.  The task's demand must be known too: each sleep (22 ms) outlasts
 * the task's deadline (20 ms), so that at the wakeup runtime / deadline is
 * its demand, and the task checks that it was (placement.h: the wakeup
 * gave it a new instance).  Under emulation (TCG) a host that stalls a
 * busy emulated CPU makes the guest count the stall as run time; a task
 * whose runtime runs out that way gets its deadline moved ahead by whole
 * periods, and may wake up before it with little runtime left, a lower
 * demand.  Such a wakeup is not counted; a run with none counted is
 * repeated.  The demands keep a wide margin to every capacity, except in
 * the two tests about the boundary itself, whose demands are exact.
 *
 * SCHED_DEADLINE tasks may not have an affinity smaller than their root
 * domain (sched_setattr() and sched_setaffinity() refuse), so the tests
 * about affinity put the task in a cgroup v2 cpuset partition, which is a
 * root domain of its own.
 */
#include "cgroup.h"
#include "placement.h"
#include "trace.h"

#include <stdio.h>
#include <string.h>

#define DEADLINE	(20 * NSEC_PER_MSEC)
#define WAKEUPS		3
#define SLEEP_US	22000	/* longer than DEADLINE */
#define PARTITION	"lab02"

enum tier { SLOW, MID, FAST, NR_TIERS };
static const char *const tier_name[] = { "slowest", "middle", "fastest" };

struct tiers {
	int cpu[NR_TIERS];		/* one CPU of each tier */
	unsigned long cap[NR_TIERS];
};

/* Three capacity tiers, read from sysfs. */
static void get_tiers(struct tiers *t)
{
	t->cpu[SLOW] = sl_slowest_cpu();
	t->cpu[FAST] = sl_fastest_cpu();
	t->cpu[MID] = -1;
	for (int i = 0, n = sl_nr_cpus(); i < n; i++) {
		unsigned long c = sl_cpu_capacity(i);

		if (c > sl_cpu_capacity(t->cpu[SLOW]) && c < sl_cpu_capacity(t->cpu[FAST]) &&
		    (t->cpu[MID] < 0 || c < sl_cpu_capacity(t->cpu[MID])))
			t->cpu[MID] = i;
	}
	ck_assert_msg(t->cpu[MID] >= 0,
		      "this test needs three capacity tiers (TOPOLOGY=three-tier), the CPUs have only %lu and %lu",
		      sl_cpu_capacity(t->cpu[SLOW]), sl_cpu_capacity(t->cpu[FAST]));
	for (int i = 0; i < NR_TIERS; i++)
		t->cap[i] = sl_cpu_capacity(t->cpu[i]);
}

/* Demands, in capacity units, between (or at) the tiers. */
enum demand {
	SMALL,		/* well below the slowest tier */
	MEDIUM,		/* between the slowest and the middle tier */
	LARGE,		/* between the middle and the fastest tier */
	AT_MID,		/* exactly the middle tier's capacity */
	ABOVE_MID,	/* one unit more */
	BELOW_MID,	/* 2% less */
};

static unsigned long demand_of(enum demand d, const struct tiers *t)
{
	switch (d) {
	case SMALL:
		return t->cap[SLOW] * 6 / 10;
	case MEDIUM:
		return (t->cap[SLOW] + t->cap[MID]) / 2;
	case LARGE:
		return t->cap[MID] + (t->cap[FAST] - t->cap[MID]) / 5;
	case AT_MID:
		return t->cap[MID];
	case ABOVE_MID:
		return t->cap[MID] + 1;
	default:
		return t->cap[MID] * 49 / 50;
	}
}

/*
 * The smallest runtime whose demand over @deadline is @cap: the kernel's
 * (runtime << 20) / deadline >> 10 is then exactly @cap.
 */
static uint64_t runtime_for(unsigned long cap, uint64_t deadline)
{
	return (deadline * cap + SL_CAPACITY_SCALE - 1) / SL_CAPACITY_SCALE;
}

/* One placement test: a task, the CPUs it may use, the busy ones. */
struct fit_case {
	enum tier start;		/* where it becomes SCHED_DEADLINE */
	enum demand demand;
	uint64_t deadline, period;	/* 0: DEADLINE */
	unsigned int sleep_us;		/* 0: SLEEP_US */
	unsigned int partition;		/* tiers (bits) of a cpuset partition */
	unsigned int busy;		/* tiers (bits) kept busy */
	enum tier expect;		/* where every wakeup must run */
	const char *why;
};

#define BIT(t)	(1U << (t))

/* The placement trace (the report's timeline) of the task and the hogs. */
static void dump_trace(pid_t task, const pid_t *hogs, int n)
{
	pid_t pids[SL_MAX_CPUS + 1] = { task };

	if (n)
		memcpy(pids + 1, hogs, n * sizeof(*hogs));
	sl_trace_dump(tcase_name(), pids, n + 1);
}

/*
 * After a test, and before one (a failed test skips its own clean-up):
 * once the test's tasks have given their bandwidth back (at their 0-lag
 * time), no partition.  In that order: 6.1 rebuilds a root domain's
 * bandwidth from the deadline tasks alive, and one that gives its own
 * back afterwards makes the sum negative.
 */
static void cleanup(void)
{
	sl_wait_dl_idle();
	sl_partition_remove(PARTITION);
}

/*
 * One run of a case: the partition and the hogs it asks for, and the task;
 * traced for the report's timeline unless @untraced (a random scenario's
 * tasks, one after the other, would share one timeline).
 */
static void run_once(const struct fit_case *fc, const struct tiers *t, struct pl_spec *spec,
		     const char *cpus, struct pl_result *res, int untraced)
{
	pid_t hog_pids[SL_MAX_CPUS];
	struct sl_hogs h = { .n = 0 };
	int traced, nhogs;
	pid_t pid;

	if (fc->partition) {
		sl_partition_make(PARTITION, cpus);
		spec->cgroup = PARTITION;
	}
	traced = !untraced && sl_trace_start() == 0;
	for (int i = 0; i < NR_TIERS; i++)
		if (fc->busy & BIT(i))
			sl_hogs_start(&h, t->cap[i]);
	pl_run(spec, res, &pid);
	for (nhogs = 0; nhogs < h.n; nhogs++)
		hog_pids[nhogs] = h.c[nhogs].pid;
	sl_hogs_stop(&h);
	if (traced)
		dump_trace(pid, hog_pids, nhogs);
	cleanup();
}

/*
 * A case's partition as a cpuset list ("0,2", empty if none) in @cpus and
 * its busy tiers in words ("middle and fastest") in @busy, NAMES_LEN bytes
 * each.
 */
#define NAMES_LEN	32

static void case_names(const struct fit_case *fc, const struct tiers *t, char *cpus, char *busy)
{
	*cpus = *busy = '\0';
	for (int i = 0; i < NR_TIERS; i++) {
		if (fc->partition & BIT(i))
			snprintf(cpus + strlen(cpus), NAMES_LEN - strlen(cpus), "%s%d", *cpus ? "," : "",
				 t->cpu[i]);
		if (fc->busy & BIT(i))
			snprintf(busy + strlen(busy), NAMES_LEN - strlen(busy), "%s%s", *busy ? " and " : "",
				 tier_name[i]);
	}
}

/*
 * Every wakeup placed on the task's static demand (pl_static_wakeup())
 * must be on the expected CPU.  Almost all are; when a host stalled the
 * emulated CPUs so much that none of a run's was, the run is repeated.
 */
#define RUNS	3

static void run_case(const struct fit_case *fc)
{
	struct pl_spec spec = { .wakeups = WAKEUPS };
	char cpus[NAMES_LEN], busy[NAMES_LEN], expected[48];
	int want, counted = 0, run;
	struct pl_result res;
	unsigned long demand;
	struct tiers t;

	get_tiers(&t);
	spec.start_cpu = t.cpu[fc->start];
	spec.dl.deadline = fc->deadline ?: DEADLINE;
	spec.dl.period = fc->period ?: spec.dl.deadline;
	spec.dl.runtime = runtime_for(demand_of(fc->demand, &t), spec.dl.deadline);
	spec.sleep_us = fc->sleep_us ?: SLEEP_US;
	demand = sl_dl_demand(&spec.dl);
	case_names(fc, &t, cpus, busy);
	/* In a partition there is one CPU of each tier: that one. */
	want = t.cpu[fc->expect];
	if (fc->partition)
		snprintf(expected, sizeof(expected), "CPU %d of capacity %lu", want,
			 t.cap[fc->expect]);
	else
		snprintf(expected, sizeof(expected), "a CPU of capacity %lu", t.cap[fc->expect]);

	for (run = 1; run <= RUNS && !counted; run++) {
		run_once(fc, &t, &spec, cpus, &res, 0);
		for (int i = 0; i < res.n; i++) {
			unsigned long got = sl_cpu_capacity(res.cpu[i]);

			if (!pl_static_wakeup(&spec, &res, i))
				continue;
			counted++;
			ck_assert_msg(fc->partition ? res.cpu[i] == want : got == t.cap[fc->expect],
				      "wakeup %d of %d: the task (demand %lu: %.1f/%.0f ms, period %.0f ms, sleeping %.0f ms; started on CPU %d%s%s%s%s%s) ran on CPU %d of capacity %lu; expected %s: %s",
				      i + 1, res.n, demand, spec.dl.runtime / 1e6,
				      spec.dl.deadline / 1e6, spec.dl.period / 1e6,
				      spec.sleep_us / 1e3, spec.start_cpu,
				      *cpus ? ", in a partition of CPUs " : "", cpus,
				      *busy ? "; the " : "", busy, *busy ? " CPUs busy" : "",
				      res.cpu[i], got, expected, fc->why);
		}
	}
	ck_assert_msg(counted,
		      "inconclusive: in %d runs of %d wakeups the task never woke up into a new instance (its runtime ran out while the emulated CPU stalled, every time); the machine is too slow for this test",
		      RUNS, WAKEUPS);
}

#define FIT_TEST(name, ...)						\
	static const struct fit_case name##_case = { __VA_ARGS__ };	\
	START_TEST(name) { run_case(&name##_case); } END_TEST

FIT_TEST(test_big_task_wakes_on_big_cpu,
	 .start = SLOW, .demand = LARGE, .expect = FAST,
	 .why = "only the fastest CPUs fit it, and they are free")

FIT_TEST(test_small_task_wakes_on_slowest_cpu,
	 .start = FAST, .demand = SMALL, .expect = SLOW,
	 .why = "every CPU fits it and a free CPU of the slowest tier is the best fit")

FIT_TEST(test_medium_task_wakes_on_slowest_fitting_cpu,
	 .start = FAST, .demand = MEDIUM, .expect = MID,
	 .why = "the slowest CPUs do not fit it; of those that do, the middle tier is the slowest")

/* A partition of a slow and a middle CPU: nothing fits, the faster one. */
FIT_TEST(test_misfit_task_wakes_on_fastest_cpu_of_mask,
	 .start = SLOW, .demand = LARGE, .partition = BIT(SLOW) | BIT(MID), .expect = MID,
	 .why = "no CPU of its cpuset partition fits it, so the fastest of them")

/* A partition of a slow and a big CPU: the slowest that fits is outside. */
FIT_TEST(test_placement_respects_affinity,
	 .start = SLOW, .demand = MEDIUM, .partition = BIT(SLOW) | BIT(FAST), .expect = FAST,
	 .why = "of the CPUs of its cpuset partition only this one fits it")

FIT_TEST(test_demand_equal_to_capacity_fits,
	 .start = SLOW, .demand = AT_MID, .expect = MID,
	 .why = "a demand equal to a CPU's capacity fits that CPU")

FIT_TEST(test_demand_above_capacity_does_not_fit,
	 .start = SLOW, .demand = ABOVE_MID, .expect = FAST,
	 .why = "a demand one unit above the middle tier's capacity does not fit it")

/*
 * runtime 60% of its 20 ms deadline, but 24% of its 50 ms period.  (A task
 * with a deadline shorter than its period that wakes up after its deadline
 * but before its next period waits for that period: it sleeps 53 ms.)
 */
FIT_TEST(test_fit_judged_on_deadline_not_period,
	 .start = SLOW, .demand = LARGE, .period = 50 * NSEC_PER_MSEC, .sleep_us = 53000,
	 .expect = FAST,
	 .why = "the demand is runtime / deadline, not runtime / period")

/* The middle CPU busy: the slowest free CPU that fits is a fast one. */
FIT_TEST(test_slowest_free_cpu_that_fits,
	 .start = SLOW, .demand = MEDIUM, .busy = BIT(MID), .expect = FAST,
	 .why = "the middle tier is busy with another deadline task, so the slowest free CPU that fits is a fast one")

/* Both fast CPUs busy: nothing free fits, the fastest free one. */
FIT_TEST(test_fastest_free_cpu_when_fitting_ones_busy,
	 .start = SLOW, .demand = LARGE, .period = 50 * NSEC_PER_MSEC, .sleep_us = 53000,
	 .busy = BIT(FAST), .expect = MID,
	 .why = "the CPUs that fit it are busy with other deadline tasks, so the fastest free one")

/*
 * Woken 10 ms into a 100 ms instance with nearly all its runtime left,
 * the task needs more now (49 ms in 90: 557) than its parameters say
 * (501): the higher remaining demand does not count.  (The kernel gives
 * the task a new instance at such a wakeup, which is how the test knows
 * the remaining demand was the higher one.)
 */
FIT_TEST(test_remaining_demand_higher_judged_statically,
	 .start = FAST, .demand = BELOW_MID, .deadline = 100 * NSEC_PER_MSEC,
	 .sleep_us = 10000, .expect = MID,
	 .why = "its remaining runtime over the time to its deadline is higher than runtime / deadline, so runtime / deadline is its demand")

/*
 * A task late in its runtime with its deadline far ahead fits a slower CPU
 * than its parameters say.  The task (runtime 70% of a 350 ms deadline:
 * demand 716, only the fastest tier) spins on a fast CPU until @left of
 * its runtime is left, then sleeps 1 ms: it wakes up with about @left of
 * runtime and the rest of its deadline to go, a lower demand.  With 10 ms
 * left (235 ms spun), about 110 ms to go: a demand near 93, the slowest
 * tier (while 40 ms or more are left, room for the wakeup to come 70 ms
 * late).  With 60 ms left (185 ms spun), about 160 ms to go: a demand near
 * 384, the middle tier (while 120 ms or more are left), where runtime over
 * the relative deadline (60 in 350: 176) would be the slowest.  10 ms is
 * twice what the task's longest read of /proc/self/sched took under
 * emulation (placement.h), so it does not run out before the sleep.  The
 * deadline is no longer than that needs: the test lasts until the task's
 * 0-lag time, about its deadline.
 *
 * The remaining demand at the wakeup is bounded from the task's own
 * /proc/self/sched read right before the sleep (placement.h): its runtime
 * then (which can only have gone down since, by at most READ_MS) and its
 * deadline; from above with the time it ran again after the wakeup (the
 * wakeup was placed before), from below with the earliest the wakeup can
 * have come: the instance's start, plus the runtime used, plus the sleep.
 * A round counts when its wakeup kept that deadline (no replenishment in
 * between: the remaining demand was the one used, and the lower one) and
 * both bounds are within the expected tier; a host stalling the emulated
 * CPU can make a round not count, never wrong.  Three rounds at most.
 */
#define ROUNDS		3
#define LONG_DEADLINE	(350 * NSEC_PER_MSEC)
#define READ_MS		5

/* The slowest tier whose capacity is at least @demand (FAST if none). */
static enum tier fitting(const struct tiers *t, double demand)
{
	for (int i = SLOW; i < FAST; i++)
		if (t->cap[i] >= demand)
			return i;
	return FAST;
}

static void remaining_demand_lower(unsigned long long left, enum tier expect)
{
	struct pl_spec spec = { .wakeups = 1, .sleep_us = 1000 };
	double lo = 0, hi = 0, left_ms = 0;
	struct pl_result res;
	int traced, round;
	struct tiers t;
	pid_t pid;

	get_tiers(&t);
	spec.start_cpu = t.cpu[FAST];
	spec.dl = (struct sl_dl){ LONG_DEADLINE * 7 / 10, LONG_DEADLINE, LONG_DEADLINE };
	spec.spin_us = (spec.dl.runtime - left) / NSEC_PER_USEC;
	ck_assert_msg(fitting(&t, sl_dl_demand(&spec.dl)) == FAST,
		      "the task's demand %lu fits a slower tier: this test needs a 1024 tier above 716",
		      sl_dl_demand(&spec.dl));
	for (round = 1; round <= ROUNDS; round++) {
		double placed, earliest, runtime;

		traced = sl_trace_start() == 0;
		pl_run(&spec, &res, &pid);
		if (traced)
			dump_trace(pid, NULL, 0);
		cleanup();
		runtime = res.dl[0].runtime;
		/* Placed before it ran again: before woke_ms + 1 ms (whole ms). */
		placed = (res.dl[0].woke_ms + 1) * 1e6;
		earliest = res.dl[0].deadline - spec.dl.deadline + (spec.dl.runtime - runtime) +
			   spec.sleep_us * 1e3;
		left_ms = (res.dl[0].deadline - placed) / 1e6;
		if (res.dl[0].deadline_after != res.dl[0].deadline || left_ms <= 0)
			continue;
		hi = runtime / (res.dl[0].deadline - placed) * SL_CAPACITY_SCALE;
		lo = (runtime - READ_MS * 1e6) / (res.dl[0].deadline - earliest) * SL_CAPACITY_SCALE;
		if (fitting(&t, hi) == expect && fitting(&t, lo) == expect)
			break;
	}
	ck_assert_msg(round <= ROUNDS,
		      "inconclusive: in %d rounds the task never woke up with a remaining demand known to fit the %lu tier alone (last: between %.0f and %.0f, with %.1f ms of runtime and %.0f ms to its deadline); the machine is too slow for this test",
		      ROUNDS, t.cap[expect], lo, hi, res.dl[0].runtime / 1e6, left_ms);
	ck_assert_msg(sl_cpu_capacity(res.cpu[0]) == t.cap[expect],
		      "the task (runtime %.0f of deadline %.0f ms: demand %lu) ran on CPU %d, slept and woke up with at most %.1f ms of runtime left and at least %.0f ms to its deadline (a demand between %.0f and %.0f), then ran on CPU %d of capacity %lu; expected a CPU of capacity %lu: its remaining runtime over the time to its deadline is lower than runtime / deadline, so that is its demand",
		      spec.dl.runtime / 1e6, spec.dl.deadline / 1e6, sl_dl_demand(&spec.dl),
		      spec.start_cpu, res.dl[0].runtime / 1e6, left_ms, lo, hi, res.cpu[0],
		      sl_cpu_capacity(res.cpu[0]), t.cap[expect]);
}

START_TEST(test_remaining_demand_lower_fits_slower_cpu)
{
	remaining_demand_lower(10 * NSEC_PER_MSEC, SLOW);
}
END_TEST

START_TEST(test_remaining_demand_over_time_left)
{
	remaining_demand_lower(60 * NSEC_PER_MSEC, MID);
}
END_TEST

/*
 * The rules against a model, on a seeded random scenario (sl_seed()):
 * RANDOM_TASKS tasks one after the other, each with a random demand (100
 * to 1000: a runtime of 2 ms or more, which the task's own reads of
 * /proc/self/sched do not use up, placement.h), either with a random set
 * of tiers kept busy by deadline hogs or in a cpuset partition of two or
 * three tiers (one CPU each), started on a free CPU of a tier the model
 * does not choose, sleeping and waking up once.  A wakeup placed on the
 * task's static demand must be on a CPU of the capacity the model gives:
 * of the free CPUs the task may use, the slowest of those that fit it;
 * when none does, the fastest.  A draw that leaves one tier to choose
 * from tests no choice and is drawn again.  The period is drawn from 1,
 * 1.5 or 2 deadlines (the demand is still runtime / deadline), longer
 * when the hogs (a whole CPU each) and the task would not be admitted with
 * a margin under either admission rule (lab 1's capacities, or 6.1's
 * count of CPUs); each sleep outlasts it, so the wakeup starts a new
 * instance.
 */
#define RANDOM_TASKS	5

/*
 * The CPUs (bit N: CPU N) of the tiers @tiers: in a partition one CPU of
 * each (run_case()'s), else every CPU of their capacities.
 */
static unsigned int cpus_of(const struct tiers *t, unsigned int tiers, int partition)
{
	unsigned int cpus = 0;

	for (int i = 0; i < sl_nr_cpus(); i++)
		for (int k = SLOW; k < NR_TIERS; k++)
			if ((tiers & BIT(k)) && sl_cpu_capacity(i) == t->cap[k] &&
			    (!partition || i == t->cpu[k]))
				cpus |= 1U << i;
	return cpus;
}

/* The tier a task of @demand wakes up on, of the free tiers @free. */
static enum tier model_tier(const struct tiers *t, unsigned int free, int partition,
			    unsigned long demand)
{
	unsigned long cap = sl_dl_offered(demand, cpus_of(t, free, partition));
	int i;

	for (i = SLOW; t->cap[i] != cap; i++)
		;
	return i;
}

/* Draw one task of the scenario: its case (partition, busy, start) and spec. */
static void draw_task(const struct tiers *t, struct fit_case *fc, struct pl_spec *spec)
{
	/* The busy sets whose hogs leave room: a hog a CPU, 2 on FAST. */
	static const unsigned int busy_sets[] = {
		0, BIT(SLOW), BIT(MID), BIT(FAST), BIT(SLOW) | BIT(MID),
	};
	unsigned int free, all = BIT(SLOW) | BIT(MID) | BIT(FAST), allowed;
	unsigned long demand, cap_sum = 0;
	double room, bw;
	int n;

	do {
		memset(fc, 0, sizeof(*fc));
		if (sl_rand(3) == 0) {
			fc->partition = all;
			fc->partition &= ~(sl_rand(4) < 3 ? BIT(sl_rand(NR_TIERS)) : 0);
			free = fc->partition;
		} else {
			fc->busy = busy_sets[sl_rand(sizeof(busy_sets) / sizeof(busy_sets[0]))];
			free = ~fc->busy & all;
		}
		demand = 100 + sl_rand(901);
		fc->expect = model_tier(t, free, !!fc->partition, demand);
		free &= ~BIT(fc->expect);
	} while (!free);
	/* Start on another free tier, drawn. */
	n = __builtin_popcount(free);
	for (fc->start = SLOW, n = sl_rand(n); !(free & BIT(fc->start)) || n--; fc->start++)
		;

	allowed = cpus_of(t, fc->partition ?: all, !!fc->partition);
	for (int i = 0; i < sl_nr_cpus(); i++)
		if (allowed & (1U << i))
			cap_sum += sl_cpu_capacity(i);
	/* 90% of the smaller of the two rules' limits (95% of the capacity). */
	room = 0.9 * 0.95 * cap_sum / SL_CAPACITY_SCALE -
	       __builtin_popcount(cpus_of(t, fc->busy, 0));	/* a hog a CPU */
	memset(spec, 0, sizeof(*spec));
	spec->wakeups = 1;
	spec->start_cpu = t->cpu[fc->start];
	spec->dl.deadline = DEADLINE;
	spec->dl.runtime = runtime_for(demand, DEADLINE);
	/* A period of 1, 1.5 or 2 deadlines, longer when admission needs it. */
	spec->dl.period = DEADLINE * (2 + sl_rand(3)) / 2;
	bw = (double)spec->dl.runtime / spec->dl.period;
	if (bw > room)
		spec->dl.period = (uint64_t)(bw / room * spec->dl.period / NSEC_PER_MSEC + 1) *
				  NSEC_PER_MSEC;
	spec->sleep_us = spec->dl.period / NSEC_PER_USEC + 2000;
	fc->period = spec->dl.period;
	fc->sleep_us = spec->sleep_us;
}

START_TEST(test_random_scenarios)
{
	char cpus[NAMES_LEN], busy[NAMES_LEN], what[160];
	struct pl_result res;
	struct pl_spec spec;
	struct fit_case fc;
	int counted = 0;
	struct tiers t;

	get_tiers(&t);
	sl_seed();
	for (int task = 1; task <= RANDOM_TASKS; task++) {
		draw_task(&t, &fc, &spec);
		case_names(&fc, &t, cpus, busy);
		snprintf(what, sizeof(what),
			 "task %d: demand %lu (%.2f of %.0f ms, period %.0f ms), started on CPU %d, %s%s%s",
			 task, sl_dl_demand(&spec.dl), spec.dl.runtime / 1e6, spec.dl.deadline / 1e6,
			 spec.dl.period / 1e6, spec.start_cpu,
			 *cpus ? "in a partition of CPUs " : *busy ? "the " : "no CPU busy",
			 *cpus ? cpus : busy, *cpus || !*busy ? "" : " CPUs busy");
		sl_step("%s", what);
		run_once(&fc, &t, &spec, cpus, &res, 1);
		/* Each hog moved the test off its CPU: every CPU again. */
		ck_assert_int_eq(sl_unpin(0), 0);
		for (int i = 0; i < res.n; i++) {
			int cpu = res.cpu[i];

			if (!pl_static_wakeup(&spec, &res, i))
				continue;
			counted++;
			ck_assert_msg(sl_cpu_capacity(cpu) == t.cap[fc.expect] &&
				      (!fc.partition || cpu == t.cpu[fc.expect]),
				      "wakeup %d of %d: the task ran on CPU %d of capacity %lu; expected %s%d of capacity %lu: of the free CPUs it may use, the slowest that fits it, or the fastest when none does; %s",
				      i + 1, res.n, cpu, sl_cpu_capacity(cpu),
				      fc.partition ? "CPU " : "a CPU like CPU ", t.cpu[fc.expect],
				      t.cap[fc.expect], sl_scenario("test_random_scenarios"));
		}
	}
	ck_assert_msg(counted,
		      "inconclusive: none of the %d tasks woke up into a new instance (each one's runtime ran out while the emulated CPU stalled); the machine is too slow for this test; %s",
		      RANDOM_TASKS, sl_scenario("test_random_scenarios"));
}
END_TEST

Suite *lab_suite(void)
{
	Suite *s = sl_suite("lab02", cleanup, NULL);

	sl_add_test(s, test_big_task_wakes_on_big_cpu);
	sl_add_test(s, test_small_task_wakes_on_slowest_cpu);
	sl_add_test(s, test_medium_task_wakes_on_slowest_fitting_cpu);
	sl_add_test(s, test_misfit_task_wakes_on_fastest_cpu_of_mask);
	sl_add_test(s, test_placement_respects_affinity);
	sl_add_test(s, test_demand_equal_to_capacity_fits);
	sl_add_test(s, test_demand_above_capacity_does_not_fit);
	sl_add_test(s, test_fit_judged_on_deadline_not_period);
	sl_add_test(s, test_slowest_free_cpu_that_fits);
	sl_add_test(s, test_fastest_free_cpu_when_fitting_ones_busy);
	sl_add_test(s, test_remaining_demand_higher_judged_statically);
	sl_add_test(s, test_remaining_demand_lower_fits_slower_cpu);
	sl_add_test(s, test_remaining_demand_over_time_left);
	sl_add_test(s, test_random_scenarios);
	return s;
}
