"""`leontief.solve` from Python on the DRF benchmark's instance, beside the Rust figure.

The instance is `cluster_workload(n, m, 42)`, written as JSON by the Rust profiling example
(`PROFILE_DRF_JSON=FILE cargo run --release -p leontief-solver --example profile_drf -- N M
REPS`, which also prints the Rust time per run). Each Python call takes the instance as a
dict (ints and "p/q" strings), validates it, runs extended DRF exactly and returns an
`Allocation`: everything a caller pays. The answer's exact numbers become Fractions when they
are read, so two figures are given: the call alone, and the call followed by `to_dict()`
(every number of the answer a Fraction).

Usage: python bench_solve.py INSTANCE.json [REPS]
"""

import json
import os
import statistics
import sys
import time

import leontief


def timed(reps, f):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    path = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    instance = json.loads(open(path).read())
    a = leontief.solve(instance)  # warm-up (imports, caches)
    assert a.exact and len(a.users) == len(instance["users"])
    shape = f"{len(instance['users'])}x{len(instance['capacity'])}"
    for label, f in (
        ("solve", lambda: leontief.solve(instance)),
        ("solve + to_dict()", lambda: leontief.solve(instance).to_dict()),
    ):
        before = os.times()
        times = timed(reps, f)
        after = os.times()
        print(
            f"{label} {shape} from Python: median {statistics.median(times) * 1e3:.3f} ms, "
            f"min {min(times) * 1e3:.3f} ms over {reps} calls "
            f"(user {after.user - before.user:.2f} s + sys {after.system - before.system:.2f} s, "
            f"wall {sum(times):.2f} s)"
        )


if __name__ == "__main__":
    main()
