#!/usr/bin/env bash
# mypy --strict over the package as it is imported (artproject.core = core/, ...):
# setuptools maps the folders at install time, so mypy reads them through a tree of links.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir "$tree/artproject"
for f in "$root"/artproject/*; do ln -s "$f" "$tree/artproject/"; done
for d in core dsl missions cards; do ln -s "$root/$d" "$tree/artproject/$d"; done
cd "$tree"
python -m mypy --config-file "$root/pyproject.toml" -p artproject "$@" | sed "s#^artproject/#$root/#"
exit "${PIPESTATUS[0]}"
