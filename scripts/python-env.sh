#!/usr/bin/env bash
# The Python environment of the package (python/) and the notebooks: a venv at
# ${LEONTIEF_VENV:-target/python-venv} with the pinned python/requirements-dev.txt (maturin,
# pytest, pandas) and notebooks/requirements.txt when present, then the package built from
# source (`pip install ./python`, release build, abi3 wheel); rebuilt only when the Rust or
# Python sources changed since the last install. Prints the venv's path on standard output.
# Needs python3 (3.9 or newer) with venv, the Rust toolchain, and PyPI. With
# `--requirements-only` it stops after the pins: the test script installs them while Cargo
# compiles, since the download is network-bound.
set -euo pipefail
requirements_only=false
case "${1:-}" in
    --requirements-only) requirements_only=true ;;
    "") ;;
    *) echo "python-env: unknown argument ${1} (expected --requirements-only)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
root="$(pwd)"
venv="${LEONTIEF_VENV:-target/python-venv}"
case "$venv" in /*) ;; *) venv="$root/$venv" ;; esac
python="${PYTHON:-python3}"

log() { echo "python-env: $*" >&2; }

if [ ! -x "$venv/bin/python" ]; then
    log "creating $venv"
    "$python" -m venv "$venv"
fi
# The build backend runs the venv's maturin by name.
export PATH="$venv/bin:$PATH"
pip() { "$venv/bin/python" -m pip --disable-pip-version-check -q "$@"; }

# Requirements: reinstalled when a pin file changes.
reqs=(python/requirements-dev.txt)
[ -f notebooks/requirements.txt ] && reqs+=(notebooks/requirements.txt)
req_stamp="$(cat "${reqs[@]}" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$venv/.leontief-requirements" 2>/dev/null)" != "$req_stamp" ]; then
    log "installing ${reqs[*]}"
    args=()
    for r in "${reqs[@]}"; do args+=(-r "$r"); done
    pip install "${args[@]}" >&2
    echo "$req_stamp" > "$venv/.leontief-requirements"
fi
if $requirements_only; then
    echo "$venv"
    exit 0
fi

# The package: rebuilt when any source it is built from changed (the workspace's Rust
# sources and manifests, the Python sources).
src_stamp="$(
    {
        git ls-files -z -- Cargo.toml Cargo.lock src solver hdrf counterexamples python 2>/dev/null \
            | xargs -0 sha256sum 2>/dev/null
        git status --porcelain -- src solver hdrf counterexamples python Cargo.toml Cargo.lock 2>/dev/null
    } | sha256sum | cut -d' ' -f1
)"
if [ "$(cat "$venv/.leontief-package" 2>/dev/null)" != "$src_stamp" ] \
    || ! "$venv/bin/python" -c "import leontief" 2>/dev/null; then
    log "building and installing ./python (release)"
    # The pinned maturin from requirements-dev.txt builds it (no isolated build env).
    pip install --no-build-isolation --force-reinstall --no-deps ./python >&2
    echo "$src_stamp" > "$venv/.leontief-package"
fi
echo "$venv"
