/* SPDX-License-Identifier: GPL-2.0 */
/*
 * deadline.h - SCHED_DEADLINE tasks under test: their demand and
 * bandwidth in the kernel's own arithmetic, the CPUs by capacity, test
 * children that become SCHED_DEADLINE on a chosen CPU, and the kit's view
 * of every CPU's deadline bandwidth.
 */
#ifndef SCHEDLAB_DEADLINE_H
#define SCHEDLAB_DEADLINE_H

#include "schedlab.h"
#include "task.h"

/* Bandwidths are fixed point, as in the kernel: SL_BW_UNIT is a whole CPU. */
#define SL_BW_SHIFT	20
#define SL_BW_UNIT	(1ULL << SL_BW_SHIFT)

/* A task's SCHED_DEADLINE parameters, in ns. */
struct sl_dl {
	uint64_t runtime, deadline, period;
};

/* The kernel's to_ratio(): @runtime / @period in SL_BW_SHIFT fixed point. */
uint64_t sl_to_ratio(uint64_t period, uint64_t runtime);
/* A task's bandwidth (runtime / period), what admission control adds up. */
uint64_t sl_dl_bw(const struct sl_dl *dl);
/*
 * The capacity a task needs (1024: a biggest CPU), runtime / deadline, as
 * dl_task_fits_capacity() computes it from dl_density.
 */
unsigned long sl_dl_demand(const struct sl_dl *dl);

/* CPU numbers by capacity: the slowest (the lowest number on a tie) and a
 * fastest (the highest number on a tie). */
int sl_slowest_cpu(void);
int sl_fastest_cpu(void);
/*
 * The capacity of the CPU that lab 2's rule (find_later_rq() through
 * cpudl_find()) offers a deadline task of @demand, of the free CPUs
 * @free_cpus (bit N: CPU N): the slowest that fits it, or the fastest
 * when none does; 0 when none is free.  The random scenarios' model.
 */
unsigned long sl_dl_offered(unsigned long demand, unsigned int free_cpus);

/*
 * In a test child (task.h): join cgroup @grp (unless NULL), run on @cpu,
 * widen the affinity to every CPU again (a SCHED_DEADLINE task may not be
 * restricted within its root domain; the cpuset still holds it), become
 * SCHED_DEADLINE with @dl and check it is still on @cpu.  The child is
 * SCHED_FIFO in between, which the load balancer never moves.  A failed
 * step ends the child with sl_child_fail().
 */
void sl_child_become_dl(const char *grp, int cpu, const struct sl_dl *dl);

/*
 * A SCHED_DEADLINE @dl task that spins on @cpu, never blocking, until
 * sl_child_kill(@c); returns once it is SCHED_DEADLINE there.  With
 * runtime = deadline = period it keeps its CPU busy (out of the free CPUs
 * of cpudl_find()) for a whole period.
 */
void sl_dl_spinner(struct sl_child *c, int cpu, const struct sl_dl *dl);

/*
 * The caller stops using @cpu (its affinity loses it): a fair task there
 * would starve behind a deadline task that keeps the CPU busy, or, crowding
 * a little CPU, bring the fair class's active balancing (the stopper
 * thread) to preempt a deadline task under test.
 */
void sl_avoid_cpu(int cpu);

/*
 * A spinner (as above) that keeps @cpu out of the free CPUs for seconds:
 * a whole CPU (runtime = deadline = period) for a 2 s period (the
 * kernel's 0-lag arithmetic, runtime x period in 64 bits, overflows
 * beyond 3 s).  The caller stops using @cpu first (sl_avoid_cpu()).
 */
void sl_dl_hog(struct sl_child *c, int cpu);

/*
 * The kit's debugfs file (instrumentation of lab 1): for every possible
 * CPU, its dl_rq's running_bw and this_bw, the total_bw admitted in its
 * root domain, that domain's CPUs, and the capacity the load balancer
 * last left the fair class on the CPU (capacity_of(): less RT, deadline
 * and IRQ pressure).  sl_read_dl_bw() fills @bw (one entry a CPU, by
 * number) and returns how many CPUs it read.
 */
#define SL_DL_BW_FILE	"/sys/kernel/debug/schedlab/dl"
struct sl_dl_bw {
	uint64_t running_bw, this_bw, total_bw;
	char span[32];
	unsigned long capacity;
};
/* Fails the test itself when the file cannot be read or parsed. */
int sl_read_dl_bw(struct sl_dl_bw bw[SL_MAX_CPUS]);

/*
 * Hogs (sl_dl_hog()) on every CPU of capacity @cap, and their end.  Start
 * any tracing (trace.h) first: enabling trace events waits for work on
 * every CPU, which a CPU kept busy by a deadline task never gets to.
 */
struct sl_hogs {
	struct sl_child c[SL_MAX_CPUS];
	int n;
};
void sl_hogs_start(struct sl_hogs *h, unsigned long cap);
void sl_hogs_stop(struct sl_hogs *h);

/*
 * Wait until the runqueue of the CPU task @pid is on holds @bw as both its
 * running_bw and its this_bw, and every other CPU none (@pid 0: none
 * anywhere, and no root domain admits any bandwidth either).  A task that
 * exits or leaves SCHED_DEADLINE gives its bandwidth back at its 0-lag
 * time, within a period; this polls every ms and gives up after
 * SL_DL_IDLE_MS, twenty periods of the tests' 100 ms tasks and one of the
 * 2 s hogs (whose 0-lag time, at a kill, is no later than the kill):
 * only a kernel that never gives the bandwidth back, or a guest stalled for
 * seconds, waits that long.  Returns -1 once it is so; otherwise the CPU
 * that is not, with @b as last read and *@cpu where the task was.
 */
#define SL_DL_IDLE_MS	2000
SL_MUST_CHECK int sl_dl_bw_settle(pid_t pid, uint64_t bw, struct sl_dl_bw b[SL_MAX_CPUS], int *cpu);
/* The same with no task, failing the test after SL_DL_IDLE_MS. */
void sl_wait_dl_idle(void);

#endif /* SCHEDLAB_DEADLINE_H */
