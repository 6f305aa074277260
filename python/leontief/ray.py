"""`search` and `explore` over Ray tasks, each equal to one process.

``search``: shard `i` of `n` runs ``leontief.search(..., shard=(i, n))`` as one Ray task; the
shards take the units ``k`` with ``k mod n = i``, so they cover the space without overlap. A
unit's work depends only on ``(seed, unit)``. ``explore``: one process's optimizer runs here
and each round's evaluations are spread over ``n`` Ray tasks (below).

``search`` equals one process exactly, for the same seed, ``budget`` and ``max_found``: its
records (the same, in the same order) and its summary's counters (``units``, ``scenarios``,
``found``, ``duplicates``, ``errors``, ``stop``, ``next_unit``). Each shard applies the
limits to its own units and logs every unit it examines (``unit_log=True``: its scenarios,
errors and counterexample); the driver then replays one process's loop over the units in
order (``_leontief.replay_search``, in Rust) and stops where one process stops. That is exact
because before any unit ``u`` a shard has tried no more scenarios, and found no more distinct
counterexamples, than one process before ``u``: every unit one process examines is in its
shard's log. The price is that the shards examine up to ``n`` times the scenarios one process
does (each runs until its own budget). ``time`` applies to each shard and is not
deterministic: a shard stopped by time ends the replay at its first missing unit, with
``stop == "time"`` and a prefix of one process's records (as ``time`` gives one process);
``exact=False`` keeps every shard's records instead, merged.

``explore`` equals one process exactly, for every strategy, metric, family and limit: the
same records in the same order (``scenarios`` included) and the same summary counters as
``list(leontief.explore(...))`` with the same arguments. The optimizer's driver (merging,
elite pool, shrinking, re-derivation, ``budget``, ``time``) runs in this process; only the
evaluations move. Each round's work items — its seed units, then its local-search tasks,
which restart from the elites the seeds leave — are cut into ``shards`` consecutive chunks,
one Ray task each (``_leontief.explore_evaluate``, with the driver's flags), and the results
come back in the items' order. A result is the evaluation in full (both answers, the
scenario, the interval), serialized exactly and checked to read back equal before it leaves
the worker, so the driver merges what one process merges (``counterexamples/src/explore/
wire.rs``). The price is two round trips per round and the driver's serial share (shrinking
and re-deriving each improvement); a larger ``local`` amortises the round trips. ``time``
is checked by the driver between rounds. Ctrl-C raises ``KeyboardInterrupt`` and cancels the
wave's unfinished tasks: queued ones never start; Ray interrupts a running one
(``KeyboardInterrupt`` in its worker), and ``explore_evaluate`` then stops at its next item
instead of finishing its chunk.

Ray is imported when a function runs (``pip install ray``; the notebooks' pinned requirements
include it). With ``address=None`` an existing Ray connection of this process is used, else ``ray.init()``
connects to ``$RAY_ADDRESS`` or starts a local cluster; give ``address="auto"`` or
``"ray://head:10001"`` for a running cluster. Every node needs the ``leontief`` package
(``pip install ./python``) in the Python that runs its workers.

Notes
-----
Complexity. ``search``: one task per shard, each with ``threads`` CPUs; the shards run in
parallel as far as the cluster's CPUs allow. The replay is linear in the units the shards examined (their
logs travel to the driver: a few numbers per unit, plus the records). ``explore``: per round,
two waves of at most ``shards`` tasks (``threads`` CPUs each), each item one metric
evaluation; what travels is linear in the items and their instances. ``verify=True``
re-verifies each record exactly.

Examples
--------
Three shards in local threads (``in_process=True``; without it, Ray tasks) give one process's
records:

>>> import leontief, leontief.ray
>>> kw = dict(seed=1, budget=5_000, users=(2, 4), resources=(2, 3))
>>> sharded = leontief.ray.search("drf", "rm", shards=3, in_process=True, **kw)
>>> sharded == list(leontief.search("drf", "rm", **kw))
True

References
----------
- Ray tasks: https://docs.ray.io/en/latest/ray-core/tasks.html
- Connecting to a cluster (``ray.init(address=...)``, ``RAY_ADDRESS``):
  https://docs.ray.io/en/latest/ray-core/starting-ray.html
- Cancelling tasks (``ray.cancel``): https://docs.ray.io/en/latest/ray-core/tasks.html#cancelling-tasks
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import leontief as _leontief
from leontief._explore import _explore_argv

__all__ = ["search", "explore", "run_shards", "SearchResult", "ExploreResult"]

Record = Dict[str, Any]


def _run_shard(kind: str, args: tuple, kwargs: dict, index: int, count: int) -> List[Record]:
    """One shard's records (runs inside a Ray task or a local thread)."""
    import leontief

    run = leontief.search if kind == "search" else leontief.explore
    return list(run(*args, shard=(index, count), **kwargs))


