#!/bin/bash
# Stage 0 of grading: make this machine able to build and boot lab kernels.
#
#   - installs the Debian packages the kit needs (only the missing ones);
#   - fetches the arm64 userland the initramfs is made of (busybox-static,
#     check, libsubunit-dev) with "apt-get download" and unpacks it into a
#     sysroot under $BUILD; it is never installed system-wide, because the
#     arm64 busybox-static would replace the host's busybox.
#
# Idempotent: a second run checks and returns.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

HOST_PKGS="linux-source-6.1 qemu-system-arm gcc-aarch64-linux-gnu expect check
	device-tree-compiler bc bison flex libssl-dev libelf-dev cpio make gcc git
	ccache xz-utils kmod zip jq bubblewrap"
ARM64_PKGS="busybox-static check libsubunit-dev"
SYSROOT=$BUILD/sysroot

missing=
for p in $HOST_PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	stage "installing host packages:$missing"
	if [ "$(id -u)" != 0 ]; then
		die "missing Debian packages:$missing
       run 'sudo make setup' once (or install them yourself)"
	fi
	apt-get update -qq >>"$BUILD/setup.log" 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >>"$BUILD/setup.log" 2>&1 ||
		die_log "$BUILD/setup.log" "apt-get install failed"
fi

if [ ! -f "$SYSROOT/.done" ]; then
	stage "fetching arm64 userland into $SYSROOT"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		[ "$(id -u)" = 0 ] ||
			die "arm64 is not a dpkg foreign architecture; run 'sudo make setup' once"
		dpkg --add-architecture arm64
		apt-get update -qq >>"$BUILD/setup.log" 2>&1 || true
	fi
	rm -rf "$SYSROOT" "$BUILD/debs"
	mkdir -p "$BUILD/debs" "$SYSROOT"
	pkgs=
	for p in $ARM64_PKGS; do pkgs="$pkgs $p:arm64"; done
	(cd "$BUILD/debs" && apt-get download $pkgs) >>"$BUILD/setup.log" 2>&1 ||
		die_log "$BUILD/setup.log" "apt-get download of the arm64 userland failed"
	for d in "$BUILD"/debs/*.deb; do
		dpkg-deb -x "$d" "$SYSROOT"
	done
	[ -x "$SYSROOT/bin/busybox" ] || die "no busybox in $SYSROOT"
	touch "$SYSROOT/.done"
fi
