# shellcheck shell=bash
# The sandbox of instructor grading: every stage that touches a submission
# (apply, build, checkpatch, boot) runs in it.  Sourced after lib.sh.
#
#   sandbox_require        choose the isolation (SANDBOX_KIND) or die, saying
#                          why none works here (SANDBOX=off: run without
#                          one, and say so)
#   sandbox_run SLOTDIR [--stage STAGE] [--time S] [--ro PATH]... [--rw PATH]...
#               [--hide DIR]... [--stdin] -- CMD...
#                          CMD in SLOTDIR's sandbox, within STAGE's limits;
#                          an empty SLOTDIR runs CMD as it is (a student's
#                          own "make grade": no sandbox, no limits)
#   sandbox_own PATH...    make PATHs (made by the grader) the sandbox user's
#
# Two isolations, chosen by sandbox_require (SANDBOX=on, the default: the
# first that works here; SANDBOX=bwrap or SANDBOX=uid: that one):
#
# bwrap (bubblewrap): an unprivileged user (uid SANDBOX_UID, 65534 by
# default) with no capabilities, no network (a namespace with only "lo"),
# its own PID, IPC and UTS namespaces, a new session (no terminal to push
# input into) and no file descriptor of the grader but stdin (/dev/null
# unless --stdin), stdout and stderr.  It sees the system's /usr and the few
# /etc files the toolchain needs, read-only; the kit's grader/, kconfig/,
# labs/ and initramfs/, read-only (never reference-patches/, the kit's git
# history, $HOME, the build folder's other contents: other slots, results,
# hidden tests); SLOTDIR read-write (the slot's tree and build folder); each
# --ro/--rw PATH; a private /tmp.  --hide DIR shows an empty DIR instead
# (the slot's .git during the build).  As root, bubblewrap sets the
# namespaces up and setpriv then drops to SANDBOX_UID for real, so the slot
# must belong to that user (sandbox_own, which the slot's maker calls); as a
# plain user, bubblewrap maps SANDBOX_UID inside onto the grader's own uid,
# so the slot already is.
#
# uid, where no namespace can be made (an unprivileged container: Docker's
# and podman's default profile, so Gradescope and GitHub's container jobs),
# as root only: the same CMD as the slot's unprivileged user (uid
# SANDBOX_UID_BASE minus the slot's number: sandbox_slot_user), with no
# capability, no new privileges, the same limits, a private TMPDIR, the
# same descriptors, and no network socket (no-network.c, a seccomp
# filter).  What it may read is what file permissions let it:
# sandbox_protect makes the kit's reference-patches/ and git history,
# $HOME, the hidden tests and the build folder's results and self-tests
# unreadable to it.  It shares the machine's /tmp, process list and PID
# space: after each stage every process of its user is killed, so nothing
# of the build is left running when the boot (the same user) starts.
# The container is then the boundary between two submissions (one
# submission a container, as on Gradescope and GitHub); grader/README.md's
# trust model says what each isolation stops and what it does not.
#
# A stage each: whether SLOTDIR is writable (only applying a submission
# writes the tree; the build writes only the build folder it is given with
# --rw), and limits (wall-clock s, CPU s a process, address space a
# process, size of any file written: timeout(1) and prlimit(1)).  A run that
# reaches its wall-clock limit is killed with everything it started and
# returns 124.  A boot's logs stop at 8 MB in boot.exp (the "flood"
# verdict); the boot's file size limit is only a backstop past that.  In
# the uid isolation, --ro, --rw and --hide bind nothing (what the sandbox's
# user may read is the permissions'), and the slot is writable in every
# stage (it belongs to that user).
SANDBOX=${SANDBOX:-on}
BWRAP=${BWRAP:-bwrap}
SANDBOX_UID=${SANDBOX_UID:-65534}
# The uid isolation's users: this minus the slot's number.  Ids no account
# and no other process of a machine has (65534 is nobody's, and bubblewrap
# sandboxes run as it): after each stage every process of the user is
# killed, which must reach nothing else.
SANDBOX_UID_BASE=${SANDBOX_UID_BASE:-3000000000}
NO_NETWORK=${NO_NETWORK:-$BUILD/grader/no-network}

