# shellcheck shell=bash
# Part of make test (run.sh), not run by default (it installs podman and
# takes minutes; .ci/run runs it): the kit's container image, built with
# podman from a Debian 12 base image made here with mmdebstrap (nothing is
# pulled from a registry), and the README's "make grade LAB=1" in it on a
# copy of this kit: the starter scores 0 of the lab's tests, no grader error.

stage "container: the kit's image from a Debian 12 base made here; make grade LAB=1 in it"
CT=$SELF/container
mkdir -p "$CT"
ct_ready=1
for tool in podman mmdebstrap runc; do
	command -v "$tool" >/dev/null && continue
	if [ "$(id -u)" = 0 ]; then
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends podman mmdebstrap runc; } >"$CT/install.log" 2>&1 || true
	fi
	command -v "$tool" >/dev/null && continue
	st_ko "container: $tool is missing (apt-get install podman mmdebstrap runc)"
	ct_ready=
	break
done
if [ -n "$ct_ready" ]; then
	base=localhost/schedlab-debian:12
	if podman image exists "$base" ||
		"$KIT/grader/container.sh" base "$base" >"$CT/base.log" 2>&1; then st_ok; else
		st_ko "container: no Debian 12 base image (log: $CT/base.log)"
	fi
	if "$KIT/grader/container.sh" build "$base" >"$CT/build.log" 2>&1; then st_ok; else
		st_ko "container: the image does not build (log: $CT/build.log)"
	fi
	rm -rf "$CT/kit"
	mkdir -p "$CT/kit"
	(cd "$KIT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$CT/kit")
	# With this kit's compiler cache: the image's compiler is this
	# machine's (Debian 12's), so its cold build reuses the objects.
	[ ! -d "${CCACHE_DIR:-}" ] || { mkdir -p "$CT/kit/build" && cp -a -- "$CCACHE_DIR" "$CT/kit/build/ccache"; }
	"$KIT/grader/container.sh" run "$CT/kit" make grade LAB=1 >"$CT/grade.log" 2>&1
	res=$CT/kit/build/results
	score=$(jq -r '"\(.score) \([.tests[].max_score] | add)"' "$res/results.json" 2>/dev/null)
	if [ "$(cat "$res/status" 2>/dev/null)" = 1 ] && [ "${score% *}" = 0 ] && [ "${score#* }" -gt 0 ] 2>/dev/null; then
		st_ok
	else
		st_ko "container: make grade LAB=1 in the image: status $(cat "$res/status" 2>/dev/null || echo none), score ${score:-none}; expected 1 and 0 of the lab's points (log: $CT/grade.log)"
	fi
fi

