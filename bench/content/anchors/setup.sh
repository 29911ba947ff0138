#!/usr/bin/env bash
# Builds the content benchmark's anchors (other extractors run side by side with ours):
#   rs-trafilatura 0.2.2 (crates.io, a small Rust harness built with cargo)
#   trafilatura 2.3.1 (PyPI, in a virtualenv)
# into bench/content/.anchors (git-ignored). Nothing of either project is committed; both are
# fetched by their own package managers. Run from anywhere; idempotent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../.anchors"
mkdir -p "$out"

command -v cargo >/dev/null || { echo "cargo not found: install Rust (rustup) to build the rs-trafilatura anchor" >&2; exit 1; }
cargo build --release --locked --manifest-path "$here/rs-trafilatura/Cargo.toml" --target-dir "$out/cargo"
ln -sf "$out/cargo/release/rs-trafilatura-bench" "$out/rs-trafilatura-bench"

python="${PYTHON:-python3}"
if [ ! -x "$out/venv/bin/python" ]; then "$python" -m venv "$out/venv"; fi
"$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$out/venv/bin/python" -c 'import trafilatura; print("trafilatura", trafilatura.__version__)'
echo "anchors ready in $out"