#	stage   slot  wall  cpu   address space  file size
SANDBOX_LIMITS="
	apply   rw    600   600   2G             256M
	build   ro    2400  900   3G             128M
	check   ro    300   300   1G             64M
	boot    ro    600   2400  4G             9M
	read    ro    120   60    512M           64M
"

# sandbox_why KIND: why the isolation KIND cannot run here (empty when it
# can).
sandbox_why() {
	local kind=$1 probe=$BUILD/grading/probe err SANDBOX_UID=$SANDBOX_UID
	[ "$kind" != uid ] || SANDBOX_UID=$((SANDBOX_UID_BASE - 99))
	case $kind in
	bwrap)
		command -v "$BWRAP" >/dev/null ||
			{ echo "bubblewrap is not installed (Debian: apt-get install bubblewrap)"; return; } ;;
	uid)
		[ "$(id -u)" = 0 ] ||
			{ echo "the uid isolation needs root (to run each stage as another user)"; return; }
		[ -x "$NO_NETWORK" ] || { echo "$NO_NETWORK is not built (make tools)"; return; } ;;
	esac
	command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
		{ echo "setpriv or prlimit is missing (Debian: util-linux)"; return; }
	mkdir -p "$probe"
	sandbox_own "$probe"
	err=$(SANDBOX_KIND=$kind sandbox_run "$probe" -- test -r "$KIT/grader/lib.sh" 2>&1) ||
		echo "${kind/bwrap/bubblewrap} does not start here, or its user ($SANDBOX_UID) cannot read the kit: ${err:-no message}"
}

sandbox_require() {
	local why='' kind kinds w
	if [ "$SANDBOX" = off ]; then
		SANDBOX_KIND=off
		export SANDBOX_KIND
		stage "SANDBOX=off: the submission is applied, built and booted with your own rights"
		return
	fi
	case $SANDBOX in
	on) kinds="bwrap uid" ;;
	bwrap | uid) kinds=$SANDBOX ;;
	*) die "SANDBOX=$SANDBOX: on, bwrap, uid or off" ;;
	esac
	SANDBOX_KIND=
	for kind in $kinds; do
		[ "$kind" != uid ] || sandbox_protect
		w=$(sandbox_why "$kind")
		[ -n "$w" ] || { SANDBOX_KIND=$kind; break; }
		why="$why${why:+;
       }$w"
	done
	[ -n "$SANDBOX_KIND" ] || die "instructor grading runs a submission's build and boot in a sandbox, and none works here:
       $why.
       A submission is hostile input: without the sandbox its build can read any
       file you can (and show it in the report).  To grade anyway, knowing that,
       run with SANDBOX=off."
	export SANDBOX_KIND
	[ "$SANDBOX_KIND" != uid ] || [ "$SANDBOX" = uid ] ||
		stage "isolation: uid (bubblewrap cannot make namespaces here: each stage runs as an unprivileged user; grader/README.md)"
}

