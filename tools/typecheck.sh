#!/usr/bin/env bash
# mypy --strict over the package as it is imported (artproject.core = core/, ...) and bench/:
# setuptools maps the folders at install time, so mypy reads them through a tree of links.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir "$tree/artproject"
for f in "$root"/artproject/*; do ln -s "$f" "$tree/artproject/"; done
for d in core dsl missions cards; do ln -s "$root/$d" "$tree/artproject/$d"; done
cd "$tree"
# and the bench scripts, as the modules they are to each other (bench/), with a test's
# helper (tests/serving.py) beside
bench=()
for f in "$root"/bench/*.py; do bench+=(-m "$(basename "$f" .py)"); done
MYPYPATH="$tree:$root/bench:$root" python -m mypy --config-file "$root/pyproject.toml" \
    -p artproject "${bench[@]}" "$@" | sed -e "s#^artproject/#$root/#" -e "s#^bench/#$root/bench/#"
exit "${PIPESTATUS[0]}"
