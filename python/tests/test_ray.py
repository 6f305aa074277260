"""`leontief.ray` on a real local Ray cluster (`ray.init(num_cpus=2)`, shut down after).

`leontief.ray.search` replays its shards' unit logs into one process's run, so it equals
`leontief.search` for the same seed and limits, also when the budget or the count binds
(python/leontief/ray.py gives the argument). `leontief.ray.explore` runs one process's
driver and only its evaluations on Ray, so it equals `leontief.explore` for every
configuration: local search on, the budget binding, a family, trees. Ctrl-C cancels a wave's
queued tasks and stops a running chunk at its next item; the tests count what happened, never
how long it took.
"""

import _thread
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import leontief
import leontief.ray
from leontief._explore import _explore_argv

try:
    import ray
except ImportError as err:  # the project's venv always has it (notebooks/requirements.txt)
    raise ImportError("python/tests/test_ray.py needs Ray: scripts/python-env.sh installs the "
                      "pinned version from notebooks/requirements.txt") from err

REPO = Path(__file__).resolve().parents[2]

# Every unit of the grid (capacities 1, demands in {0, 1/2, 1}), 2-3 users, 2 resources.
GRID = dict(strategy="exhaustive", users=(2, 3), resources=(2, 2))


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_search_on_ray_equals_one_process(cluster):
    # Budget 10^6 does not bind: the grid runs out first (a few thousand scenarios).
    args = ("drf", ["rm", "pm", "sp"])
    single = list(leontief.search(*args, seed=1, budget=1_000_000, **GRID))
    sharded = leontief.ray.search(*args, shards=3, seed=1, budget=1_000_000, **GRID)
    assert sharded == single
    # DRF is strategy-proof (the DRF paper, Theorem 1): nothing for sp; it is neither
    # resource nor population monotonic with zero demands (docs/theory.md §3.6).
    assert {r["property"] for r in single} == {"rm", "pm"}
    for r in single:
        assert all(isinstance(v, Fraction) for v in r["before"].values())


def summary_counters(text):
    """The counters of one process's summary line (the CLI's standard error): units,
    scenarios, counterexamples, duplicates, stop."""
    m = re.search(r"(\d+) units, (\d+) scenarios .*?; (\d+) counterexample\(s\), "
                  r"(\d+) duplicate\(s\) dropped; stopped by (\w+)", text)
    assert m, text
    return dict(units=int(m[1]), scenarios=int(m[2]), found=int(m[3]), duplicates=int(m[4]),
                stop=m[5])


def one_process(*args, **kw):
    """`leontief.search`'s records and its summaries' counters."""
    run = leontief.search(*args, **kw)
    records = list(run)
    return records, [summary_counters(t) for t in run.summaries]


@pytest.mark.parametrize("limits, stop", [
    (dict(budget=3_000), "budget"),          # the budget binds (the space is random, endless)
    (dict(budget=20_000, max_found=2), "found"),  # the count binds first
])
def test_search_on_ray_with_binding_limits_equals_one_process(cluster, limits, stop):
    args = ("drf", ["pm", "rm"])
    kw = dict(seed=3, users=(2, 4), resources=(2, 3), **limits)
    single, summaries = one_process(*args, **kw)
    sharded = leontief.ray.search(*args, shards=3, **kw)
    assert sharded == single
    keys = ("units", "scenarios", "found", "duplicates", "stop")
    assert [{k: s[k] for k in keys} for s in sharded.summaries] == summaries
    assert [s["stop"] for s in summaries] == [stop, stop]
    # Each shard applies the limits to its own units: three shards examine more units than
    # one process, and the replay still stops where one process stops.
    logs = leontief.ray.run_shards("search", args, dict(kw, unit_log=True), shards=3,
                                   in_process=True)
    examined = sum(1 for part in logs for line in part if line["log"] == "unit")
    assert examined > sum(s["units"] for s in summaries)
    # Extended DRF is neither population nor resource monotonic (docs/theory.md §3.6, §5).
    assert {r["property"] for r in single} == {"pm", "rm"}
    # exact=False keeps all the shards' records: a superset (each key once).
    every = leontief.ray.search(*args, shards=3, exact=False, **kw)
    assert len({json.dumps(r, default=str, sort_keys=True) for r in every}) == len(every)
    assert all(r in every for r in single) and len(every) >= len(single)
    if stop == "found":
        assert [s["found"] for s in summaries] == [2, 2]


