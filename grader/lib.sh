# Shared by the grader's shell stages: paths, stage lines and errors.
# shellcheck shell=bash
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$KIT/build}
KSRC=${KSRC:-$BUILD/linux}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)

stage() { printf '  %-12s %s\n' "[${STAGE:-$(basename "$0" .sh)}]" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
# die_log LOG MSG: the tail of LOG, then MSG; the whole log stays in LOG.
die_log() {
	printf -- '---- last lines of %s ----\n' "$1" >&2
	tail -n 25 "$1" >&2
	printf -- '----\n' >&2
	die "$2 (full log: $1)"
}

# qemu_machine_args NCPUS: the guest machine, the same for dumpdtb and boot.
qemu_machine_args() {
	echo "-machine virt -cpu cortex-a53 -smp $1 -m 256 -nographic -no-reboot -nic none"
}

# lab_dir NN: the folder of lab NN.
lab_dir() {
	local d
	d=$(ls -d "$KIT/labs/$(printf %02d "$((10#$1))")"-*/ 2>/dev/null | head -n 1)
	[ -n "$d" ] || die "there is no lab $1 (labs: $(all_labs))"
	echo "${d%/}"
}

# all_labs: every lab's number, in order.
all_labs() {
	local d
	# A lab is a folder with a lab.conf; one still being written has none.
	for d in "$KIT"/labs/[0-9][0-9]-*/lab.conf; do
		[ -e "$d" ] || continue
		d=${d%/lab.conf}
		d=${d##*/}
		printf '%s ' "${d%%-*}"
	done
}

# kit_git ARGS: git with the kit's identity and a fixed date, so that the
# same kit on the same linux-source makes the same starter commits (and a
# student's bundle built on "starter" applies on the grader's), and with no
# system or user configuration (an instructor's diff.noprefix or
# color.diff=always would break the kit's own diffs and patches).
kit_git() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_AUTHOR_DATE="2022-12-11T00:00:00Z" GIT_COMMITTER_DATE="2022-12-11T00:00:00Z" \
		git -c user.name=schedlab -c user.email=schedlab@localhost "$@"
}

# starter_stamp: a hash of every lab's instrumentation and starter patch.
starter_stamp() {
	local lab
	for lab in $(all_labs); do
		cat "$(lab_dir "$lab")"/*.patch
	done | md5sum | cut -d' ' -f1
}
