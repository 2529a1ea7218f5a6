#!/bin/bash
# Stage 3 of grading: configure and build a lab kernel out of tree.
#
#   build-kernel.sh SRC OBJ
#
# The config is arm64 tinyconfig + kconfig/*.config, merged with the
# kernel's own merge_config.sh; it is remade only when a fragment changed
# (or there is no .config yet).  Every option of the fragments must survive
# olddefconfig, or the build stops and names the ones that did not.
# Output: OBJ/arch/arm64/boot/Image; the whole log in OBJ/build.log.
# Exit status: 0 built, 1 the kernel does not build (the compiler's errors
# in OBJ/build-errors.txt), 2 it could not be configured (the kit's or this
# machine's fault: the tree's own Kconfig is not the student's to change).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SRC=$(cd "$1" && pwd)
OBJ=$2
mkdir -p "$OBJ"
OBJ=$(cd "$OBJ" && pwd)
LOG=$OBJ/build.log
JOBS=${JOBS:-$(nproc)}
KMAKE=(make -C "$SRC" O="$OBJ" ARCH=arm64 CROSS_COMPILE="${CROSS_COMPILE:-aarch64-linux-gnu-}" -j"$JOBS")
if [ -n "${CCACHE_DIR:-}" ] && command -v ccache >/dev/null; then
	KMAKE+=(CC="ccache aarch64-linux-gnu-gcc")
fi
FRAGMENTS=("$KIT"/kconfig/*.config)

: >"$LOG"
stamp=$(cat "${FRAGMENTS[@]}" | md5sum | cut -d' ' -f1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.config.schedlab" 2>/dev/null)" != "$stamp" ]; then
	stage "configuring (tinyconfig + $(cd "$KIT" && echo kconfig/*.config))"
	{
		"${KMAKE[@]}" tinyconfig &&
		# merge_config.sh keeps its temporary files in the current folder.
		(cd "$OBJ" && ARCH=arm64 "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" \
			"$OBJ/.config" "${FRAGMENTS[@]}") &&
		"${KMAKE[@]}" olddefconfig
	} >>"$LOG" 2>&1 || DIE_STATUS=2 die_log "$LOG" "kernel configuration failed"
	lost=$(cat "${FRAGMENTS[@]}" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=\(.*\)$/\1=\2/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1=n/p' |
		while IFS='=' read -r opt val; do
			got=$(sed -n "s/^$opt=\(.*\)/\1/p" "$OBJ/.config")
			[ -n "$got" ] || got=n
			[ "$got" = "$val" ] || echo "  $opt: wanted $val, got $got"
		done)
	if [ -n "$lost" ]; then
		rm -f "$OBJ/.config.schedlab"
		printf 'error: these config options did not survive olddefconfig:\n%s\n' "$lost" >&2
		exit 2
	fi
	echo "$stamp" >"$OBJ/.config.schedlab"
fi

stage "building $(basename "$SRC") in $OBJ"
rm -f "$OBJ/build-errors.txt"
"${KMAKE[@]}" Image >>"$LOG" 2>&1 || {
	# The compiler's and linker's own errors name the file and line.
	grep -E '(error|undefined reference|Error [0-9]+)' "$LOG" |
		grep -v '^make' | head -n 20 >"$OBJ/build-errors.txt" || true
	[ -s "$OBJ/build-errors.txt" ] || tail -n 20 "$LOG" >"$OBJ/build-errors.txt"
	sed 's/^/  | /' "$OBJ/build-errors.txt" >&2
	die "the kernel does not build (full log: $LOG)"
}
