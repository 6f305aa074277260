"""How fast Ctrl-C frees a local Ray cluster of 2 CPUs during `leontief.ray.explore`.

    python python/benchmarks/bench_ray_cancel.py [REPEATS]

The run is CEEI sp-gain with one round of 12,000 local-search tasks in 8 chunks (1,500
evaluations each, seconds of work per chunk). Ctrl-C (`_thread.interrupt_main`) is sent as the
driver first waits for that wave; the figures are the time from it to the KeyboardInterrupt,
and to the cluster's 2 CPUs being free again (queued tasks cancelled, running chunks stopped at
their next item), with how many of the wave's 8 tasks were cancelled. Ray's start is not
counted.
"""
import _thread
import sys
import time

import ray

import leontief
import leontief.ray

LOCAL = 12_000


def once():
    waves, cancelled, at = [], [], {}
    real_chunks, real_wait, real_cancel = leontief.ray._chunks, ray.wait, ray.cancel

    def chunks(items, n):
        waves.append({"items": len(items), "refs": None})
        return real_chunks(items, n)

    def wait(refs, **kw):
        wave = waves[-1]
        if wave["refs"] is None:
            wave["refs"] = list(refs)
            if wave["items"] == LOCAL:
                at["interrupt"] = time.perf_counter()
                _thread.interrupt_main()
        return real_wait(refs, **kw)

    def cancel(ref, **kw):
        cancelled.append(ref)
        return real_cancel(ref, **kw)

    leontief.ray._chunks, ray.wait, ray.cancel = chunks, wait, cancel
    try:
        leontief.ray.explore("ceei", "sp-gain", shards=8, seed=1, time="100ms", local=LOCAL,
                             users=(3, 4), resources=(2, 3))
    except KeyboardInterrupt:
        at["raised"] = time.perf_counter()
    finally:
        leontief.ray._chunks, ray.wait, ray.cancel = real_chunks, real_wait, real_cancel
    if "raised" not in at:
        raise RuntimeError("the run ended before the interrupt")
    while ray.available_resources().get("CPU", 0) < 2:
        time.sleep(0.01)
    free = time.perf_counter()
    print(f"cancelled {len(cancelled)} of {len(waves[-1]['refs'])} tasks; KeyboardInterrupt "
          f"after {at['raised'] - at['interrupt']:.2f} s; CPUs free after "
          f"{free - at['interrupt']:.2f} s")


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for _ in range(repeats):
            once()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
