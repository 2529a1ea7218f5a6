# Shared by the grader's shell stages: paths, stage lines and errors.
# die exits with status 1, or DIE_STATUS.
# shellcheck shell=bash
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$KIT/build}
KSRC=${KSRC:-$BUILD/linux}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)

stage() { printf '  %-12s %s\n' "[${STAGE:-$(basename "$0" .sh)}]" "$*" >&2; }
# stage_line MSG: a stage line that the next one overwrites (a terminal's).
stage_line() { printf '\r  %-12s %s\033[K' "[${STAGE:-$(basename "$0" .sh)}]" "$*" >&2; }
# stage_start MSG ... stage_end [MORE]: a stage named as it starts, then the
# time it took (on a terminal, the same line completed: "MSG: 4.2 s, MORE").
stage_start() {
	STAGE_MSG=$* STAGE_T0=$(date +%s%N)
	if [ -t 2 ]; then stage_line "$*"; else stage "$*"; fi
}
stage_end() {
	local ms=$((($(date +%s%N) - STAGE_T0) / 1000000)) msg
	msg="$STAGE_MSG: $((ms / 1000)).$((ms % 1000 / 100)) s${1:+, $1}"
	if [ -t 2 ]; then stage_line "$msg"; echo >&2; else stage "$msg"; fi
}
# seconds N: N seconds, said for people ("42 s", "3 min 05 s").
seconds() {
	if [ "$1" -lt 60 ]; then echo "$1 s"; else printf '%d min %02d s\n' $(($1 / 60)) $(($1 % 60)); fi
}
die() { printf 'error: %s\n' "$*" >&2; exit "${DIE_STATUS:-1}"; }
# die_log LOG MSG: the tail of LOG, then MSG; the whole log stays in LOG.
die_log() {
	printf -- '---- last lines of %s ----\n' "$1" >&2
	tail -n 25 "$1" >&2
	printf -- '----\n' >&2
	die "$2 (full log: $1)"
}

# qemu_machine_args NCPUS: the guest machine, the same for dumpdtb and boot.
# No network device: the guest needs none (and the default one wants a boot
# ROM from ipxe-qemu).
qemu_machine_args() {
	echo "-machine virt -cpu cortex-a53 -smp $1 -m 256 -nographic -no-reboot -nic none"
}

# qemu_argv TOPOLOGY IMAGE INITRD RESULTS [APPEND...]: sets QEMU_ARGV to
# the command line of a boot on the machine TOPOLOGY (grader/topologies/):
# the serial console on standard output (the kernel's printk), the tests'
# results channel (a virtio console, the guest's /dev/hvc0) into the file
# RESULTS; and QEMU_DTB to the machine's device tree.  Fails when that
# device tree cannot be made.  QEMU runs in small pages, through the host
# tool small-pages ("make tools"; why: small-pages.c).
# rcupdate.rcu_expedited=1: synchronize_rcu() ends its grace period with
# IPIs instead of waiting for every CPU's tick, and the labs' CPU hotplug,
# cpuset partitions and cgroup writes wait for many: every lab's tests in
# one boot took 7.7-7.8 s with it, 8.5-8.8 s without (interleaved boots).
# RCU's lockdep checks are the same.  QEMU_EXTRA (words) adds QEMU options,
# for measuring one (grading never sets it).
qemu_argv() {
	local topology=$1 image=$2 initrd=$3 results=$4
	shift 4
	QEMU_DTB=$(topology_dtb "$topology") || return 1
	# shellcheck disable=SC2207
	QEMU_ARGV=("$BUILD/grader/small-pages" qemu-system-aarch64
		$(qemu_machine_args "$(topology_ncpus "$topology")") ${QEMU_EXTRA:-}
		-kernel "$image" -initrd "$initrd" -dtb "$QEMU_DTB"
		-chardev "file,id=results,path=${results//,/,,}"
		-device virtio-serial-device -device virtconsole,chardev=results
		-append "earlycon console=ttyAMA0 rdinit=/init panic=-1 oops=panic rcupdate.rcu_expedited=1 $*")
}

