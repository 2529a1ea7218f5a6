#!/bin/bash
# Stage 4 of grading: pack the initramfs.
#
#   build.sh base OUT.cpio INIT TESTBIN_DIR...
#                                        the init (init.c, built) and the test
#                                        binaries (labNN, hiddenNN) of each DIR
#   build.sh run  OUT.cpio BASE.cpio "LABS" MARK CMARK [TEST]
#                                        BASE + one boot's /etc/schedlab.conf
#
# The Makefile remakes the base archive when its inputs change; the run
# archive is BASE with a second, tiny archive appended (the kernel unpacks
# both).  Nothing else is in it: the init runs the tests itself, and every
# byte is unpacked at each boot.
set -euo pipefail
. "$(dirname "$0")/../grader/lib.sh"

newc() { (cd "$1" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0); }

case $1 in
base)
	out=$2 init=$3
	shift 3
	stagedir=$(mktemp -d)
	trap 'rm -rf "$stagedir"' EXIT
	mkdir -p "$stagedir"/{dev,proc,sys,tmp,etc,tests}
	install -m 755 "$init" "$stagedir/init"
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
