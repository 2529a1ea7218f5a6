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
#   container.sh gradescope BASE [CACHE]
#                                  the image $GS_IMAGE (default
#                                  localhost/schedlab-gradescope) as Gradescope
#                                  makes one: BASE, the autograder bundle
#                                  (make gradescope) in /autograder/source, and
#                                  its setup.sh run; git there trusts no
#                                  folder of another owner (as Gradescope's:
#                                  the kit's image trusts every one); with
#                                  CACHE (a compiler cache of a kit built with
#                                  BASE's compiler), the bundle's build/ccache
#                                  starts as a copy of it (make test's)
#   container.sh autograder DIR CPUS MEMORY [VAR=VALUE...]
#                                  run_autograder in a new container of that
#                                  image, at CPUS CPUs and MEMORY, with no
#                                  network: DIR/submission is the upload,
#                                  DIR/results gets results.json (and "peak",
#                                  the container's peak memory in bytes), and
#                                  DIR/canary, world-writable, is /canary
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
gradescope)
	ctx=$BUILD/container/gradescope
	rm -rf "$ctx"
	mkdir -p "$ctx/source"
	"$KIT/grader/gradescope/pack.sh" "$ctx/autograder.zip" 2>/dev/null
	(cd "$ctx/source" && unzip -q "$ctx/autograder.zip")
	[ -z "${3:-}" ] || { mkdir -p "$ctx/source/build" && cp -a -- "$3" "$ctx/source/build/ccache"; }
	cat >"$ctx/Containerfile" <<'IMAGE'
ARG BASE
FROM ${BASE}
COPY source /autograder/source
RUN { git config --system --unset-all safe.directory 2>/dev/null || true; } && \
	mkdir -p /autograder/results /autograder/submission && \
	cp /autograder/source/run_autograder /autograder/run_autograder && \
	/autograder/source/setup.sh
IMAGE
	stage "building the Gradescope image ${GS_IMAGE:=localhost/schedlab-gradescope} (FROM $2; setup.sh)"
	"${engine[@]}" build "${limits[@]}" --network host --build-arg "BASE=$2" -t "$GS_IMAGE" "$ctx"
	;;
autograder)
	dir=$(realpath -e -- "$2")
	cpus=$3 memory=$4
	shift 4
	env=()
	for v in "$@"; do env+=(-e "$v"); done
	mkdir -p "$dir/submission" "$dir/results" "$dir/canary"
	chmod 1777 "$dir/canary"
	# The peak memory: cgroup v2's memory.peak, or v1's max_usage_in_bytes.
	"${engine[@]}" run "${limits[@]}" --rm --network none --cpus "$cpus" --memory "$memory" "${env[@]}" \
		-v "$dir/submission:/autograder/submission" -v "$dir/results:/autograder/results" \
		-v "$dir/canary:/canary" "${GS_IMAGE:-localhost/schedlab-gradescope}" bash -c '
			/autograder/run_autograder
			cat /sys/fs/cgroup/memory.peak /sys/fs/cgroup/memory/memory.max_usage_in_bytes \
				>/autograder/results/peak 2>/dev/null
			exit 0'
	;;
*)
	echo "usage: container.sh build [BASE] | run DIR CMD... | base TAG | engine ARGS... | gradescope BASE [CACHE] | autograder DIR CPUS MEMORY [VAR=VALUE...]" >&2
	exit 2
	;;
esac
