#!/bin/bash
# Stage 0 of grading: make this machine able to build and boot lab kernels,
# and prove it.
#
#   - installs the host's tools (HOST_PKGS: cross compiler, QEMU, expect,
#     ...) from the host's own packages, only the missing ones, with sudo
#     when not root; each by its exact name (Debian 12 and 13, Ubuntu 22.04
#     and 24.04 name them alike), and checks with dpkg that each is what got
#     installed: apt reads a name it does not know as a pattern.  Debian's
#     "recommends" are not installed with them;
#   - fetches what the kit takes from Debian 12 whatever the host is (lib.sh's
#     debian12_apt: a private package list, signature-checked with Debian's
#     archive keys): the kernel source linux-source-6.1 (DEBIAN12_PKGS),
#     unpacked into $BUILD/debian12, and the guest's arm64 userland
#     (ARM64_PKGS), unpacked into a sysroot under $BUILD.  Nothing of it is
#     installed (the arm64 busybox-static would replace the host's busybox),
#     and the host's dpkg is not told about arm64;
#   - checks that the result works, not only that packages are there: the
#     cross compiler builds and statically links a Check program against
#     the sysroot and the arm64 C library (host headers cannot stand in:
#     the Makefile compiles tests with -nostdinc), QEMU makes the guest's
#     device tree, expect runs.  A failure names the missing piece and the
#     command that fixes it.
#
#   setup-host.sh [--packages]   (--packages: install the host's tools, no more)
#
# Writes $BUILD/host.ok when all is well; the Makefile runs this again only
# when this file changes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

HOST_PKGS="gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-arm expect device-tree-compiler bubblewrap gdb-multiarch
	bc bison flex libssl-dev libelf-dev cpio make gcc libc6-dev git perl
	ccache xz-utils kmod zip unzip jq libxml2-utils python3
	debian-archive-keyring util-linux"
DEBIAN12_PKGS="linux-source-6.1"
ARM64_PKGS="busybox-static check libsubunit-dev"
SYSROOT=$BUILD/sysroot
# Two makes of this kit started together set up one at a time; the second
# then finds the work done.
hold_lock "$BUILD/setup.lock"
LOG=$BUILD/setup.log
: >"$LOG"

# missing_pkgs PKG...: those of PKGs not installed under exactly that name.
missing_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			printf ' %s' "$p"
	done
}
missing=$(missing_pkgs $HOST_PKGS)
if [ -n "$missing" ]; then
	stage "installing packages:$missing"
	SUDO=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null ||
			die "missing packages:$missing
       install them as root: apt-get install --no-install-recommends$missing"
		SUDO=sudo
	fi
	{ $SUDO apt-get update -q &&
	  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing; } >>"$LOG" 2>&1 ||
		die_log "$LOG" "apt-get could not install:$missing"
	still=$(missing_pkgs $missing)
	[ -z "$still" ] || die_log "$LOG" "apt-get exited 0, but these packages are not installed:$still
       (apt installs whatever matches a name it does not know; this system has no package by that name)"
fi

# --packages: the host's tools only (the kit's container image is made so).
[ "${1:-}" != --packages ] || exit 0

# What comes from Debian 12: the kernel source, and the guest's userland.
[ -r "$DEBIAN_KEYRING" ] ||
	die "no Debian archive keyring at $DEBIAN_KEYRING (package debian-archive-keyring)"
D12=$BUILD/debian12
if [ ! -f "$D12/.done" ] || [ ! -f "$SYSROOT/.done" ]; then
	stage "fetching from Debian 12: $DEBIAN12_PKGS, and the guest's arm64 userland"
	rm -rf "$SYSROOT" "$D12"
	mkdir -p "$D12/debs" "$SYSROOT/debs"
	debian12_apt apt-get update >>"$LOG" 2>&1 ||
		die_log "$LOG" "apt-get could not read Debian 12's package lists from $DEBIAN12_MIRROR
       (a network fault, or a signature $DEBIAN_KEYRING cannot check: Debian 12's
       archive is signed with its 12/bookworm and 13/trixie keys, which the host's
       debian-archive-keyring must have)"
	{ debian12_fetch "$D12/debs" $DEBIAN12_PKGS && debian12_fetch "$SYSROOT/debs" $ARM64_PKGS; } \
		>>"$LOG" 2>&1 || die_log "$LOG" "apt-get could not fetch from Debian 12:$DEBIAN12_PKGS $ARM64_PKGS"
	for d in "$D12"/debs/*.deb; do
		dpkg-deb -x "$d" "$D12"
	done
	[ -f "$D12/usr/src/linux-source-6.1.tar.xz" ] || die "no linux-source-6.1.tar.xz in $D12/usr/src"
	dpkg-deb -f "$D12"/debs/linux-source-6.1_*.deb Version >"$D12/linux-source.version"
	rm -rf "$D12/debs"
	for d in "$SYSROOT"/debs/*.deb; do
		dpkg-deb -x "$d" "$SYSROOT"
	done
	rm -rf "$SYSROOT/debs"
	[ -x "$(sysroot_busybox)" ] || die "no busybox in $SYSROOT"
	touch "$D12/.done" "$SYSROOT/.done"
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
