"""`search` and `explore` sharded over Ray tasks, then merged.

Shard `i` of `n` runs ``leontief.search(..., shard=(i, n))`` (or ``leontief.explore``) as one
Ray task; the shards take the units ``k`` with ``k mod n = i``, so they cover the space without
overlap, and ``leontief.merge`` joins what they found (duplicates dropped; for ``explore`` the
best record kept).

What equals one process. A unit's work depends only on ``(seed, unit)``, so when the shards'
runs are fixed by their units the merged result is the single process's:

- ``search`` with ``strategy="exhaustive"`` (the space runs out before ``budget``, ``time`` or
  ``max_found`` stop a shard): the same records, in the same order (properties in the order
  given, units ascending; of duplicates the lowest unit is kept, as one process keeps the first
  it finds);
- ``explore`` with ``strategy="exhaustive"`` and ``local=0`` (every unit evaluated once, no
  local search): the same best record (ties go to the lowest unit in both), except its
  ``scenarios``, which counts the scenarios of the run that printed it.

``budget``, ``time`` and ``max_found`` apply to each shard, as ``--shard`` does on the command
line: with a binding budget the ``n`` shards examine about ``n`` times as many scenarios, and
the result is that of the ``n`` shard runs merged (``in_process=True`` computes the same
without Ray). ``explore``'s local search draws from ``(seed, shard, round, task)`` streams, so its
records differ from one process's but not from run to run.

Ray is imported when a function runs (``pip install ray``; the notebooks' pinned requirements
include it). With ``address=None`` an existing Ray connection of this process is used, else ``ray.init()``
connects to ``$RAY_ADDRESS`` or starts a local cluster; give ``address="auto"`` or
``"ray://head:10001"`` for a running cluster. Every node needs the ``leontief`` package
(``pip install ./python``) in the Python that runs its workers.

# Complexity
One task per shard, each with ``threads`` CPUs; the shards run in parallel as far as the
cluster's CPUs allow. Merging sorts the records found (and with ``verify=True`` re-verifies
each exactly).

# Example
```python
import leontief.ray
records = leontief.ray.search("drf", ["rm"], shards=4, seed=1, strategy="exhaustive",
                              users=(2, 3), resources=(2, 2))
best = leontief.ray.explore("ceei", "sp-gain", shards=32, seed=7, budget=50_000, threads=2,
                            address="auto")
```

# References
- Ray tasks: https://docs.ray.io/en/latest/ray-core/tasks.html
- Connecting to a cluster (``ray.init(address=...)``, ``RAY_ADDRESS``):
  https://docs.ray.io/en/latest/ray-core/starting-ray.html
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Sequence, Union

import leontief as _leontief

__all__ = ["search", "explore", "run_shards"]

Record = Dict[str, Any]


def _import_ray():
    try:
        import ray
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(
            "leontief.ray needs Ray: `pip install ray` (the version pinned in "
            "notebooks/requirements.txt), or pass in_process=True to run the shards in this process"
        ) from err
    return ray


def _run_shard(kind: str, args: tuple, kwargs: dict, index: int, count: int) -> List[Record]:
    """One shard's records (runs inside a Ray task or a local thread)."""
    import leontief

    run = leontief.search if kind == "search" else leontief.explore
    return list(run(*args, shard=(index, count), **kwargs))


def run_shards(kind: str, args: tuple, kwargs: dict, *, shards: int, threads: int = 1,
               address: Optional[str] = None, in_process: bool = False,
               ray_options: Optional[dict] = None) -> List[List[Record]]:
    """The records of each shard, in shard order: ``kind`` is ``"search"`` or ``"explore"``,
    ``args``/``kwargs`` its arguments (without ``shard`` and ``threads``). With
    ``in_process=True`` the shards run in this process, one thread each (the package releases
    the GIL). Bad arguments raise ``leontief.InvalidInput`` naming the argument."""
    if kind not in ("search", "explore"):
        raise _leontief.InvalidInput(f"kind: expected 'search' or 'explore', found {kind!r}")
    if isinstance(shards, bool) or not isinstance(shards, int) or shards < 1:
        raise _leontief.InvalidInput(f"shards: expected an integer >= 1, found {shards!r}")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise _leontief.InvalidInput(f"threads: expected an integer >= 1, found {threads!r}")
    for name in ("shard", "threads"):
        if name in kwargs:
            raise _leontief.InvalidInput(f"{name}: set by leontief.ray (one shard per task), not given")
    kwargs = dict(kwargs, threads=threads)
    if in_process:
        if address is not None:
            raise _leontief.InvalidInput("address: a Ray cluster address does not apply with in_process=True")
        with ThreadPoolExecutor(max_workers=shards) as pool:
            return list(pool.map(lambda i: _run_shard(kind, args, kwargs, i, shards),
                                 range(shards)))
    ray = _import_ray()
    if not ray.is_initialized():
        ray.init(address=address)
    elif address is not None:
        raise _leontief.InvalidInput(f"address: Ray is already connected in this process; cannot connect "
                         f"to {address!r} (call ray.shutdown() first)")
    task = ray.remote(_run_shard).options(num_cpus=threads, **(ray_options or {}))
    return ray.get([task.remote(kind, args, kwargs, i, shards) for i in range(shards)])