def explore_counters(text):
    """One process's explore summary (the CLI's standard error) less its wall times and
    rates: the counters, the best value, the stop, the domain, the errors."""
    text = re.sub(r" \(\d+/s\)", "", text)
    text = re.sub(r" in [\d.]+ s;", ";", text)
    return re.sub(r"; past 1 after [\d.]+ s", "; past 1", text)


@pytest.mark.parametrize("args, kw", [
    # Local search on (32 tasks a round, the default), the budget binding.
    (("drf", "rm-loss"), dict(seed=3, budget=3_000, users=(2, 4), resources=(2, 3))),
    # Joins and departures on trees, fewer local tasks a round.
    (("drf", "pm-loss"), dict(seed=5, budget=2_000, local=12, users=(2, 4),
                              resources=(2, 2), pools=(1, 2))),
    # A family's seeds and structure-keeping moves (CEEI: a lie metric's local search
    # restarts only from gains above 1, which DRF never gives).
    (("ceei", "sp-gain"), dict(seed=2, budget=1_500, family="two-kinds", users=(2, 4),
                               resources=(2, 3))),
])
def test_explore_on_ray_equals_one_process(cluster, args, kw):
    one = leontief.explore(*args, **kw)
    single = list(one)
    sharded = leontief.ray.explore(*args, shards=2, **kw)
    assert list(sharded) == single
    assert [explore_counters(t) for t in sharded.summaries] == [explore_counters(t) for t in one.summaries]
    assert "stopped by budget" in one.summaries[0]
    assert sharded.best == single[-1] and single[-1]["best"] is True
    # The same chunks in local threads, without Ray.
    assert list(leontief.ray.explore(*args, shards=3, in_process=True, **kw)) == single


def test_explore_on_ray_keeps_local_search_records(cluster):
    # Extended DRF is not resource monotonic (docs/theory.md §5): the loss falls below 1,
    # and with this seed the local search improves on the seeds (records of origin "local").
    kw = dict(seed=3, budget=3_000, users=(2, 4), resources=(2, 3))
    run = leontief.ray.explore("drf", "rm-loss", shards=2, **kw)
    assert any(r["origin"] == "local" for r in run)
    w = run.best["witness"]
    assert run.best["value"] == w["numerator"] / w["denominator"] < 1
    # Sharing incentive bounds the loss: at least 1/n of the tasks stay (docs/theory.md §5 q3).
    assert run.best["value"] >= Fraction(1, len(run.best["instance"]["users"]))


def test_an_evaluator_failure_stops_explore():
    native = leontief._leontief
    argv = _explore_argv("drf", "rm-loss", budget=500)

    def broken(items, stopped):
        raise ZeroDivisionError("lost worker")

    with pytest.raises(ZeroDivisionError, match="lost worker"):
        list(native.explore_distributed(argv, broken))
    with pytest.raises(RuntimeError, match="1 results for 32 work items"):
        list(native.explore_distributed(argv, lambda items, stopped: items[:1]))
    # A result that is not one reads as an error naming it, never as a different run.
    with pytest.raises(RuntimeError, match="found.scenarios"):
        list(native.explore_distributed(argv, lambda items, stopped: ['{"errors": [], "best": null}'] * len(items)))


class WaveSpy:
    """Stands between `leontief.ray` and Ray, recording what the driver does.

    Each wave (one call of `leontief.ray._chunks`) is recorded with its item count and the
    refs the driver first waits on; every ref passed to `ray.cancel` is recorded; the first
    wait on the wave of `interrupt_at` items sends Ctrl-C (`_thread.interrupt_main`).
    """

    def __init__(self, interrupt_at):
        self.interrupt_at = interrupt_at
        self.waves, self.cancelled = [], []
        self.real_chunks, self.real_wait, self.real_cancel = leontief.ray._chunks, ray.wait, ray.cancel

    def chunks(self, items, n):
        self.waves.append({"items": len(items), "refs": None})
        return self.real_chunks(items, n)

    def wait(self, refs, **kw):
        wave = self.waves[-1]
        if wave["refs"] is None:
            wave["refs"] = list(refs)
            if wave["items"] == self.interrupt_at:
                _thread.interrupt_main()
        return self.real_wait(refs, **kw)

    def cancel(self, ref, **kw):
        self.cancelled.append(ref)
        return self.real_cancel(ref, **kw)


