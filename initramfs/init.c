// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - the guest's init: mount what the tests need, run the selected
 * labs' Check suites one after the other in this one boot, power off.
 *
 * Two channels, so that the kernel cannot pass its output off as the tests':
 *
 *   /dev/hvc0, a virtio console the kernel's printk never writes to: every
 *	line the suites print, behind this run's results marker MARK
 *	("MARK BEGIN 01", "MARK <Check's line>", ..., "MARK END 01", "MARK
 *	DONE");
 *   the console (ttyAMA0, shared with printk): "schedlab: CMARK begin 01"
 *	and "... end 01" around each suite, so that the grader can tell which
 *	lab a kernel splat happened in, and "schedlab: CMARK done" at the end.
 *
 * The settings come from /etc/schedlab.conf, a tiny archive the grader
 * makes for each boot (KEY=value lines: LABS="01 02", MARK, CMARK, TEST);
 * the file is removed once read, and nothing secret is ever in a command
 * line.  With TEST set, only that test runs (Check's CK_RUN_CASE).  With
 * SHELL=script (make shell's archive, which has no marks), the file stays
 * and the script is run instead of the suites, in the same mounts and
 * environment as the suites.
 *
 * A C program rather than a shell script: under emulation every fork and
 * exec of busybox costs tens of milliseconds, and a boot should cost about
 * a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONF "/etc/schedlab.conf"

static char lab_list[256], mark[64], cmark[64], test[128], shell[64];
static FILE *results;

static void console(const char *what, const char *arg)
{
	printf("schedlab: %s %s%s%s\n", cmark, what, arg ? " " : "", arg ? arg : "");
	fflush(stdout);
}

static void result(const char *line)
{
	fprintf(results, "%s %s\n", mark, line);
	fflush(results);
}

static void power_off(void)
{
	fflush(NULL);
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

static void mount_fs(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		fprintf(stderr, "init: cannot mount %s on %s: %m\n", type, dir);
}

/* KEY="value" or KEY=value into @val (size @n). */
static void conf_value(const char *line, const char *key, char *val, size_t n)
{
	size_t len = strlen(key);
	const char *v = line + len + 1;

	if (strncmp(line, key, len) || line[len] != '=')
		return;
	snprintf(val, n, "%s", v + (*v == '"'));
	val[strcspn(val, "\"\n")] = '\0';
}

static void read_conf(void)
{
	char line[512];
	FILE *f = fopen(CONF, "r");

	if (!f) {
		printf("init: no %s\n", CONF);
		power_off();
	}
	while (fgets(line, sizeof(line), f)) {
		conf_value(line, "LABS", lab_list, sizeof(lab_list));
		conf_value(line, "MARK", mark, sizeof(mark));
		conf_value(line, "CMARK", cmark, sizeof(cmark));
		conf_value(line, "TEST", test, sizeof(test));
		conf_value(line, "SHELL", shell, sizeof(shell));
	}
	fclose(f);
	if (!shell[0])
		unlink(CONF);
}

/* "BOOTED <capacity of each CPU>" */
static void booted(void)
{
	char line[256] = "BOOTED", path[80];
	glob_t g;

	if (!glob("/sys/devices/system/cpu/cpu[0-9]*/cpu_capacity", 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			FILE *f = fopen(g.gl_pathv[i], "r");
			long cap = -1;

			if (f && fscanf(f, "%ld", &cap) != 1)
				cap = -1;
			if (f)
				fclose(f);
			snprintf(path, sizeof(path), " %ld", cap);
			strncat(line, path, sizeof(line) - strlen(line) - 1);
		}
		globfree(&g);
	}
	result(line);
}

/* Run one suite, every line of its output (stdout and stderr) marked. */
static void suite(const char *name, const char *binary)
{
	char line[4096], begin[64];
	int fd[2];
	pid_t pid;
	FILE *out;

	console("begin", name);
	snprintf(begin, sizeof(begin), "BEGIN %s", name);
	result(begin);
	if (pipe(fd) == 0 && (pid = fork()) >= 0) {
		if (pid == 0) {
			dup2(fd[1], 1);
			dup2(fd[1], 2);
			close(fd[0]);
			close(fd[1]);
			if (chdir("/tmp"))
				_exit(127);
			execl(binary, binary, (char *)NULL);
			fprintf(stderr, "init: cannot run %s: %m\n", binary);
			_exit(127);
		}
		close(fd[1]);
		out = fdopen(fd[0], "r");
		while (out && fgets(line, sizeof(line), out)) {
			line[strcspn(line, "\n")] = '\0';
			result(line);
		}
		if (out)
			fclose(out);
		waitpid(pid, NULL, 0);
	}
	/* Orphans of the suite are this process's children now. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	snprintf(begin, sizeof(begin), "END %s", name);
	result(begin);
	console("end", name);
}

/*
 * The results channel.  Its virtio-serial port is added by the driver
 * from a work item once QEMU announces it, which under emulation may come
 * after init starts: until then opening it fails (ENODEV, or ENOENT before
 * the hvc driver exists).  Wait for it, at most 10 s.
 */
static FILE *open_results(void)
{
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen("/dev/hvc0", "w");

		if (f || (errno != ENODEV && errno != ENOENT))
			return f;
		usleep(10 * 1000);
	}
	return NULL;
}

int main(void)
{
	char *save = NULL, binary[64], name[16];

	mount_fs("proc", "/proc");
	mount_fs("sysfs", "/sys");
	mount_fs("devtmpfs", "/dev");
	mount_fs("debugfs", "/sys/kernel/debug");
	mount_fs("cgroup2", "/sys/fs/cgroup");
	mount_fs("tracefs", "/sys/kernel/tracing");
	mount_fs("tmpfs", "/tmp");
	read_conf();

	/* Check's per-test timeout: the guest runs under TCG emulation. */
	setenv("CK_DEFAULT_TIMEOUT", "60", 1);
	if (test[0])
		setenv("CK_RUN_CASE", test, 1);
	setenv("PATH", "/bin", 1);
	if (shell[0]) {
		execl(shell, shell, (char *)NULL);
		printf("init: cannot run %s: %m\n", shell);
		power_off();
	}

	results = open_results();
	if (!results) {
		console("no results channel (/dev/hvc0):", strerror(errno));
		power_off();
	}
	booted();
	for (char *lab = strtok_r(lab_list, " ", &save); lab; lab = strtok_r(NULL, " ", &save)) {
		snprintf(binary, sizeof(binary), "/tests/lab%s", lab);
		suite(lab, binary);
		/* An instructor's hidden tests of the lab, when the grader packed them. */
		snprintf(binary, sizeof(binary), "/tests/hidden%s", lab);
		snprintf(name, sizeof(name), "%sh", lab);
		if (!access(binary, X_OK))
			suite(name, binary);
	}
	result("DONE");
	console("done", NULL);
	power_off();
}
