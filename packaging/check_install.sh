#!/usr/bin/env bash
# Build the wheel, install it NON-editable into a throw-away venv and score the bundled sample
# from there: proves the resources ship inside the package and nothing reads the checkout.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "$root"
cd "$work"
"$work/venv/bin/goldenlens" sample --out-dir "$work/out"
"$work/venv/bin/python" -m goldenlens score \
  "$("$work/venv/bin/python" -c 'from goldenlens.io.importing.sample import sample_dir; print(sample_dir() / "golden.csv")')" \
  "$("$work/venv/bin/python" -c 'from goldenlens.io.importing.sample import sample_dir; print(sample_dir() / "responses_wide.csv")')" \
  -o "$work/out/wide.json" -q
echo "non-editable install OK: $(ls "$work/out")"