def test_ctrl_c_stops_explore_on_ray_and_cancels_the_waiting_tasks(cluster, monkeypatch):
    """Ctrl-C (here `_thread.interrupt_main`, sent when the driver first waits for the wave of
    12,000 local tasks in 8 chunks) raises KeyboardInterrupt; every task of that wave that had
    not finished is cancelled through Ray, and Ray reports each as cancelled. On 2 CPUs at most
    2 chunks of 1,500 CEEI evaluations have started by then, so at least 6 were queued."""
    local = 12_000
    spy = WaveSpy(interrupt_at=local)
    monkeypatch.setattr(leontief.ray, "_chunks", spy.chunks)
    monkeypatch.setattr(ray, "wait", spy.wait)
    monkeypatch.setattr(ray, "cancel", spy.cancel)
    with pytest.raises(KeyboardInterrupt):
        leontief.ray.explore("ceei", "sp-gain", shards=8, seed=1, time="100ms", local=local,
                             users=(3, 4), resources=(2, 3))
    monkeypatch.undo()
    cancelled = spy.cancelled
    stopped = spy.waves[-1]
    assert stopped["items"] == local and len(stopped["refs"]) == 8
    # Only that wave's tasks, each at most once.
    assert len(set(cancelled)) == len(cancelled) and set(cancelled) <= set(stopped["refs"])
    assert len(cancelled) >= 6
    finished = [r for r in stopped["refs"] if r not in cancelled]
    for ref in cancelled:
        with pytest.raises(ray.exceptions.TaskCancelledError):
            ray.get(ref)
    for ref in finished:  # a chunk that ended before the stop: one result per item
        version, results = ray.get(ref)
        assert version == leontief.__version__ and len(results) == local // 8


def explore_items(count):
    """`count` seed-unit work items, as the driver sends them."""
    return [json.dumps({"unit": u}) for u in range(count)]


def test_a_running_chunk_stops_at_its_next_item():
    """What a Ray task runs (`explore_evaluate`) asks whether to stop before each item and
    starts none once told: the fourth question answers yes, so exactly 3 items are evaluated
    of 200, at any thread count (each item follows one "no"); the same 3 results as in full."""
    argv = _explore_argv("drf", "rm-loss", threads=1)
    items = explore_items(200)
    native = leontief._leontief
    whole = native.explore_evaluate(argv, items)
    assert len(whole) == 200
    assert native.explore_evaluate(argv, items, lambda: False) == whole
    for threads in (1, 2):
        asked = []

        def stopped():
            asked.append(True)
            return len(asked) >= 4

        argv = _explore_argv("drf", "rm-loss", threads=threads)
        with pytest.raises(RuntimeError, match="^explore: stopped after evaluating 3 of 200 work items$"):
            native.explore_evaluate(argv, items, stopped)
        # Once a thread is told, no item starts: each other thread asks at most once more.
        assert 4 <= len(asked) <= 3 + threads
    # An exception in `stopped` stops the chunk and is raised as it is.
    def broken():
        raise ZeroDivisionError("lost driver")

    with pytest.raises(ZeroDivisionError, match="lost driver"):
        native.explore_evaluate(argv, items, broken)


def test_ctrl_c_stops_a_running_chunk():
    """Ctrl-C while a chunk runs (as Ray interrupts a cancelled task) raises KeyboardInterrupt
    once the chunk has stopped at its next item: of 2,000 CEEI evaluations (several seconds
    of work on one thread) it starts only those begun before the signal is seen (it is
    looked for every 50 ms), not the rest of the chunk."""
    argv = _explore_argv("ceei", "sp-gain", threads=1, users=(3, 4), resources=(2, 3))
    items = explore_items(2_000)
    asked = []

    def stopped():
        asked.append(True)
        if len(asked) == 3:
            _thread.interrupt_main()
        return False

    with pytest.raises(KeyboardInterrupt):
        leontief._leontief.explore_evaluate(argv, items, stopped)
    assert 3 <= len(asked) < len(items)


