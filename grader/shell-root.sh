#!/bin/bash
# The tools of "make shell": util-linux's chrt (SCHED_DEADLINE too),
# taskset and uclampset, rt-app and trace-cmd, from Debian's arm64
# packages, with the shared libraries they load.
#
#   shell-root.sh	writes $BUILD/shell-root (only what the guest gets)
#
# The packages come from Debian 12 through lib.sh's debian12_fetch (the
# kit's own package list, "apt-get download" by exact name), are unpacked
# with dpkg-deb into $BUILD/shell-sysroot and never installed.  Which libraries: the ELF NEEDED entries of the
# tools, read with the cross binutils, followed until every one is found;
# a library no package fetched so far has is looked for among their
# library dependencies (Depends and Pre-Depends named lib* or zlib*, as
# Debian names library packages), one level at a time.  So rt-app's
# dependency on python3 (for a helper script) is never fetched.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS="util-linux rt-app trace-cmd libtraceevent1-plugin libgcc-s1"
TOOLS="usr/bin/chrt usr/bin/taskset usr/bin/uclampset usr/bin/rt-app usr/bin/trace-cmd"
MULTIARCH=aarch64-linux-gnu
# Loaded with dlopen, not named in NEEDED: sched_switch's output format for
# trace-cmd report, and the unwinder glibc needs for pthread_exit (rt-app).
DLOPEN="usr/lib/$MULTIARCH/traceevent/plugins lib/$MULTIARCH/libgcc_s.so.1"
LIBDIRS="lib/$MULTIARCH usr/lib/$MULTIARCH lib usr/lib"
SYS=$BUILD/shell-sysroot
ROOT=$BUILD/shell-root
LOG=$BUILD/shell-root.log
READELF=${CROSS_COMPILE:-aarch64-linux-gnu-}readelf

[ -f "$ROOT/.done" ] && exit 0
stage "fetching the shell's arm64 tools into $ROOT (log: $LOG)"
: >"$LOG"
rm -rf "$SYS" "$ROOT"
mkdir -p "$SYS/debs" "$ROOT"
# The package list setup-host.sh made, or a new one.
if ! compgen -G "$BUILD/apt/lists/*_Packages*" >/dev/null; then
	debian12_apt apt-get update >>"$LOG" 2>&1 || die_log "$LOG" "apt-get update failed"
fi

# fetch PKG...: download and unpack the packages not fetched yet.
fetched=" "
fetch() {
	local p new=()
	for p in "$@"; do
		[[ $fetched == *" $p "* ]] || new+=("$p")
	done
	[ ${#new[@]} -gt 0 ] || return 0
	debian12_fetch "$SYS/debs" "${new[@]}" >>"$LOG" 2>&1 ||
		die_log "$LOG" "apt-get could not fetch: ${new[*]}"
	for p in "${new[@]}"; do
		dpkg-deb -x "$SYS/debs/${p}_"*.deb "$SYS"
		fetched="$fetched$p "
	done
}

# find_lib SONAME: its path in $SYS, relative, or nothing.
find_lib() {
	local d
	for d in $LIBDIRS; do
		[ ! -e "$SYS/$d/$1" ] || { echo "$d/$1"; return; }
	done
}

# closure: every file the guest needs (the tools, the dlopened files and
# each library they need, transitively), one relative path a line; the
# sonames not found are in $missing.
closure() {
	local todo=() f so lib
	declare -A seen=()
	missing=
	for f in $TOOLS $DLOPEN; do
		if [ -d "$SYS/$f" ]; then
			mapfile -t -O ${#todo[@]} todo < <(cd "$SYS" && find "$f" -type f -name '*.so*')
		else
			todo+=("$f")
		fi
	done
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		[ -z "${seen[$f]:-}" ] || continue
		seen[$f]=1
		[ -e "$SYS/$f" ] || { missing="$missing ${f##*/}"; continue; }
		echo "$f"
		# The loader named in the program header, /lib/ld-linux-aarch64.so.1.
		lib=$("$READELF" -l "$SYS/$f" | sed -n 's|.*interpreter: /\(.*\)\]|\1|p')
		[ -z "$lib" ] || todo+=("$lib")
		for so in $("$READELF" -d "$SYS/$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			lib=$(find_lib "$so")
			if [ -n "$lib" ]; then todo+=("$lib"); else
				[[ " $missing " == *" $so "* ]] || missing="$missing $so"
			fi
		done
	done
}

# shellcheck disable=SC2086
fetch $PKGS
# Each round fetches one more level of library dependencies.
for _ in 1 2 3 4 5; do
	closure >"$SYS/files"
	[ -n "$missing" ] || break
	deps=$(for p in $fetched; do
		debian12_apt apt-cache depends --important "$p" 2>>"$LOG" |
			sed -n 's/^ *|\?\(Pre\)\?Depends: \(lib[^ <>]*\|zlib[^ <>]*\)$/\2/p'
	done | sort -u)
	before=$fetched
	# shellcheck disable=SC2086
	fetch $deps
	[ "$fetched" != "$before" ] || break
done
[ -z "$missing" ] || die "no package fetched has:$missing (log: $LOG)"

# Each file as a file: a symbolic link (a soname, the loader's path) is
# copied as what it points to.
(cd "$SYS" && xargs -a files cp -L --preserve=mode --parents -t "$ROOT/")
stage "shell tools: $(wc -l <"$SYS/files") files, $(du -sh "$ROOT" | cut -f1); packages:$fetched"
touch "$ROOT/.done"
