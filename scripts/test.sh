#!/usr/bin/env bash
# The project's whole test suite: formatting, lints, every test of every crate (unit,
# integration, proptest, doc tests including the README's example) in release mode with
# overflow checks on, then the notebooks. Needs the Rust toolchain (cargo, rustfmt, clippy)
# and python3 with venv; crates come through Cargo.lock, Python packages from the pinned
# notebooks/requirements.txt. For a quick check before a commit, scripts/test-quick.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# Property tests draw from a fixed seed so that a run is reproducible; set PROPTEST_RNG_SEED
# to explore other cases (failures are kept in *.proptest-regressions files).
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-2011}"

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test (release, overflow checks on)"
cargo test --workspace --release --locked
echo "== notebooks (on the leontief package, in the shared venv scripts/python-env.sh builds)"
bash scripts/notebooks.sh