# machine_cpus: the CPUs grading may use here, in hundredths: a cgroup's
# CPU quota (a container's: cgroup v2 cpu.max, v1 cpu.cfs_quota_us over
# cpu.cfs_period_us), else every CPU.
machine_cpus() {
	local q p
	if read -r q p 2>/dev/null </sys/fs/cgroup/cpu.max && [ "$q" != max ]; then
		:
	elif q=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us 2>/dev/null) && [ "$q" -gt 0 ]; then
		p=$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us)
	else
		echo $(($(nproc) * 100))
		return
	fi
	echo $((q * 100 / p))
}
# machine_memory: a cgroup's memory limit here, in MiB (nothing: none).
machine_memory() {
	local m
	m=$(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null) ||
		return 0
	[ "$m" = max ] || [ "$m" -ge $((1 << 50)) ] || echo $((m >> 20))
}
# What grading needs: one CPU and 768 MiB (at half a CPU the reference
# loses lab 3's busy-task tests; the figures: grader/README.md, "At
# Gradescope's limits").
CPUS_NEEDED=100
MEMORY_NEEDED=${MEMORY_NEEDED:-768}
# machine_note: one line for the instructor when this machine gives grading
# less than that (nothing when it does).
machine_note() {
	local cpus mem what=
	cpus=$(machine_cpus)
	mem=$(machine_memory)
	[ "$cpus" -ge "$CPUS_NEEDED" ] ||
		what="$(printf '%d.%02d' $((cpus / 100)) $((cpus % 100))) CPU (needs 1: timing tests may not be decided)"
	[ -z "$mem" ] || [ "$mem" -ge "$MEMORY_NEEDED" ] ||
		what="$what${what:+ and }$mem MiB of memory (needs $MEMORY_NEEDED)"
	[ -z "$what" ] ||
		echo "this grading machine gives grading $what: on Gradescope, raise them in the assignment's Autograder Settings (grader/README.md)"
}