# sandbox_protect: what the uid isolation's user may not read, made so (as
# root): the answers and the kit's history, $HOME, the hidden tests (and
# their initramfs), the build folder's self-tests, benchmarks, coverage
# tree, compiler cache (objects of the references, once an instructor
# graded them) and earlier results; the build folder, its results and its slots' folder are
# searchable, not listable.
# What the stages read (the kernel tree, the tools, the slot) keeps its
# permissions.
_sandbox_protected() {
	printf '%s\n' "$KIT/reference-patches" "$KIT/.git" "${HIDDEN_TESTS:-}" "$BUILD/hidden" \
		"$BUILD/initramfs-hidden.cpio" "$BUILD/selftest" "$BUILD/bench" "$BUILD/coverage" "$BUILD/ccache"
}
# _sandbox_open_way: $HOME unreadable, and the kit reachable (its
# grader/, labs/ and build folder: root's clone in /root, say).  A folder
# on the way to the kit that others cannot search (/root, 0700) becomes
# searchable by them, not listable, and everything else in it is closed to
# them (o-rwx: none of it was within their reach before); $HOME, on the
# way, is made so each time, with go-rwx on what else it holds.  What the
# folders after it hold keeps its permissions (grader/README.md).  The
# kit's own folder becomes searchable.  Never through a symbolic link
# (chmod would change its target).  SANDBOX_CHMOD="echo chmod": say it,
# do nothing (make test).
_sandbox_open_way() {
	local kit home d=/ rest next who chmod=${SANDBOX_CHMOD:-chmod}
	kit=$(realpath -e -- "$KIT")
	# A $HOME that is not a home of its own is left as it is: none, /, a
	# system folder, one others may write (/tmp), or the kit.
	home=$(realpath -e -- "${HOME:-/}" 2>/dev/null) || home=
	case $home in
	/ | /tmp | /var/tmp | /dev | /dev/* | /proc | /proc/* | /sys | /sys/* | /run | /run/* | \
		/usr | /etc | /var | /home | /srv | /opt | /mnt | /media | /boot | "$kit") home= ;;
	esac
	[ -z "$home" ] || [ $((8#$(stat -c %a "$home") & 01002)) = 0 ] || home=
	# Not on the way to the kit: closed whole.
	if [ -n "$home" ] && [[ $kit/ != "$home"/?* ]]; then
		$chmod go-rwx "$home"
	fi
	rest=${kit#/}
	while [ -n "$rest" ]; do
		next=${rest%%/*}
		who=
		if [ "$d" = / ]; then
			:
		elif [ "$d" = "$home" ]; then
			who=go
		elif [ $((8#$(stat -c %a "$d") & 1)) = 0 ]; then
			who=o
		fi
		if [ -n "$who" ]; then
			$chmod "$who-rw,o+x" "$d"
			find "$d" -mindepth 1 -maxdepth 1 ! -type l ! -name "$next" -exec $chmod "$who-rwx" {} +
		fi
		d=${d%/}/$next
		[ "$rest" != "$next" ] || break
		rest=${rest#*/}
	done
	$chmod o+x "$kit"
}
sandbox_protect() {
	[ "$(id -u)" = 0 ] || return 0
	local p
	while read -r p; do
		[ -z "$p" ] || [ ! -e "$p" ] || chmod go-rwx "$p"
	done < <(_sandbox_protected)
	_sandbox_open_way
	mkdir -p "$BUILD/grading" "$BUILD/results"
	chmod 0711 "$BUILD" "$BUILD/grading" "$BUILD/results"
	# Earlier results (a grading keeps its own from others when it ends:
	# grade-submission.sh).
	find "$BUILD/results" -mindepth 1 -maxdepth 1 -exec chmod go-rwx {} +
}

