#!/usr/bin/env bash
# The project's whole test suite: formatting, lints, every test of every crate (unit,
# integration, proptest, doc tests including the guide's Rust example) in release mode with
# overflow checks on, then the Python package's tests and the notebooks. Needs the Rust
# toolchain (cargo, rustfmt, clippy) and python3 with venv; crates come through Cargo.lock,
# Python packages (and z3, for `leontief prove`) from the pinned python/requirements-dev.txt and
# notebooks/requirements.txt. For a quick check before a commit, scripts/test-quick.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step prints the seconds since the start, so a slow step shows in the log.
step() { echo "== [${SECONDS}s] $*"; }

# Property tests draw from a fixed seed so that a run is reproducible; set PROPTEST_RNG_SEED
# to explore other cases (failures are kept in tests/proptest-regressions/).
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-2011}"

step "cargo fmt --check"
cargo fmt --all -- --check
# The project venv's pins (with `z3`, the solver `leontief prove` and its tests run; under
# CI=true those tests fail without it) download while the tests compile.
step "Python pins (pinned venv under target/, with z3), in the background"
pins_log="$(mktemp)"
bash scripts/python-env.sh --requirements-only >"$pins_log" 2>&1 &
pins_pid=$!
step "cargo test --no-run (release, overflow checks on)"
cargo test --workspace --release --locked --no-run
step "waiting for the Python pins"
if ! wait "$pins_pid"; then
    cat "$pins_log" >&2
    exit 1
fi
venv="$(tail -n 1 "$pins_log")"
rm -f "$pins_log"
export PATH="$venv/bin:$PATH"
step "cargo test (release, overflow checks on)"
cargo test --workspace --release --locked
# Clippy in the release profile, after the tests: the build scripts and proc macros the test
# build compiled are reused rather than compiled again for the dev profile.
step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked --release -- -D warnings
step "Python package (pytest; builds and installs ./python into the pinned venv under target/)"
bash scripts/python-tests.sh -q
step "notebooks (on the leontief package, in the same venv)"
bash scripts/notebooks.sh
step "done"
