#!/bin/bash
# Stage 0 of grading: make this machine able to build and boot lab kernels,
# and prove it.
#
#   - installs the Debian packages the kit needs (only the missing ones;
#     with sudo when not root).  Each is named: Debian's "recommends" of
#     the cross compiler and of QEMU are not installed with them;
#   - fetches the guest's arm64 userland (ARM64_PKGS) with apt-get into
#     a private package list and unpacks it into a sysroot under $BUILD; it
#     is never installed system-wide (the arm64 busybox-static would replace
#     the host's busybox), and the host's dpkg is not told about arm64;
#   - checks that the result works, not only that packages are there: the
#     cross compiler builds and statically links a Check program against
#     the sysroot and the arm64 C library (host headers cannot stand in:
#     the Makefile compiles tests with -nostdinc), QEMU makes the guest's
#     device tree, expect runs.  A failure names the missing piece and the
#     command that fixes it.
#
#   setup-host.sh CHECK_PROGRAM	(the Makefile passes the program to build)
#
# Writes $BUILD/host.ok when all is well; the Makefile runs this again only
# when this file changes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

HOST_PKGS="linux-source-6.1 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-arm expect device-tree-compiler bubblewrap gdb-multiarch
	bc bison flex libssl-dev libelf-dev cpio make gcc libc6-dev git perl
	ccache xz-utils kmod zip unzip jq libxml2-utils python3"
ARM64_PKGS="busybox-static check libsubunit-dev"
SYSROOT=$BUILD/sysroot
LOG=$BUILD/setup.log
: >"$LOG"

missing=
for p in $HOST_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	stage "installing Debian packages:$missing"
	SUDO=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null ||
			die "missing Debian packages:$missing
       install them as root: apt-get install --no-install-recommends$missing"
		SUDO=sudo
	fi
	{ $SUDO apt-get update -q &&
	  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing; } >>"$LOG" 2>&1 ||
		die_log "$LOG" "apt-get could not install:$missing"
fi

# The arm64 packages, from Debian's archive (lib.sh's arm64_apt).
if [ ! -f "$SYSROOT/.done" ]; then
	stage "fetching the guest's arm64 userland into $SYSROOT"
	A=$BUILD/apt
	rm -rf "$SYSROOT" "$A"
	mkdir -p "$A/debs" "$SYSROOT"
	{ arm64_apt apt-get update && (cd "$A/debs" && arm64_apt apt-get download $ARM64_PKGS); } \
		>>"$LOG" 2>&1 || die_log "$LOG" "apt-get could not fetch the arm64 packages:$ARM64_PKGS"
	for d in "$A"/debs/*.deb; do
		dpkg-deb -x "$d" "$SYSROOT"
	done
	[ -x "$SYSROOT/bin/busybox" ] || die "no busybox in $SYSROOT"
	touch "$SYSROOT/.done"
fi

# Does it all work?
stage "checking the cross compiler, QEMU and expect"
check=$BUILD/setup-check
mkdir -p "$check"
make -s -C "$KIT" "$check/check-program" >>"$LOG" 2>&1 ||
	die_log "$LOG" "the arm64 cross compiler cannot build a Check test
       (it needs gcc-aarch64-linux-gnu and libc6-dev-arm64-cross: 'make setup' installs
       them, as root or with sudo; then remove $SYSROOT and run it again)"
# ELF e_machine 0xb7: AArch64.
[ "$(od -An -tx1 -j18 -N1 "$check/check-program" | tr -d ' ')" = b7 ] ||
	die "$check/check-program is not an arm64 program"
mkdir -p "$BUILD/dtb"
for caps in "$KIT"/grader/topologies/*.caps; do
	"$KIT/grader/make-dtb.sh" "$caps" "$BUILD/dtb/$(basename "$caps" .caps).dtb" 2>>"$LOG" ||
		die_log "$LOG" "qemu-system-aarch64 cannot start the guest machine
       (it needs qemu-system-arm: 'make setup' installs it)"
done
expect -c 'exit 0' >>"$LOG" 2>&1 ||
	die "expect does not run (it needs expect: 'make setup' installs it)"
touch "$BUILD/host.ok"