# sandbox_reach DIR: in the uid isolation, let the sandbox's user reach DIR
# (a folder the grader was given for a stage's logs): search permission on
# it, and on each of its parents inside the build folder.  Fails, naming it,
# at a parent outside the build folder that does not let it through, or
# one that sandbox_protect keeps from it (results go elsewhere then).
sandbox_reach() {
	[ "${SANDBOX_KIND:-}" = uid ] || return 0
	local d top
	top=$(realpath -e -- "$1")
	d=$top
	while [ "$d" != / ]; do
		if [ $((8#$(stat -c %a "$d") & 1)) = 0 ]; then
			case $d/ in
			"$top"/ | "$BUILD"/*) ! _sandbox_protected | grep -qxF -- "$d" ;;
			*) false ;;
			esac || { echo "the sandbox's user (uid $SANDBOX_UID) cannot search $d" >&2; return 1; }
			chmod o+x "$d"
		fi
		d=$(dirname "$d")
	done
}

# sandbox_slot_user N: in the uid isolation, slot N's own user becomes
# SANDBOX_UID (so no slot reads another's, and what a stage leaves running
# is killed by user); in bubblewrap's, every slot is SANDBOX_UID's.
sandbox_slot_user() {
	[ "${SANDBOX_KIND:-}" != uid ] || SANDBOX_UID=$((SANDBOX_UID_BASE - $1))
	export SANDBOX_UID
}

sandbox_own() {
	[ "$(id -u)" != 0 ] || [ "${SANDBOX_KIND:-$SANDBOX}" = off ] || chown -R "$SANDBOX_UID:$SANDBOX_UID" "$@"
}

# _sandbox_close_fds: close every descriptor of this (sub)shell but 0-2.
_sandbox_close_fds() {
	local fd
	for fd in /proc/$BASHPID/fd/*; do
		fd=${fd##*/}
		[ "$fd" -le 2 ] || eval "exec $fd>&-" 2>/dev/null || true
	done
}

# _sandbox_limits STAGE: "slot wall cpu as fsize" of STAGE.
_sandbox_limits() {
	local s l
	while read -r s l; do
		[ "$s" = "$1" ] && { echo "$l"; return; }
	done <<<"$SANDBOX_LIMITS"
	die "sandbox: no limits for stage '$1'"
}


# _sandbox_system: the read-only view of the system, as bwrap arguments.
_sandbox_system() {
	local d
	printf '%s\0' --ro-bind /usr /usr
	for d in bin sbin lib lib32 lib64 libx32; do
		if [ -L "/$d" ]; then
			printf '%s\0' --symlink "$(readlink "/$d")" "/$d"
		elif [ -d "/$d" ]; then
			printf '%s\0' --ro-bind "/$d" "/$d"
		fi
	done
	# /etc/alternatives: awk, cc, ... are links through it.
	for d in alternatives ld.so.cache ld.so.conf ld.so.conf.d; do
		[ ! -e "/etc/$d" ] || printf '%s\0' --ro-bind "/etc/$d" "/etc/$d"
	done
	for d in grader kconfig labs initramfs; do
		printf '%s\0' --ro-bind "$KIT/$d" "$KIT/$d"
	done
}

sandbox_run() {
	local slot=$1 stage=read wall='' binds=() stdin=/dev/null
	shift
	while [ $# -gt 0 ]; do
		case $1 in
		--stage) stage=$2; shift 2 ;;
		--time) wall=$2; shift 2 ;;
		--ro) binds+=(--ro-bind "$2" "$2"); shift 2 ;;
		--rw) binds+=(--bind "$2" "$2"); shift 2 ;;
		--hide) binds+=(--tmpfs "$2"); shift 2 ;;
		--stdin) stdin=/dev/stdin; shift ;;
		--) shift; break ;;
		*) die "sandbox_run: unknown option $1" ;;
		esac
	done
	[ -n "$slot" ] || { "$@"; return; }
	slot=$(realpath -e -- "$slot")

	local mode w c a f status=0
	read -r mode w c a f < <(_sandbox_limits "$stage")
	wall=${wall:-$w}
	local limits=(prlimit --cpu="$c" --as="$(numfmt --from=iec "$a")"
		--fsize="$(numfmt --from=iec "$f")" --core=0 --)
	# The same environment with or without the sandbox, and nothing else
	# of the grader's (so switching SANDBOX rebuilds nothing).
	local vars=(PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp TMPDIR=/tmp LC_ALL=C
		GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
		KBUILD_BUILD_USER=schedlab KBUILD_BUILD_HOST=schedlab
		"BUILD=$BUILD" "STAGE=${STAGE:-$stage}") v env=(--clearenv)
	for v in JOBS CROSS_COMPILE BOOT_TIMEOUT OBJ_MAX; do
		[ -z "${!v:-}" ] || vars+=("$v=${!v}")
	done
	# Without the sandbox, slots may share a compiler cache (grade-all -j);
	# in it, ccache only runs the compiler (lib.sh: KERNEL_CC).
	if [ "${SANDBOX_KIND:-$SANDBOX}" = off ] && [ -n "${CCACHE_DIR:-}" ]; then
		vars+=("CCACHE_DIR=$CCACHE_DIR" "CCACHE_BASEDIR=${CCACHE_BASEDIR:-}" "CCACHE_DEPEND=${CCACHE_DEPEND:-}")
	else
		vars+=(CCACHE_DISABLE=1)
	fi
	for v in "${vars[@]}"; do env+=(--setenv "${v%%=*}" "${v#*=}"); done
	# timeout dies with this shell (--pdeathsig), bwrap with timeout and
	# everything in the sandbox with bwrap: a killed grader leaves nothing
	# running in the slot.
	local die=(setpriv --pdeathsig KILL --)
	case ${SANDBOX_KIND:=$([ "$SANDBOX" = off ] && echo off || echo bwrap)} in
	off)
		(cd "$slot" && exec "${die[@]}" env -i "${vars[@]}" timeout -k 5 "$wall" "${limits[@]}" "$@") \
			<"$stdin" || status=$?
		;;
	uid)
		local tmp user=(setpriv --reuid="$SANDBOX_UID" --regid="$SANDBOX_UID" --clear-groups)
		tmp=$(mktemp -d "$BUILD/grading/tmp.XXXXXX")
		chown "$SANDBOX_UID:$SANDBOX_UID" "$tmp"
		(
			_sandbox_close_fds
			cd "$slot" && exec "${die[@]}" timeout -k 5 "$wall" \
				"${user[@]}" --inh-caps=-all --bounding-set=-all --no-new-privs -- \
				env -i "${vars[@]}" HOME="$tmp" TMPDIR="$tmp" "${limits[@]}" "$NO_NETWORK" "$@"
		) <"$stdin" || status=$?
		# Whatever the stage left running (a process of its user that
		# left the timeout's group) goes with it.
		"${user[@]}" -- bash -c 'kill -KILL -1' 2>/dev/null || true
		rm -rf "$tmp"
		;;
	*)
		local user=() drop=()
		if [ "$(id -u)" = 0 ]; then
			drop=(setpriv --reuid="$SANDBOX_UID" --regid="$SANDBOX_UID" --clear-groups
				--inh-caps=-all --bounding-set=-all --)
		else
			user=(--unshare-user --disable-userns --uid "$SANDBOX_UID" --gid "$SANDBOX_UID" --cap-drop ALL)
		fi
		local sys=() all=() dirs=() pre=() d i
		mapfile -d '' -t sys < <(_sandbox_system)
		# bwrap makes a bound path's missing parents 0700: make them 0755.
		all=("${sys[@]}" --bind "$slot" "$slot" "${binds[@]}")
		for ((i = 0; i < ${#all[@]}; i++)); do
			case ${all[$i]} in
			--ro-bind | --bind) d=${all[$((i + 2))]}; i=$((i + 2)) ;;
			--tmpfs) d=${all[$((i + 1))]}; i=$((i + 1)) ;;
			*) continue ;;
			esac
			while [[ $d == /*/* ]]; do d=${d%/*}; dirs+=("$d"); done
		done
		mapfile -t dirs < <(printf '%s\n' "${dirs[@]}" | LC_ALL=C sort -u)
		for d in "${dirs[@]}"; do pre+=(--perms 0755 --dir "$d"); done
		# A subshell that closes every descriptor but 0-2, then bwrap.
		(
			_sandbox_close_fds
			exec "${die[@]}" timeout --foreground -k 5 "$wall" \
				"$BWRAP" --die-with-parent --new-session \
				--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try \
				"${user[@]}" "${env[@]}" \
				--proc /proc --dev /dev --perms 1777 --size 536870912 --tmpfs /tmp \
				"${pre[@]}" "${sys[@]}" \
				"--$([ "$mode" = rw ] || echo ro-)bind" "$slot" "$slot" "${binds[@]}" --chdir "$slot" \
				-- "${drop[@]}" "${limits[@]}" "$@"
		) <"$stdin" || status=$?
		;;
	esac
	if [ $status = 124 ]; then
		printf 'sandbox: the %s stage reached its time limit (%s s) and was stopped\n' "$stage" "$wall" >&2
	fi
	return $status
}
