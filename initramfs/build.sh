#!/bin/bash
# Stage 4 of grading: pack the initramfs.
#
#   build.sh base OUT.cpio INIT TESTBIN_DIR...
#                                        the init (init.c, built) and the test
#                                        binaries (labNN, hiddenNN) of each DIR
#   build.sh shell OUT.cpio BASE.cpio SHELL_ROOT TESTBIN_DIR
#                                        make shell's: BASE + busybox, the
#                                        tools of SHELL_ROOT (shell-root.sh),
#                                        shell.sh, the labs' tips and test lists
#   build.sh run  OUT.cpio BASE.cpio KEY=value...
#                                        BASE + one boot's /etc/schedlab.conf
#                                        (init.c: LABS, MARK, CMARK, TEST, SEED, SHELL)
#
# The Makefile remakes the base archives when their inputs change; the run
# archive is BASE with a second, tiny archive appended (the kernel unpacks
# both, in order).  Nothing else is in the grading one: the init runs the
# tests itself, and every byte is unpacked at each boot.
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
shell)
	out=$2 base=$3 root=$4 tests=$5
	here=$(dirname "$0")
	stagedir=$(mktemp -d)
	trap 'rm -rf "$stagedir"' EXIT
	mkdir -p "$stagedir"/{bin,sbin,usr/bin,usr/sbin,etc/tips,etc/rt-app,tests}
	cp -a "$root"/. "$stagedir/"
	rm -f "$stagedir/.done"
	install -m 755 "$(sysroot_busybox)" "$stagedir/bin/busybox"
	ln -s busybox "$stagedir/bin/sh"
	install -m 755 "$here/shell.sh" "$stagedir/etc/shell.sh"
	cp "$here"/rt-app/*.json "$stagedir/etc/rt-app/"
	cp "$tests"/lab[0-9][0-9].tests "$stagedir/tests/"
	for lab in $(all_labs); do
		[ ! -f "$(lab_dir "$lab")/shell.txt" ] || cp "$(lab_dir "$lab")/shell.txt" "$stagedir/etc/tips/$lab"
	done
	{ cat "$base"; newc "$stagedir"; } >"$out.tmp"
	mv "$out.tmp" "$out"
	;;
run)
	out=$2 base=$3
	shift 3
	stagedir=$(mktemp -d)
	trap 'rm -rf "$stagedir"' EXIT
	mkdir -p "$stagedir/etc"
	for kv in "$@"; do
		printf '%s="%s"\n' "${kv%%=*}" "${kv#*=}"
	done >"$stagedir/etc/schedlab.conf"
	{ cat "$base"; newc "$stagedir"; } >"$out"
	;;
*) die "usage: build.sh base|shell|run ..." ;;
esac