def _property_order(properties: Union[str, Sequence[str]]) -> List[str]:
    if isinstance(properties, str):
        return [p.strip() for p in properties.split(",")]
    return list(properties)


def search(mechanism: str, properties: Union[str, Sequence[str]], *, shards: int,
           seed: int = 1, budget: Optional[int] = None, time: Optional[str] = None,
           max_found: Optional[int] = None, threads: int = 1, verify: bool = False,
           address: Optional[str] = None, in_process: bool = False,
           ray_options: Optional[dict] = None, **flags: Any) -> List[Record]:
    """``leontief.search`` as ``shards`` Ray tasks (``threads`` CPUs each), merged.

    Returns the records of every shard, ordered as one process prints them (properties in
    the given order, then by unit) and merged by ``leontief.merge`` (duplicates dropped, the
    lowest unit kept; ``verify=True`` re-verifies each exactly). ``budget``, ``time`` and
    ``max_found`` apply to each shard; ``flags`` are ``leontief.search``'s other keywords
    (``strategy``, ``users``, ``resources``, ``zeros``, ...). See the module's documentation
    for when this equals one process's output.

    # Example
    ```python
    leontief.ray.search("drf", "rm", shards=3, seed=1, strategy="exhaustive",
                        users=(2, 3), resources=(2, 2))   # == list(leontief.search(...))
    ```
    """
    kwargs = dict(flags, seed=seed, budget=budget, time=time, max_found=max_found)
    parts = run_shards("search", (mechanism, properties), kwargs, shards=shards,
                       threads=threads, address=address, in_process=in_process,
                       ray_options=ray_options)
    order = _property_order(properties)
    rank = {p: k for k, p in enumerate(order)}
    # Of equal keys merge keeps the lowest unit, as one process keeps the first it finds;
    # it orders by (mechanism, property, seed, unit), one process by the properties as given.
    merged = list(_leontief.merge([r for part in parts for r in part], verify=verify))
    merged.sort(key=lambda r: (rank.get(r.get("property"), len(order)), r.get("unit", 0)))
    return merged


def explore(mechanism: str, metric: str, *, shards: int, seed: int = 1,
            budget: Optional[int] = None, time: Optional[str] = None, threads: int = 1,
            verify: bool = False, address: Optional[str] = None, in_process: bool = False,
            ray_options: Optional[dict] = None, **flags: Any) -> Record:
    """``leontief.explore`` as ``shards`` Ray tasks (``threads`` CPUs each): the best record
    of all shards (``leontief.merge(..., best=True)``: ties to the lowest unit;
    ``verify=True`` re-derives it), with ``"best": True``. ``budget`` and ``time`` apply to
    each shard; ``flags`` are ``leontief.explore``'s other keywords.

    # Example
    ```python
    leontief.ray.explore("drf", "rm-loss", shards=2, seed=1, strategy="exhaustive", local=0,
                         users=(2, 3), resources=(2, 2))["value"]   # Fraction(2, 3)
    ```
    """
    kwargs = dict(flags, seed=seed, budget=budget, time=time)
    parts = run_shards("explore", (mechanism, metric), kwargs, shards=shards, threads=threads,
                       address=address, in_process=in_process, ray_options=ray_options)
    best = list(_leontief.merge([r for part in parts for r in part], verify=verify, best=True))
    if len(best) != 1:
        raise RuntimeError(f"explore: expected one best record from the shards, found {len(best)}")
    return best[0]