def _connect(address: Optional[str]):
    """Ray, connected (see the module's documentation for ``address``)."""
    try:
        import ray
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(
            "leontief.ray needs Ray: `pip install ray` (the version pinned in "
            "notebooks/requirements.txt), or pass in_process=True to run the shards in this process"
        ) from err
    if not ray.is_initialized():
        ray.init(address=address)
    elif address is not None:
        raise _leontief.InvalidInput(f"address: Ray is already connected in this process; cannot connect "
                         f"to {address!r} (call ray.shutdown() first)")
    return ray


def _check_arguments(shards: Any, threads: Any, given: Dict[str, Any], why: str,
                     address: Optional[str], in_process: bool) -> None:
    """The checks :func:`run_shards` and :func:`explore` share: the counts, the keywords the
    module sets itself (``why`` says how), and no cluster address for local threads."""
    for name, count in (("shards", shards), ("threads", threads)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise _leontief.InvalidInput(f"{name}: expected an integer >= 1, found {count!r}")
    for name in ("shard", "threads"):
        if name in given:
            raise _leontief.InvalidInput(f"{name}: set by leontief.ray{why}, not given")
    if in_process and address is not None:
        raise _leontief.InvalidInput("address: a Ray cluster address does not apply with in_process=True")


def run_shards(kind: str, args: tuple, kwargs: dict, *, shards: int, threads: int = 1,
               address: Optional[str] = None, in_process: bool = False,
               ray_options: Optional[dict] = None) -> List[List[Record]]:
    """The records of each shard, in shard order.

    For ``"explore"`` these are the ``--shard`` runs (each with its own limits and elites),
    not one process's split: :func:`explore` gives that.

    Parameters
    ----------
    kind : {"search", "explore"}
        The command.
    args, kwargs : tuple, dict
        Its arguments, without ``shard`` and ``threads``.
    shards : int
        How many shards (Ray tasks).
    threads : int, default 1
        CPUs per task.
    address : str, optional
        A Ray cluster's address (see the module's documentation).
    in_process : bool, default False
        Run the shards in this process, one thread each (the package releases the GIL).
    ray_options : dict, optional
        Options for the Ray tasks (``.options(...)``).

    Returns
    -------
    list of list of dict
        Each shard's records.

    Raises
    ------
    InvalidInput
        Bad arguments, naming the argument.

    Examples
    --------
    >>> parts = run_shards("search", ("drf", "rm"), dict(strategy="exhaustive", users=(2, 3),
    ...                    resources=(2, 2)), shards=2, in_process=True)
    >>> len(parts)
    2
    """
    if kind not in ("search", "explore"):
        raise _leontief.InvalidInput(f"kind: expected 'search' or 'explore', found {kind!r}")
    _check_arguments(shards, threads, kwargs, " (one shard per task)", address, in_process)
    kwargs = dict(kwargs, threads=threads)
    if in_process:
        with ThreadPoolExecutor(max_workers=shards) as pool:
            return list(pool.map(lambda i: _run_shard(kind, args, kwargs, i, shards),
                                 range(shards)))
    ray = _connect(address)
    task = ray.remote(_run_shard).options(num_cpus=threads, **(ray_options or {}))
    return ray.get([task.remote(kind, args, kwargs, i, shards) for i in range(shards)])


class SearchResult(list):
    """:func:`search`'s records: a list, in one process's order, with ``summaries``.

    Attributes
    ----------
    summaries : list of dict
        Per property, one process's counters (``property``, ``units``, ``scenarios``,
        ``found``, ``duplicates``, ``errors``, ``error_messages``, ``stop``,
        ``next_unit``), without wall times.

    Examples
    --------
    >>> r = search("drf", "rm", shards=2, in_process=True, budget=2_000)
    >>> r.summaries[0]["stop"]
    'budget'
    """

    def __init__(self, records: List[Record], summaries: List[Any]):
        # Also ExploreResult's (not a subclass): the list's own constructor, named.
        list.__init__(self, records)
        self.summaries = summaries


def search(mechanism: str, properties: Union[str, Sequence[str]], *, shards: int,
           seed: int = 1, budget: Optional[int] = None, time: Optional[str] = None,
           max_found: Optional[int] = None, threads: int = 1, verify: bool = False,
           address: Optional[str] = None, in_process: bool = False,
           ray_options: Optional[dict] = None, exact: bool = True,
           **flags: Any) -> SearchResult:
    """``leontief.search`` as ``shards`` Ray tasks, replayed into one process's run.

    The same records in the same order as ``list(leontief.search(...))`` with the same
    ``seed``, ``budget`` and ``max_found``, and one process's counters (see the module's
    documentation; ``time`` applies to each shard).

    Parameters
    ----------
    mechanism : str
        The mechanism.
    properties : str or sequence of str
        The properties.
    shards : int
        How many Ray tasks.
    seed, budget, time, max_found
        As for ``leontief.search``.
    threads : int, default 1
        CPUs per task.
    verify : bool, default False
        Re-verify each record exactly (``leontief.merge(..., verify=True)``).
    address, in_process, ray_options
        As for :func:`run_shards`.
    exact : bool, default True
        ``False`` keeps every shard's records instead (``leontief.merge``d, duplicates
        dropped, in one process's order; ``.summaries`` empty): the ``n`` shard runs', each
        with the limits, as ``--shard`` gives on the command line. Use it with ``time``,
        where the exact replay keeps only the prefix up to the first unit a shard did not
        reach.
    **flags
        ``leontief.search``'s other keywords (``strategy``, ``users``, ``resources``, ...).

    Returns
    -------
    SearchResult
        The records and summaries.

    Examples
    --------
    >>> import leontief
    >>> kw = dict(seed=1, budget=5_000, users=(2, 4), resources=(2, 3))
    >>> search("drf", "rm", shards=3, in_process=True, **kw) == list(leontief.search("drf", "rm", **kw))
    True
    """
    if "unit_log" in flags:
        raise _leontief.InvalidInput("unit_log: set by leontief.ray (the shards' logs), not given")
    kwargs = dict(flags, seed=seed, budget=budget, time=time, max_found=max_found, unit_log=exact)
    parts = run_shards("search", (mechanism, properties), kwargs, shards=shards,
                       threads=threads, address=address, in_process=in_process,
                       ray_options=ray_options)
    if not exact:
        order = ([p.strip() for p in properties.split(",")] if isinstance(properties, str)
                 else list(properties))
        rank = {p: k for k, p in enumerate(order)}
        # Of equal keys merge keeps the lowest unit, as one process keeps the first it finds.
        merged = list(_leontief.merge([r for part in parts for r in part], verify=verify))
        merged.sort(key=lambda r: (rank.get(r.get("property"), len(order)), r.get("unit", 0)))
        return SearchResult(merged, [])
    out = _leontief._leontief.replay_search([line for part in parts for line in part],
                                            budget, max_found)
    records = out["records"]
    if verify:
        # Re-verified exactly; merge's own order differs from one process's, so only checked.
        _leontief.merge(records, verify=True)
    return SearchResult(records, out["summaries"])


class ExploreResult(list):
    """:func:`explore`'s records: a list, one process's, in its order (the last has
    ``"best": True``).

    Attributes
    ----------
    summaries : list of str
        One process's summary text (as ``leontief.explore(...).summaries``).
    best : dict or None
        The last record (``None`` when no scenario had a value).

    Examples
    --------
    >>> run = explore("drf", "rm-loss", shards=2, in_process=True, budget=1_000)
    >>> run.best is run[-1] and run.best["best"]
    True
    """

    __init__ = SearchResult.__init__

    @property
    def best(self) -> Optional[Record]:
        """The last record, ``None`` when there is none."""
        return self[-1] if self else None


def _chunks(items: List[str], n: int) -> List[List[str]]:
    """``items`` cut into at most ``n`` consecutive, nearly equal, non-empty chunks."""
    n = min(n, len(items))
    return [items[k * len(items) // n:(k + 1) * len(items) // n] for k in range(n)]


def _evaluate_chunk(argv: List[str], items: List[str]) -> Tuple[str, List[str]]:
    """One chunk of a round's work items evaluated (runs inside a Ray task or a local
    thread): the worker's package version and the results in the items' order."""
    from leontief import _leontief as native

    return native.__version__, native.explore_evaluate(argv, items)


def _results(parts: Iterable[Tuple[str, List[str]]]) -> List[str]:
    """The chunks' results joined in order, once every worker is known to run the driver's
    version of the package (a worker on another version could evaluate differently)."""
    out: List[str] = []
    for version, results in parts:
        if version != _leontief.__version__:
            raise RuntimeError(f"a worker runs leontief {version}, the driver "
                               f"{_leontief.__version__}: install the same package on every node")
        out.extend(results)
    return out


def explore(mechanism: str, metric: str, *, shards: int, seed: int = 1,
            budget: Optional[int] = None, time: Optional[str] = None, threads: int = 1,
            verify: bool = False, address: Optional[str] = None, in_process: bool = False,
            ray_options: Optional[dict] = None, **flags: Any) -> ExploreResult:
    """``leontief.explore`` with each round's evaluations spread over ``shards`` Ray tasks.

    Exactly one process's records, in order, and its summary (``list(leontief.explore(...))``
    with the same arguments; see the module's documentation).

    Parameters
    ----------
    mechanism, metric : str
        As for ``leontief.explore``.
    shards : int
        Chunks (Ray tasks) per wave.
    seed, budget, time
        As for ``leontief.explore``.
    threads : int, default 1
        CPUs per task.
    verify : bool, default False
        Re-derive each record once more (``leontief.merge(..., verify=True, best=True)``;
        the driver already re-derives each record before it is handed out).
    address, ray_options
        As for :func:`run_shards`.
    in_process : bool, default False
        Evaluate the chunks in local threads instead of Ray tasks (the same records).
    **flags
        ``leontief.explore``'s other keywords (``strategy``, ``local``, ``family``,
        ``users``, ...).

    Returns
    -------
    ExploreResult
        The records, summaries and best record.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C, once the wave's unfinished tasks are cancelled.

    Examples
    --------
    >>> import leontief
    >>> kw = dict(seed=1, budget=3_000, users=(2, 3), resources=(2, 2))
    >>> list(explore("drf", "rm-loss", shards=2, in_process=True, **kw)) == list(
    ...     leontief.explore("drf", "rm-loss", **kw))
    True
    """
    _check_arguments(shards, threads, flags, "", address, in_process)
    argv = _explore_argv(mechanism, metric, seed=seed, budget=budget, time=time,
                         threads=threads, **flags)
    if in_process:
        pool = ThreadPoolExecutor(max_workers=shards)

        def evaluate(items: List[str], stopped: Callable[[], bool]) -> List[str]:
            return _results(pool.map(lambda chunk: _evaluate_chunk(argv, chunk),
                                     _chunks(items, shards)))
    else:
        pool = None
        ray = _connect(address)
        task = ray.remote(_evaluate_chunk).options(num_cpus=threads, **(ray_options or {}))
        argv_ref = ray.put(argv)

        def evaluate(items: List[str], stopped: Callable[[], bool]) -> List[str]:
            refs = [task.remote(argv_ref, chunk) for chunk in _chunks(items, shards)]
            pending = refs
            while pending:
                if stopped():
                    # The run is being stopped (Ctrl-C, the iterator closed): the wave's
                    # unfinished tasks are cancelled (queued ones never start; a running one
                    # is interrupted and stops at its next item) and the run's thread ends
                    # here.
                    for ref in pending:
                        ray.cancel(ref)
                    raise RuntimeError("leontief.ray.explore: stopped")
                _, pending = ray.wait(pending, num_returns=len(pending), timeout=0.05)
            return _results(ray.get(refs))
    try:
        run = _leontief._leontief.explore_distributed(argv, evaluate)
        records = list(run)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    if verify:
        # Each record re-derived once more (merge's reduction to the best is not kept).
        _leontief.merge(records, verify=True, best=True)
    return ExploreResult(records, run.summaries)