# What the kit takes from Debian 12 ("bookworm"), whatever the host: the
# kernel source (linux-source-6.1, which only Debian 12 has) and the guest's
# arm64 userland.  Fetched with the host's own apt, through a package list of
# the kit's own in $BUILD/apt (never the host's sources, never installed),
# and checked against Debian's archive keys (the host's debian-archive-keyring
# package).  DEBIAN12_MIRROR and DEBIAN12_SECURITY choose the mirrors.
DEBIAN12_MIRROR=${DEBIAN12_MIRROR:-http://deb.debian.org/debian}
DEBIAN12_SECURITY=${DEBIAN12_SECURITY:-http://deb.debian.org/debian-security}
DEBIAN_KEYRING=${DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}

# debian12_apt apt-get|apt-cache ARGS: apt on that package list, for arm64
# (and arch-all packages); only one at a time in this kit (flock: two makes
# started together would write the same list and lists).
debian12_apt() {
	mkdir -p "$BUILD/apt"
	kit_lock "$BUILD/apt/.lock" _debian12_apt "$@"
}
_debian12_apt() {
	local a=$BUILD/apt tool=$1
	shift
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/parts"
	cat >"$a/sources.list" <<SOURCES
deb [signed-by=$DEBIAN_KEYRING] $DEBIAN12_MIRROR bookworm main
deb [signed-by=$DEBIAN_KEYRING] $DEBIAN12_MIRROR bookworm-updates main
deb [signed-by=$DEBIAN_KEYRING] $DEBIAN12_SECURITY bookworm-security main
SOURCES
	: >"$a/status"
	"$tool" -q -o "Dir::Etc::SourceList=$a/sources.list" \
		-o "Dir::Etc::SourceParts=$a/parts" -o "Dir::Etc::PreferencesParts=$a/parts" \
		-o "Dir::Etc::Preferences=$a/parts/none" -o "Dir::State::status=$a/status" \
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache" \
		-o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o Debug::NoLocking=1 -o APT::Sandbox::User="$(id -un)" "$@"
}

# debian12_fetch DIR PKG...: download PKGs (exact names) from Debian 12 into
# DIR, and check that each file is the package asked for: apt reads a name
# it does not know as a pattern, and would fetch whatever matches it.
debian12_fetch() {
	local dir=$1 p f
	shift
	(cd "$dir" && debian12_apt apt-get download "$@") || return 1
	for p in "$@"; do
		f=$(compgen -G "$dir/${p}_*.deb") && [ "$(wc -l <<<"$f")" = 1 ] ||
			{ echo "apt-get fetched no package named $p, or more than one" >&2; return 1; }
		[ "$(dpkg-deb -f "$f" Package)" = "$p" ] ||
			{ echo "$f is not the package $p" >&2; return 1; }
	done
}

# The kernel source fetched from Debian 12 (setup-host.sh), and its version.
LINUX_TARBALL=$BUILD/debian12/usr/src/linux-source-6.1.tar.xz
LINUX_SOURCE_VERSION=$BUILD/debian12/linux-source.version

# sysroot_busybox: the guest's busybox in the sysroot (/bin or, in a merged
# /usr, /usr/bin).
sysroot_busybox() {
	local b
	for b in "$BUILD/sysroot/bin/busybox" "$BUILD/sysroot/usr/bin/busybox"; do
		[ ! -x "$b" ] || { echo "$b"; return 0; }
	done
	echo "$BUILD/sysroot/bin/busybox"
}

# hold_lock FILE: hold FILE's lock (flock) until this shell exits; says so
# when another make of this kit holds it.
hold_lock() {
	exec {KIT_LOCK_FD}>"$1"
	flock -n "$KIT_LOCK_FD" || {
		echo "  waiting for another make in this kit ($1)" >&2
		flock "$KIT_LOCK_FD"
	}
}
# kit_lock FILE CMD...: CMD while holding FILE's lock.
kit_lock() {
	(
		hold_lock "$1"
		shift
		"$@"
	)
}

# topology_dtb NAME: the guest's device tree for topology NAME
# (grader/topologies/NAME.caps), made when missing or older than that file.
topology_dtb() {
	local dtb=$BUILD/dtb/$1.dtb caps=$KIT/grader/topologies/$1.caps
	if [ ! -f "$dtb" ] || [ "$caps" -nt "$dtb" ]; then
		mkdir -p "$BUILD/dtb"
		"$KIT/grader/make-dtb.sh" "$caps" "$dtb" || return 1
	fi
	echo "$dtb"
}
# topology_ncpus NAME: how many CPUs topology NAME has.
topology_ncpus() { grep -v '^#' "$KIT/grader/topologies/$1.caps" | wc -w; }

# any_lab_topology: the topology of the kit's first lab, for a boot that
# runs no lab's tests (make bench's, the self-tests').
any_lab_topology() {
	local labs
	read -r -a labs <<<"$(all_labs)"
	lab_conf "${labs[0]}" TOPOLOGY
}

# lab_dir NN: the folder of lab NN.
lab_dir() {
	local d
	d=$(ls -d "$KIT/labs/$(printf %02d "$((10#$1))")"-*/ 2>/dev/null | head -n 1)
	[ -n "$d" ] || die "there is no lab $1 (labs: $(all_labs))"
	echo "${d%/}"
}

# lab_conf NN KEY: one setting of lab NN (labs/NN-*/lab.conf: KEY=value
# lines and # comments, read as data), or its default.  Every key, with its
# default, is here; a key the file has and this list has not is an error.
LAB_CONF_KEYS=(TITLE= TOPOLOGY=three-tier TIMEOUT=120 ALLOWED=)
lab_conf() {
	local file kv line val='' known=
	file=$(lab_dir "$1")/lab.conf
	for kv in "${LAB_CONF_KEYS[@]}"; do
		[ "${kv%%=*}" != "$2" ] || { known=1; val=${kv#*=}; }
	done
	[ -n "$known" ] || die "lab_conf: no such setting '$2'"
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in '' | '#'*) continue ;; esac
		case " ${LAB_CONF_KEYS[*]} " in
		*" ${line%%=*}="*) ;;
		*) die "$file: unknown setting '${line%%=*}' (known: ${LAB_CONF_KEYS[*]%%=*})" ;;
		esac
		[ "${line%%=*}" != "$2" ] || val=${line#*=}
	done <"$file"
	[ -n "$val" ] || [ "$2" != TITLE ] || die "$file: TITLE is required"
	printf '%s\n' "$val"
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

# KERNEL_CC: the compiler every kernel build of the kit names, the same for
# every build of a tree (Kbuild compiles again whatever a changed compiler
# command built): through ccache when it is installed.  ccache keeps and
# reuses objects only where CCACHE_DIR says (make's default: build/ccache,
# paths taken relative to CCACHE_BASEDIR); without one it only runs the
# compiler, as in a grading sandbox, where no cache is shared.
KERNEL_CC=${CROSS_COMPILE:-aarch64-linux-gnu-}gcc
if command -v ccache >/dev/null; then
	KERNEL_CC="ccache $KERNEL_CC"
	[ -n "${CCACHE_DIR:-}" ] || export CCACHE_DISABLE=1
fi

# kit_git ARGS: git with the kit's identity and a fixed date, so that the
# same kit on the same linux-source makes the same starter commits (and a
# student's bundle built on "starter" applies on the grader's), and with no
# system or user configuration (an instructor's diff.noprefix or
# color.diff=always would break the kit's own diffs and patches), and no
# automatic gc: the one git detaches after a large commit (the tree's first)
# would outlive the command, holding what it inherited (the setup lock).
kit_git() {
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	GIT_AUTHOR_DATE="2022-12-11T00:00:00Z" GIT_COMMITTER_DATE="2022-12-11T00:00:00Z" \
		git -c user.name=schedlab -c user.email=schedlab@localhost -c gc.auto=0 -c maintenance.auto=0 "$@"
}

# starter_tree DIR: DIR made (again) a tree of the kit's starter, tag
# starter: a git tree of its own, that borrows the kernel tree's objects.
# reference_tree DIR: the same, and every lab's reference on it, a commit
# each.  The kit's own trees (make coverage, make test's mutants and labs
# in order), never a student's or a slot's.
starter_tree() {
	if [ ! -d "$1/.git" ]; then
		kit_git init -q "$1"
		realpath -e -- "$(kit_git -C "$KSRC" rev-parse --path-format=absolute --git-common-dir)/objects" \
			>"$1/.git/objects/info/alternates"
	fi
	kit_git -C "$1" fetch -q --no-tags "$KSRC" "+refs/tags/base:refs/tags/base"
	kit_git -C "$1" checkout -q -f --detach base
	kit_git -C "$1" clean -q -ffdx
	"$KIT/grader/apply.sh" --tree "$1" --commit starter
	kit_git -C "$1" tag -f starter >/dev/null
}
reference_tree() {
	starter_tree "$1"
	"$KIT/grader/apply.sh" --tree "$1" --commit reference
}

# A course's kit (make release: grader/release.sh) has no lab patches: it
# carries the starter tree's own files (starter/linux) and that tree's git
# id (starter/tree).
STARTER_FILES=$KIT/starter
student_kit() { [ -d "$STARTER_FILES" ]; }

# student_starter REPO TREE: the one commit of a course's kit's starter tree
# TREE (a tree-ish) in REPO: no parent, the kit's identity, date and
# message, so the same tree makes the same commit in a student's tree and
# in a grading slot (a bundle built on a student's starter applies there).
student_starter() {
	kit_git -C "$1" commit-tree "$2^{tree}" -m "schedlab: the starter tree (Linux 6.1, every lab hollowed out)"
}

# starter_stamp: a hash of what the starter tree is made from: every lab's
# instrumentation and starter patch (or, in a course's kit, its tree id).
starter_stamp() {
	local lab
	if student_kit; then
		cat "$STARTER_FILES/tree"
	else
		for lab in $(all_labs); do
			cat "$(lab_dir "$lab")"/*.patch
		done
	fi | md5sum | cut -d' ' -f1
}
