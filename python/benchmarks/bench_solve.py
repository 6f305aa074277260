"""`leontief.solve` from Python on the DRF benchmark's instance, beside the Rust figure.

The instance is `cluster_workload(n, m, 42)`, written as JSON by the Rust profiling example
(`PROFILE_DRF_JSON=FILE cargo run --release -p leontief-solver --example profile_drf -- N M
REPS`, which also prints the Rust time per run). Each Python call takes the instance as a
dict (ints and "p/q" strings), validates it, runs extended DRF exactly and returns an
`Allocation` with Fractions: everything a caller pays.

Usage: python bench_solve.py INSTANCE.json [REPS]
"""

import json
import statistics
import sys
import time

import leontief


def main() -> None:
    path = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    instance = json.loads(open(path).read())
    a = leontief.solve(instance)  # warm-up (imports, caches)
    assert a.exact and len(a.users) == len(instance["users"])
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        leontief.solve(instance)
        times.append(time.perf_counter() - t)
    cpu = time.process_time()
    print(
        f"solve {len(instance['users'])}x{len(instance['capacity'])} from Python: "
        f"median {statistics.median(times) * 1e3:.3f} ms, min {min(times) * 1e3:.3f} ms "
        f"over {reps} calls (process CPU {cpu:.2f} s)"
    )


if __name__ == "__main__":
    main()
