#!/bin/bash
# Gradescope autograder setup: runs once, as root, when the autograder image
# is built; the kit is unpacked in /autograder/source.
#
# Installs the Debian packages and the arm64 sysroot, prepares the starter
# tree and grades the empty submission once, so that the grading slot's
# kernel is built and every student's submission is an incremental build.
#
# The base image's packages give the tools; the kernel source and the
# guest's userland come from Debian 12's archive whatever the base (its
# debian-archive-keyring must know Debian 12's keys: README.md, "Where it
# runs").
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
command -v make >/dev/null || { apt-get update -qq && apt-get install -y -qq make; }
# Gradescope's container cannot make namespaces: the grader isolates each
# submission's stages as an unprivileged user (grader/README.md, the uid
# isolation), and opens that user's way to the kit itself (sandbox.sh).
# What this machine gives grading, said where the instructor sees it.
note=$(. grader/lib.sh && machine_note)
[ -z "$note" ] || echo "schedlab autograder setup: note: $note" >&2
empty=$(mktemp)
out=$(mktemp -d)
make setup initramfs tools
# The empty submission fails every test (status 1, which make reports as
# its own 2); only a grader error (status 2) means the image is not ready.
make grade SUBMISSION="$empty" OUT="$out" >/dev/null ||
	[ "$(cat "$out/status" 2>/dev/null)" = 1 ] ||
	{ echo "schedlab autograder setup: grading the empty submission failed (see above; its results: $out)" >&2; exit 1; }
rm -rf "$empty" "$out"
echo "schedlab autograder ready"
