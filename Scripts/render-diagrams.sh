#!/usr/bin/env bash
# Renders the documentation's diagrams: every Graphviz source (*.dot) in the DocC
# catalog becomes the PNG beside it, which the articles show. Edit the .dot file,
# run this script, and commit both.
#
#   Scripts/render-diagrams.sh          # needs Graphviz's `dot` (Debian: apt-get install graphviz)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v dot >/dev/null; then
    echo "render-diagrams: Graphviz's dot is not installed (apt-get install graphviz)" >&2
    exit 1
fi

shopt -s nullglob
sources=(Documentation/StateRestoration.docc/*.dot)
if [ ${#sources[@]} -eq 0 ]; then
    echo "render-diagrams: no .dot files in Documentation/StateRestoration.docc" >&2
    exit 1
fi
for source in "${sources[@]}"; do
    png="${source%.dot}.png"
    dot -Tpng -Gdpi=110 "$source" -o "$png"
    echo "$source -> $png"
done
