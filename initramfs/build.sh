#!/bin/bash
# Stage 4 of grading: pack the initramfs.
#
#   build.sh base OUT.cpio TESTBIN_DIR...
#                                        busybox + init + the test binaries
#                                        (labNN, hiddenNN) of each DIR
#   build.sh run  OUT.cpio BASE.cpio "LABS" MARK
#                                        BASE + one boot's /etc/schedlab.conf
#
# The base archive is remade only when its inputs are newer; the run archive
# is BASE with a second, tiny archive appended (the kernel unpacks both).
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
	install -m 755 "$KIT/initramfs/init" "$stagedir/init"
	for bins in "$@"; do
		find "$bins" -maxdepth 1 -type f -regex '.*/\(lab\|hidden\)[0-9][0-9]' \
			-exec cp -t "$stagedir/tests/" {} +
	done
	newc "$stagedir" >"$out.tmp"
	mv "$out.tmp" "$out"
	;;
run)
	out=$2 base=$3 labs=$4 mark=$5
	stagedir=$(mktemp -d)
	trap 'rm -rf "$stagedir"' EXIT
	mkdir -p "$stagedir/etc"
	printf 'LABS="%s"\nMARK=%s\n' "$labs" "$mark" >"$stagedir/etc/schedlab.conf"
	{ cat "$base"; newc "$stagedir"; } >"$out"
	;;
*) die "usage: build.sh base|run ..." ;;
esac
