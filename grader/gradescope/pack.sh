#!/bin/bash
# make gradescope: build/gradescope/autograder.zip in Gradescope's layout:
# setup.sh and run_autograder at the top, next to the whole kit (its
# tracked and untracked-but-not-ignored files; never the build folder).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
STAGE=gradescope

zip_path=$1
stagedir=$(mktemp -d)
trap 'rm -rf "$stagedir"' EXIT
(cd "$KIT" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$stagedir")
cp "$KIT/grader/gradescope/setup.sh" "$KIT/grader/gradescope/run_autograder" "$stagedir/"
mkdir -p "$(dirname "$zip_path")"
rm -f "$zip_path"
(cd "$stagedir" && zip -q -r -X "$zip_path" .)
stage "wrote $zip_path ($(du -h "$zip_path" | cut -f1))"
