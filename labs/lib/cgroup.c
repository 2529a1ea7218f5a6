// SPDX-License-Identifier: GPL-2.0
/* cgroup.c - cgroup v2 files and cpuset partitions; see cgroup.h. */
#include "cgroup.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void cg_path(char *path, size_t len, const char *grp, const char *file)
{
	snprintf(path, len, SL_CGROOT "%s%s/%s", *grp ? "/" : "", grp, file);
}

int sl_cg_try_write(const char *grp, const char *file, const char *val)
{
	char path[256];

	cg_path(path, sizeof(path), grp, file);
	return sl_write_str(path, val);
}

void sl_cg_write(const char *grp, const char *file, const char *val)
{
	char path[256];
	int ret;

	cg_path(path, sizeof(path), grp, file);
	ret = sl_write_str(path, val);
	ck_assert_msg(ret == 0, "writing '%s' to %s: %s", val, path, strerror(-ret));
}

int sl_cg_move(const char *grp, pid_t pid)
{
	char val[16];

	snprintf(val, sizeof(val), "%d", pid);
	return sl_cg_try_write(grp, "cgroup.procs", val);
}

void sl_partition_remove(const char *grp)
{
	char path[256];
	int ret = sl_cg_try_write(grp, "cpuset.cpus.partition", "member");

	/* No such group: nothing to undo. */
	ck_assert_msg(ret == 0 || ret == -ENOENT, "turning %s back into a member: %s",
		      grp, strerror(-ret));
	cg_path(path, sizeof(path), grp, "");
	rmdir(path);
}

void sl_partition_make(const char *grp, const char *cpus)
{
	char path[256], buf[64] = "";
	FILE *f;

	sl_partition_remove(grp);	/* left over by a failed test */
	sl_cg_write("", "cgroup.subtree_control", "+cpuset");
	cg_path(path, sizeof(path), grp, "");
	ck_assert_msg(mkdir(path, 0755) == 0, "mkdir %s: %s", path, strerror(errno));
	sl_cg_write(grp, "cpuset.cpus", cpus);
	sl_cg_write(grp, "cpuset.cpus.partition", "root");
	cg_path(path, sizeof(path), grp, "cpuset.cpus.partition");
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	ck_assert_msg(!strcmp(buf, "root"), "%s reads \"%s\", expected \"root\"",
		      path, buf);
}

char *sl_cg_read(const char *grp, const char *file, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	cg_path(path, sizeof(path), grp, file);
	f = fopen(path, "r");
	ck_assert_msg(f, "cannot open %s", path);
	ck_assert_msg(fgets(buf, len, f), "cannot read %s", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

void sl_cg_mkdir(const char *grp)
{
	char path[256];

	cg_path(path, sizeof(path), grp, "");
	ck_assert_msg(!mkdir(path, 0755) || errno == EEXIST, "mkdir %s: %s",
		      path, strerror(errno));
}

void sl_cg_enable(const char *grp, const char *ctrl)
{
	char v[32];

	snprintf(v, sizeof(v), "+%s", ctrl);
	sl_cg_write(grp, "cgroup.subtree_control", v);
}

void sl_cg_join(const char *grp, pid_t pid)
{
	int ret = sl_cg_move(grp, pid);

	ck_assert_msg(ret == 0, "moving task %d into %s/%s: %s", pid, SL_CGROOT,
		      grp, strerror(-ret));
}
