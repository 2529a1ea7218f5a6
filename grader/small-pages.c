// SPDX-License-Identifier: GPL-2.0
/*
 * small-pages CMD [ARG...]: run CMD with transparent huge pages off for it
 * and its children (prctl PR_SET_THP_DISABLE, kept across execve).
 *
 * Every boot runs QEMU through it (lib.sh's qemu_argv).  QEMU asks for
 * huge pages for the guest's RAM and for its translated code.  On a
 * virtual machine whose hypervisor takes free memory back (free page
 * reporting), a free huge page is the kind it takes, and each one QEMU
 * touches first comes back from the hypervisor, 4 KiB at a time: a boot
 * right after a kernel build spent 0.7-0.8 s more of system time in QEMU
 * (lab 1's boot 2.5-2.8 s, with small pages 1.9 s).  Where the prctl fails
 * (a kernel older than 3.15) CMD runs as it is, only slower.
 */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: small-pages CMD [ARG...]\n");
		return 2;
	}
	prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "small-pages: cannot run ");
	perror(argv[1]);
	return 127;
}
