#!/bin/bash
# Gradescope autograder setup: runs once, as root, when the autograder image
# is built; the kit is unpacked in /autograder/source.
#
# Installs the Debian packages and the arm64 sysroot, prepares the starter
# tree and grades the empty submission once, so that the grading slot's
# kernel is built and every student's submission is an incremental build.
#
# Needs a Debian 12 base image (for linux-source-6.1); elsewhere, put
# Debian's linux-source-6.1.tar.xz in the bundle and set TARBALL to it.
set -euo pipefail
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
command -v make >/dev/null || { apt-get update -qq && apt-get install -y -qq make; }
empty=$(mktemp)
make setup initramfs tools
make grade SUBMISSION="$empty" OUT="$(mktemp -d)" >/dev/null
rm -f "$empty"
echo "schedlab autograder ready"
