#!/usr/bin/env bash
# The end-to-end / solver-only ratio of exact DRF on 100,000 users × 8 resources (BENCHMARKS.md,
# "End to end"), measured by alternating runs so that both see the same machine load.
#
#   scripts/bench-ratio.sh [RUNS] [CLI...]
#
# Each round runs the solver alone (`profile_drf -- 100000 8 5`, its time per run) and then
# `CLI solve D/flat-100k.json > D/ratio.out` for each CLI binary given (default
# target/release/leontief; give an older binary too to compare two builds in the same
# minutes). Prints the median of RUNS rounds (default 9) for each, the wall-time ratio of each
# CLI to the solver, and each CLI's median user + system time. D is $BENCH_DIR or
# /tmp/leontief-e2e (the instance is generated there as scripts/bench-end-to-end.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-9}
shift || true
clis=("$@")
[ ${#clis[@]} -gt 0 ] || clis=(target/release/leontief)
dir=${BENCH_DIR:-/tmp/leontief-e2e}
mkdir -p "$dir"
cargo build --release -q -p leontief
cargo build --release -q -p leontief-solver --example profile_drf
cargo build --release -q -p leontief-hdrf --example generate_instance
[ -s "$dir/flat-100k.json" ] ||
    target/release/examples/generate_instance flat 100000 8 42 > "$dir/flat-100k.json"

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < runs; r++)); do
    # The solver's own figure: "n=100000 m=8: 158.2ms per run, ..." (Duration's Debug).
    target/release/examples/profile_drf 100000 8 5 |
        sed -E 's/.*: ([0-9.]+)(ms|s|µs) per run.*/\1 \2/' |
        awk '{print ($2 == "s") ? $1 : ($2 == "ms") ? $1 / 1e3 : $1 / 1e6}' >> "$tmp/solver"
    for k in "${!clis[@]}"; do
        # The previous output is removed first: truncating it under the redirection would
        # count its pages' release (and a wait for their write-back) in this run's time.
        rm -f "$dir/ratio.out"
        start=$EPOCHREALTIME
        /usr/bin/time -f '%U %S' -o "$tmp/cpu" "${clis[$k]}" solve "$dir/flat-100k.json" > "$dir/ratio.out"
        end=$EPOCHREALTIME
        echo "$end - $start" | bc -l >> "$tmp/wall$k"
        awk '{print $1 + $2}' "$tmp/cpu" >> "$tmp/cpu$k"
    done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
solver=$(median < "$tmp/solver")
printf 'solver only (profile_drf -- 100000 8 5): median %.3f s per run over %d rounds\n' "$solver" "$runs"
for k in "${!clis[@]}"; do
    wall=$(median < "$tmp/wall$k")
    cpu=$(median < "$tmp/cpu$k")
    ratio=$(echo "$wall / $solver" | bc -l)
    printf '%s solve flat-100k.json: median %.3f s wall (%.2f s user + sys), %.2f× the solver\n' \
        "${clis[$k]}" "$wall" "$cpu" "$ratio"
done
