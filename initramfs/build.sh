#!/bin/bash
# Stage 4 of grading: pack the initramfs.
#
#   build.sh base OUT.cpio TESTBIN_DIR...
#                                        busybox + init + the test binaries
#                                        (labNN, hiddenNN) of each DIR
#   build.sh run  OUT.cpio BASE.cpio "LABS" MARK CMARK [TEST]
#                                        BASE + one boot's /etc/schedlab.conf
#
# The Makefile remakes the base archive when its inputs change; the run
# archive is BASE with a second, tiny archive appended (the kernel unpacks
# both).  busybox's links are made here, only for the applets the init
# uses: installing all of them at boot costs the guest most of a second.
set -euo pipefail
. "$(dirname "$0")/../grader/lib.sh"

newc() { (cd "$1" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0); }

case $1 in
base)
	out=$2
	shift 2
	stagedir=$(mktemp -d)
	trap 'rm -rf "$stagedir"' EXIT
	mkdir -p "$stagedir"/{bin,dev,proc,sys,tmp,etc,tests}
	cp "$BUILD/sysroot/bin/busybox" "$stagedir/bin/busybox"
	for applet in sh mount rm cat poweroff; do
		ln -s busybox "$stagedir/bin/$applet"
	done
	install -m 755 "$KIT/initramfs/init" "$stagedir/init"
	for bins in "$@"; do
		find "$bins" -maxdepth 1 -type f -regex '.*/\(lab\|hidden\)[0-9][0-9]' \
			-exec cp -t "$stagedir/tests/" {} +
	done
	newc "$stagedir" >"$out.tmp"
	mv "$out.tmp" "$out"
	;;
run)
	out=$2 base=$3 labs=$4 mark=$5 cmark=$6 test=${7:-}
	stagedir=$(mktemp -d)
	trap 'rm -rf "$stagedir"' EXIT
	mkdir -p "$stagedir/etc"
	printf 'LABS="%s"\nMARK=%s\nCMARK=%s\nTEST=%s\n' "$labs" "$mark" "$cmark" "$test" \
		>"$stagedir/etc/schedlab.conf"
	{ cat "$base"; newc "$stagedir"; } >"$out"
	;;
*) die "usage: build.sh base|run ..." ;;
esac
