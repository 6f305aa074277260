"""`leontief.ray.explore` against one process: the same records (checked), and the wall
time of each, on a local Ray cluster of 2 CPUs started first (its start not counted).

    python python/benchmarks/bench_ray_explore.py MECHANISM METRIC BUDGET [SHARDS]

One process runs with threads=SHARDS; Ray with SHARDS tasks a wave, one CPU each. The
user + sys figures are this process's (the driver's); Ray's workers are other processes.
"""
import resource
import sys
import time

import ray

import leontief
import leontief.ray


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def timed(label, f):
    t, c = time.perf_counter(), cpu()
    out = f()
    print(f"{label}: wall {time.perf_counter() - t:.2f} s, user+sys {cpu() - c:.2f} s")
    return out


def main():
    mechanism, metric, budget = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shards = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    kw = dict(seed=1, budget=budget, users=(2, 4), resources=(2, 3))
    single = timed(f"one process, threads={shards}",
                   lambda: list(leontief.explore(mechanism, metric, threads=shards, **kw)))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    for _ in range(2):
        run = timed(f"Ray, shards={shards}, threads=1",
                    lambda: leontief.ray.explore(mechanism, metric, shards=shards, **kw))
        assert list(run) == single, "not one process's records"
    print(run.summaries[0].splitlines()[0])


if __name__ == "__main__":
    main()
