#!/bin/bash
# The guest's device tree: QEMU's own for "-machine virt" (dumpdtb), with
# capacity-dmips-mhz set on each CPU from a topology file.
#
#   make-dtb.sh TOPOLOGY.caps OUT.dtb
set -euo pipefail
. "$(dirname "$0")/lib.sh"

caps=$(grep -v '^#' "$1" | tr -s ' \n' ' ')
out=$2
# shellcheck disable=SC2086
set -- $caps
qemu-system-aarch64 $(qemu_machine_args "$#") -machine dumpdtb="$out.tmp" >/dev/null 2>&1 ||
	die "qemu could not dump its device tree"
cpu=0
for cap in "$@"; do
	fdtput -t i "$out.tmp" "/cpus/cpu@$cpu" capacity-dmips-mhz "$cap"
	cpu=$((cpu + 1))
done
mv "$out.tmp" "$out"
