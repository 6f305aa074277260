#!/usr/bin/env bash
# End-to-end CLI measurements (parse + solve + print) for BENCHMARKS.md, "End to end".
#
#   scripts/bench-end-to-end.sh [DIR] [ROWS...]
#
# Builds the CLI and the instance generator (hdrf/examples/generate_instance.rs), writes the
# workloads to DIR (default /tmp/leontief-e2e), then runs each row with /usr/bin/time -v and
# prints: row, wall seconds, user and system seconds, peak memory (MB), output size (MB). ROWS selects
# rows by name (default: all). Output goes to DIR/<row>.out.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/tmp/leontief-e2e}
shift || true
mkdir -p "$dir"
cargo build --release -q -p leontief
cargo build --release -q -p leontief-hdrf --example generate_instance
gen=target/release/examples/generate_instance
cli=target/release/leontief

instance() { # name kind n m seed
    [ -s "$dir/$1.json" ] || "$gen" "$2" "$3" "$4" "$5" > "$dir/$1.json"
}
instance flat-100k flat 100000 8 42
instance flat-1m flat 1000000 8 42
instance capacities-10k flat-capacities 10000 8 42
instance capacities-100k flat-capacities 100000 8 42
instance ceei-100k flat 100000 10 42
instance machines-1k machines 1000 50000 0
instance tree-2k tree 2000 4 42

declare -A rows=(
    [drf-100k-exact]="solve $dir/flat-100k.json"
    [drf-100k-dec]="solve --decimals 12 $dir/flat-100k.json"
    [drf-1m-exact]="solve $dir/flat-1m.json"
    [drf-1m-dec]="solve --decimals 12 $dir/flat-1m.json"
    [asset-100k-exact]="solve --mechanism asset --form level-coefficient $dir/flat-100k.json"
    [asset-100k-dec]="solve --mechanism asset --decimals 12 $dir/flat-100k.json"
    [asset-capacities-10k-exact]="solve --mechanism asset --form level-coefficient $dir/capacities-10k.json"
    [asset-capacities-100k-dec]="solve --mechanism asset --decimals 12 $dir/capacities-100k.json"
    [ceei-100k-exact]="solve --mechanism ceei $dir/ceei-100k.json"
    [ceei-100k-dec]="solve --mechanism ceei --decimals 12 $dir/ceei-100k.json"
    [discrete-1k-exact]="solve --mechanism discrete-drf --misfit skip --machines 50000 $dir/machines-1k.json"
    [discrete-1k-dec]="solve --mechanism discrete-drf --misfit skip --machines 50000 --decimals 12 $dir/machines-1k.json"
    [hdrf-2k-exact]="solve --mechanism hdrf:hdrf $dir/tree-2k.json"
    [hdrf-2k-dec]="solve --mechanism hdrf:hdrf --decimals 12 $dir/tree-2k.json"
)
order=(drf-100k-exact drf-100k-dec drf-1m-exact drf-1m-dec asset-100k-exact asset-100k-dec
    asset-capacities-10k-exact asset-capacities-100k-dec ceei-100k-exact ceei-100k-dec
    discrete-1k-exact discrete-1k-dec hdrf-2k-exact hdrf-2k-dec)
[ $# -gt 0 ] && order=("$@")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for row in "${order[@]}"; do
    # shellcheck disable=SC2086
    /usr/bin/time -v "$cli" ${rows[$row]} > "$dir/$row.out" 2> "$dir/$row.time"
    wall=$(grep 'Elapsed (wall' "$dir/$row.time" | awk '{print $NF}')
    user=$(grep 'User time' "$dir/$row.time" | awk '{print $NF}')
    sys=$(grep 'System time' "$dir/$row.time" | awk '{print $NF}')
    rss=$(grep 'Maximum resident' "$dir/$row.time" | awk '{printf "%.0f", $NF / 1024}')
    size=$(stat -c %s "$dir/$row.out" | awk '{printf "%.1f", $1 / 1e6}')
    echo "$row: wall $wall, user ${user} s, sys ${sys} s, ${rss} MB, output ${size} MB"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
