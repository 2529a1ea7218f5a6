#!/bin/bash
# The kit's container image (../Containerfile): Debian 12 with the host's
# tools of setup-host.sh, for students on any system and for CI.
#
#   container.sh build [BASE]      the image $IMAGE (default localhost/schedlab),
#                                  FROM BASE (default: the Containerfile's)
#   container.sh run DIR CMD...    CMD in that image, with DIR (a clone of the
#                                  kit) mounted at /kit as its working folder
#   container.sh base TAG          a Debian 12 base image TAG made here with
#                                  mmdebstrap (no registry: CI pulls nothing)
#   container.sh engine ARGS...    the engine itself, with this host's options
#                                  (those below; the limits for build and run)
#
# podman (or docker: ENGINE=docker).  On a host whose cgroups are not all
# version 2 (hybrid), podman needs runc and cgroupfs (crun refuses); the
# container's open-file limit is asked no higher than this shell's hard
# one, and its process limit is 4096: runc could not set podman's defaults
# here (nor this shell's hard process limit, 96555).
# The network is the host's (--network host): the image build installs
# packages and make grade fetches Debian 12's, nothing else needs one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
STAGE=container

IMAGE=${IMAGE:-localhost/schedlab}
ENGINE=${ENGINE:-podman}
engine=("$ENGINE")
if [ "$ENGINE" = podman ] && [ ! -f /sys/fs/cgroup/cgroup.controllers ]; then
	engine+=(--runtime runc --cgroup-manager cgroupfs)
fi
limits=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)")
limits+=(--ulimit nproc=4096:4096)

case ${1:-} in
engine)
	shift
	case ${1:-} in
	build | run) "${engine[@]}" "$1" "${limits[@]}" "${@:2}" ;;
	*) "${engine[@]}" "$@" ;;
	esac
	;;
build)
	base=()
	[ -z "${2:-}" ] || base=(--build-arg "BASE=$2")
	stage "building the image $IMAGE (Containerfile${2:+, FROM $2})"
	"${engine[@]}" build -q --network host "${limits[@]}" "${base[@]}" -t "$IMAGE" \
		-f "$KIT/Containerfile" "$KIT"
	;;
run)
	dir=$(realpath -e -- "$2")
	shift 2
	"${engine[@]}" run --rm --network host "${limits[@]}" -v "$dir:/kit" -w /kit "$IMAGE" "$@"
	;;
base)
	command -v mmdebstrap >/dev/null || die "mmdebstrap is not installed (Debian: apt-get install mmdebstrap)"
	tar=$BUILD/container/debian12.tar
	mkdir -p "$(dirname "$tar")"
	stage "a Debian 12 base image $2, made with mmdebstrap"
	mmdebstrap -q --variant=apt bookworm "$tar"
	"${engine[@]}" import -q "$tar" "$2" >/dev/null
	rm -f "$tar"
	;;
*)
	echo "usage: container.sh build [BASE] | run DIR CMD... | base TAG | engine ARGS..." >&2
	exit 2
	;;
esac
