#!/usr/bin/env bash
# Smoke-test a frozen GoldenLens bundle (packaging/build.sh runs it at the end):
#   1. the frozen CLI scores the bundled sample to JSON, and each pipeline's factual-knowledge
#      mean is the sample README's (Pipeline1 0.8, Pipeline2 0.4, Pipeline3 0.5);
#   2. `goldenlens doctor` runs (it reports, it does not fail the test);
#   3. the frozen desktop app opens the sample offscreen, scores it, prints the same means and
#      quits by itself with exit 0 (the hidden --smoke-test flag, goldenlens.ui.smoke).
# Everything runs in a throw-away HOME/data/config folder: the user's projects are not touched.
# Usage: packaging/smoke_test.sh [BUNDLE_DIR]   (default: packaging/build/dist/goldenlens)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bundle="$(cd "${1:-$here/build/dist/goldenlens}" && pwd)"
cli="$bundle/goldenlens"
gui="$bundle/goldenlens-desktop"
for program in "$cli" "$gui"; do
  [[ -x "$program" ]] || { echo "smoke test: no executable $program" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" \
  XDG_CACHE_HOME="$work/cache" GOLDENLENS_DATA_DIR="$work/goldenlens-data" \
  GOLDENLENS_CONFIG_DIR="$work/goldenlens-config" QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME"
expected="Pipeline1=0.8, Pipeline2=0.4, Pipeline3=0.5"  # resources/sample/README.md

echo "-- frozen CLI: goldenlens score on the bundled sample"
sample="$(find "$bundle" -path '*goldenlens/resources/sample' -type d | head -n 1)"
[[ -n "$sample" ]] || { echo "smoke test: the bundle has no goldenlens/resources/sample" >&2; exit 1; }
(cd "$work" && "$cli" --version && "$cli" score "$sample/golden.csv" "$sample/responses.csv" -o "$work/sample.json" -q)
# The build machine's python3 reads the JSON (build.sh needs it anyway; the bundle does not).
means="$(python3 - "$work/sample.json" <<'PY'
import json, sys
summary = json.load(open(sys.argv[1], encoding="utf-8"))["summary"]
print(", ".join(f"{name}={summary[name]['factual_knowledge']:.4g}" for name in sorted(summary)))
PY
)"
echo "factual_knowledge means: $means"
[[ "$means" == "$expected" ]] || { echo "smoke test: CLI means are not $expected" >&2; exit 1; }

echo "-- frozen CLI: the bundled models through llama.cpp (q01: semantic_similarity, faithfulness)"
(cd "$work" && "$cli" score "$sample/golden.csv" "$sample/responses.csv" --only q01 \
  --metrics semantic_similarity,faithfulness --threads 2 -o "$work/judge.json" -q)
# semantic_similarity of q01 as the development install (llama.cpp built for its own CPU)
# computes it with the same all-MiniLM-L6-v2: the bundle's portable build must agree.
python3 - "$work/judge.json" <<'PY'
import json, sys
expected = {"Pipeline1": 0.9806, "Pipeline2": 0.9409, "Pipeline3": 0.8334}
rows = [r for r in json.load(open(sys.argv[1], encoding="utf-8"))["rows"] if r["question_id"] == "q01"]
wrong = []
for row in sorted(rows, key=lambda r: r["pipeline"]):
    judge, status = row["judge"], row["judge_status"]
    print(f"{row['pipeline']}: {judge} {status}")
    if status != {"semantic_similarity": "scored", "faithfulness": "scored"}:
        wrong.append(f"{row['pipeline']}: not scored: {row['judge_reasons']}")
    elif abs(judge["semantic_similarity"] - expected[row["pipeline"]]) > 0.005:
        wrong.append(f"{row['pipeline']}: semantic_similarity {judge['semantic_similarity']:.4f}, "
                     f"expected {expected[row['pipeline']]}")
if len(rows) != 3 or wrong:
    sys.exit("smoke test: " + ("; ".join(wrong) or f"{len(rows)} rows of q01, expected 3"))
PY

echo "-- frozen CLI: goldenlens doctor (informational)"
(cd "$work" && "$cli" doctor) || echo "(doctor reported missing pieces: see above)"

echo "-- frozen desktop app: --smoke-test offscreen"
out="$(cd "$work" && timeout 600 "$gui" --smoke-test)" || { echo "smoke test: the desktop app failed" >&2; exit 1; }
echo "$out"
[[ "$out" == *"factual_knowledge means $expected"* ]] \
  || { echo "smoke test: the desktop app's means are not $expected" >&2; exit 1; }

echo "-- bundle size: $(du -sh "$bundle" | cut -f1)  ($bundle)"
echo "smoke test passed"
