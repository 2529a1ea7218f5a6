# shellcheck shell=bash
# The sandbox of instructor grading: every stage that touches a submission
# (apply, build, checkpatch, boot) runs in it.  Sourced after lib.sh.
#
#   sandbox_require        die, saying why, unless the sandbox works here
#                          (SANDBOX=off: run without it, and say so)
#   sandbox_run SLOTDIR [--stage STAGE] [--time S] [--ro PATH]... [--rw PATH]...
#               [--hide DIR]... [--stdin] -- CMD...
#                          CMD in SLOTDIR's sandbox, within STAGE's limits;
#                          an empty SLOTDIR runs CMD as it is (a student's
#                          own "make grade": no sandbox, no limits)
#   sandbox_own PATH...    make PATHs (made by the grader) the sandbox user's
#
# The sandbox (bubblewrap): an unprivileged user (uid SANDBOX_UID, 65534 by
# default) with no capabilities, no network (a namespace with only "lo"),
# its own PID, IPC and UTS namespaces, a new session (no terminal to push
# input into) and no file descriptor of the grader but stdin (/dev/null
# unless --stdin), stdout and stderr.  It sees the system's /usr and the few
# /etc files the toolchain needs, read-only; the kit's grader/, kconfig/,
# labs/ and initramfs/, read-only (never reference-patches/, the kit's git
# history, $HOME, the build folder's other contents: other slots, results,
# hidden tests); SLOTDIR read-write (the slot's tree and build folder); each
# --ro/--rw PATH; a private /tmp.  --hide DIR shows an empty DIR instead
# (the slot's .git during the build).
#
# As root, bubblewrap sets the namespaces up and setpriv then drops to
# SANDBOX_UID for real, so the slot must belong to that user (sandbox_own,
# which the slot's maker calls); as a plain user, bubblewrap maps
# SANDBOX_UID inside onto the grader's own uid, so the slot already is.
#
# A stage each: whether SLOTDIR is writable (only applying a submission
# writes the tree; the build writes only the build folder it is given with
# --rw), and limits (wall-clock s, CPU s a process, address space a
# process, size of any file written: timeout(1) and prlimit(1)).  A run that
# reaches its wall-clock limit is killed with everything it started and
# returns 124.  A boot's logs stop at 8 MB in boot.exp (the "flood"
# verdict); the boot's file size limit is only a backstop past that.
SANDBOX=${SANDBOX:-on}
BWRAP=${BWRAP:-bwrap}
SANDBOX_UID=${SANDBOX_UID:-65534}

#	stage   slot  wall  cpu   address space  file size
SANDBOX_LIMITS="
	apply   rw    600   600   2G             256M
	build   ro    2400  900   3G             128M
	check   ro    300   300   1G             64M
	boot    ro    600   2400  4G             9M
	read    ro    120   60    512M           64M
"

# sandbox_why: why the sandbox cannot run here (empty when it can).
sandbox_why() {
	command -v "$BWRAP" >/dev/null ||
		{ echo "bubblewrap is not installed (Debian: apt-get install bubblewrap)"; return; }
	command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
		{ echo "setpriv or prlimit is missing (Debian: util-linux)"; return; }
	local probe=$BUILD/grading/probe err
	mkdir -p "$probe"
	err=$(sandbox_run "$probe" -- test -r "$KIT/grader/lib.sh" 2>&1) ||
		echo "bubblewrap does not start here, or its user ($SANDBOX_UID) cannot read the kit: ${err:-no message}"
}

sandbox_require() {
	local why
	if [ "$SANDBOX" = off ]; then
		stage "SANDBOX=off: the submission is applied, built and booted with your own rights"
		return
	fi
	why=$(sandbox_why)
	[ -z "$why" ] || die "instructor grading runs a submission's build and boot in a sandbox, and $why.
       A submission is hostile input: without the sandbox its build can read any
       file you can (and show it in the report).  To grade anyway, knowing that,
       run with SANDBOX=off."
}

sandbox_own() {
	[ "$(id -u)" != 0 ] || [ "$SANDBOX" = off ] || chown -R "$SANDBOX_UID:$SANDBOX_UID" "$@"
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
	# Without the sandbox, slots may share a compiler cache (grade-all -j).
	[ "$SANDBOX" != off ] || [ -z "${CCACHE_DIR:-}" ] ||
		vars+=("CCACHE_DIR=$CCACHE_DIR" "CCACHE_BASEDIR=${CCACHE_BASEDIR:-}")
	for v in "${vars[@]}"; do env+=(--setenv "${v%%=*}" "${v#*=}"); done
	# timeout dies with this shell (--pdeathsig), bwrap with timeout and
	# everything in the sandbox with bwrap: a killed grader leaves nothing
	# running in the slot.
	local die=(setpriv --pdeathsig KILL --)
	if [ "$SANDBOX" = off ]; then
		(cd "$slot" && exec "${die[@]}" env -i "${vars[@]}" timeout -k 5 "$wall" "${limits[@]}" "$@") \
			<"$stdin" || status=$?
	else
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
			for fd in /proc/$BASHPID/fd/*; do
				fd=${fd##*/}
				[ "$fd" -le 2 ] || eval "exec $fd>&-" 2>/dev/null || true
			done
			exec "${die[@]}" timeout --foreground -k 5 "$wall" \
				"$BWRAP" --die-with-parent --new-session \
				--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup-try \
				"${user[@]}" "${env[@]}" \
				--proc /proc --dev /dev --perms 1777 --size 536870912 --tmpfs /tmp \
				"${pre[@]}" "${sys[@]}" \
				"--$([ "$mode" = rw ] || echo ro-)bind" "$slot" "$slot" "${binds[@]}" --chdir "$slot" \
				-- "${drop[@]}" "${limits[@]}" "$@"
		) <"$stdin" || status=$?
	fi
	if [ $status = 124 ]; then
		printf 'sandbox: the %s stage reached its time limit (%s s) and was stopped\n' "$stage" "$wall" >&2
	fi
	return $status
}
