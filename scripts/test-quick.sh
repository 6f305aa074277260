#!/usr/bin/env bash
# The quick check before a commit: formatting, lints, every crate's unit tests and the
# command line's end-to-end tests, in release mode (under two minutes once built). The full
# suite — integration tests of every crate, property tests, doc tests, the notebooks — is
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-2011}"

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy -D warnings"
cargo clippy --workspace --all-targets --locked --release -- -D warnings
echo "== unit tests (release)"
cargo test --workspace --release --locked --lib
echo "== command-line tests (release)"
cargo test --release --locked -p leontief --tests
