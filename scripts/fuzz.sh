#!/usr/bin/env bash
# Fuzzes leontief's readers with cargo-fuzz (libFuzzer): each target of fuzz/fuzz_targets for
# SECONDS (default 600) from its seeds (fuzz/seeds/TARGET) and kept corpus (fuzz/corpus/TARGET),
# then minimises the corpus and replays it. Needs a nightly toolchain (`rustup toolchain
# install nightly`) and cargo-fuzz (`cargo install cargo-fuzz`). A crash stops the run with its
# input in fuzz/artifacts/TARGET: fix it, copy the input into fuzz/corpus/TARGET, run again.
#
#   bash scripts/fuzz.sh                 # every target, 10 minutes each
#   bash scripts/fuzz.sh 60 kueue_yaml   # one target, one minute
#
# The replay alone (no nightly needed) is part of `cargo test`: the integration tests'
# fuzzing::corpus_replays.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(flat_json tree_json yarn_xml kueue_yaml rational)

# Sanitizer none: the code is safe Rust (unsafe_code is forbidden), so AddressSanitizer finds
# nothing more and would slow each execution several times; panics, stack overflows,
# timeouts and out-of-memory are still caught by libFuzzer.
flags=(--sanitizer none --release)
cargo +nightly fuzz build "${flags[@]}"
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    echo "== $t: $seconds s"
    # A reader must answer each input within 10 s and 2 GB: work is bounded.
    cargo +nightly fuzz run "${flags[@]}" "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    cargo +nightly fuzz cmin "${flags[@]}" "$t" "corpus/$t"
done
cd .. && cargo test --release --locked --test integration fuzzing::
