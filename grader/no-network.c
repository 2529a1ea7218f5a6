// SPDX-License-Identifier: GPL-2.0
/*
 * no-network CMD [ARG...]: run CMD, and everything it starts, unable to
 * open a network socket: a seccomp filter (kept across fork and execve)
 * fails socket() for every address family but AF_UNIX with EACCES, and
 * io_uring_setup() (whose requests can open sockets) with ENOSYS.
 *
 * The sandbox's "uid" isolation (sandbox.sh) runs a submission's stages
 * through it where no network namespace can be made (an unprivileged
 * container): what bubblewrap's empty network namespace does elsewhere.
 * It needs no privilege (PR_SET_NO_NEW_PRIVS first), and Docker's and
 * podman's default seccomp profiles allow it.  A system call made through
 * another ABI than the program's own (i386 or x32 on x86_64, arm32 on
 * arm64) fails with ENOSYS: nothing the kit runs uses one.  If the filter
 * cannot be installed, CMD is not run (exit 126).
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "no-network: add this architecture's AUDIT_ARCH_"
#endif
/* x32 system calls have this bit set in their number on x86_64. */
#define X32_SYSCALL_BIT 0x40000000

#define ARG0_LOW offsetof(struct seccomp_data, args[0])

int main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* socket(domain, ...): the domain is an int, the low word. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (argc < 2) {
		fprintf(stderr, "usage: no-network CMD [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("no-network: cannot install the seccomp filter");
		return 126;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-network: cannot run ");
	perror(argv[1]);
	return 127;
}