def test_a_worker_on_another_version_is_refused():
    from leontief.ray import _results

    same = leontief.__version__
    assert _results([(same, ["a"]), (same, ["b", "c"])]) == ["a", "b", "c"]
    with pytest.raises(RuntimeError, match=f"a worker runs leontief 0.0.0-other, the driver {same}"):
        _results([(same, ["a"]), ("0.0.0-other", ["b"])])


def test_ctrl_c_tells_the_evaluator_to_stop():
    """The evaluator is told when the run is being stopped, so a long wait for a wave ends
    early: here one that interrupts the main thread (Ctrl-C) once it is reading the records,
    then waits until told. Closing the iterator joins the run's thread: by then it was told."""
    import threading

    native = leontief._leontief
    argv = _explore_argv("drf", "rm-loss", budget=500)
    reading, told = threading.Event(), threading.Event()

    def waits(items, stopped):
        reading.wait()
        _thread.interrupt_main()
        # Polls as leontief.ray.explore does; bounded so that a failure cannot hang the test.
        for _ in range(100_000):
            if stopped():
                told.set()
                raise RuntimeError("stopped")
            told.wait(0.01)
        raise RuntimeError("never told")

    records = native.explore_distributed(argv, waits)
    with pytest.raises(KeyboardInterrupt):
        reading.set()
        list(records)
    records.close()
    assert told.is_set()


def test_shard_and_threads_belong_to_leontief_ray():
    with pytest.raises(leontief.InvalidInput, match="^shard: set by leontief.ray"):
        leontief.ray.search("drf", "rm", shards=2, shard=(0, 2), in_process=True)
    with pytest.raises(leontief.InvalidInput, match="^unit_log: set by leontief.ray"):
        leontief.ray.search("drf", "rm", shards=2, unit_log=True, in_process=True)
    with pytest.raises(leontief.InvalidInput, match="^shards: expected an integer >= 1, found 0"):
        leontief.ray.search("drf", "rm", shards=0, in_process=True)
    with pytest.raises(leontief.InvalidInput, match="^address: "):
        leontief.ray.explore("drf", "rm-loss", shards=2, in_process=True, address="auto")


def run_script(*args):
    return subprocess.run([sys.executable, str(REPO / "scripts" / "ray_search.py"), *args],
                          capture_output=True, text=True, env={**os.environ, "RAY_ADDRESS": ""})


def test_the_script_joins_a_running_cluster(cluster, tmp_path):
    """scripts/ray_search.py --address: a second driver on the cluster this module started
    (as on a real cluster's node), explore's records equal to one process's, written as the
    command line's JSONL."""
    out = tmp_path / "explore.jsonl"
    address = ray.get_runtime_context().gcs_address
    done = run_script("--explore", "--address", address, "--shards", "2", "--out", str(out), "--",
                      "--mechanism", "drf", "--metric", "rm-loss", "--budget", "2000",
                      "--seed", "3", "--users", "2..4", "--resources", "2..3")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    single = leontief.explore("drf", "rm-loss", budget=2_000, seed=3, users=(2, 4),
                              resources=(2, 3))
    exact = [json.loads(json.dumps(r, default=str)) for r in single]
    assert lines and lines == exact and lines[-1]["best"] is True


def test_the_script_runs_shards_locally(tmp_path):
    """scripts/ray_search.py --local (the README's recipe without Ray): N shards in one
    process, merged and re-verified, equal to one process's records, written as the
    command line's JSONL."""
    out = tmp_path / "found.jsonl"
    done = run_script("--local", "--shards", "3", "--out", str(out), "--",
                      "--mechanism", "drf", "--property", "rm",
                      "--strategy", "exhaustive", "--users", "2..3", "--resources", "2..2")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    single = leontief.search("drf", "rm", strategy="exhaustive", users=(2, 3), resources=(2, 2))
    exact = [json.loads(json.dumps(r, default=str)) for r in single]
    assert lines and lines == exact
