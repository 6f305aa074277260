"""Generated instance spaces: ``search`` for counterexamples, ``explore`` for a metric's
extremes, and ``merge`` for their records.

:func:`search` and :func:`explore` run on a worker thread and yield records (dicts with
Fractions, the CLI's JSONL fields) as they are found; the same seed gives the same records at
any thread count. :func:`_explore_argv` is also what ``leontief.ray.explore`` hands its
workers.

See Also
--------
leontief : the package, which re-exports the public names.
leontief.ray : the same searches spread over a Ray cluster.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union

from . import _leontief
from ._cli import _command_argv, _flags

__all__ = ["explore", "merge", "search"]


def search(
    mechanism: str,
    properties: Union[str, Sequence[str]],
    *,
    budget: Optional[int] = None,
    time: Any = None,
    max_found: Optional[int] = None,
    seed: int = 1,
    shard: Any = None,
    threads: Optional[int] = None,
    strategy: Optional[str] = None,
    users: Any = None,
    resources: Any = None,
    values: Any = None,
    zeros: Any = None,
    weights: bool = False,
    caps: bool = False,
    pools: Any = None,
    max_liars: Optional[int] = None,
    no_shrink: bool = False,
    unit_log: bool = False,
) -> Iterator[Dict[str, Any]]:
    """Hunts counterexamples (``leontief search``), yielding them as found.

    The search runs on a worker thread; closing or dropping the iterator, or Ctrl-C, stops
    it. Without ``budget`` or ``time`` the CLI's default of 30 s applies.

    Parameters
    ----------
    mechanism : str
        The mechanism.
    properties : str or sequence of str
        The properties to refute.
    budget : int, optional
        Scenarios to try.
    time : float or str, optional
        Seconds, or a duration such as ``"10s"``.
    max_found : int, optional
        Stop after this many counterexamples.
    seed : int, default 1
        The seed; the same seed gives the same records at any thread count.
    shard : (int, int), optional
        ``(i, n)``: the units ``k`` with ``k mod n = i``.
    threads : int, optional
        Workers.
    strategy, users, resources, values, zeros, weights, caps, pools, max_liars, no_shrink
        The instance space and the search's flags, as the CLI's (``users=(2, 4)`` for
        ``--users 2..4``).
    unit_log : bool, default False
        Yield a record per examined unit instead (``leontief.ray.search`` replays the
        shards' into one process's run).

    Returns
    -------
    Records
        An iterator of records (dicts with Fractions, the CLI's JSONL fields); its
        ``summaries`` once exhausted.

    Examples
    --------
    DRF is not resource monotonic (the DRF paper, section 5): a witness on the grid.

    >>> r = next(search("drf", "rm", strategy="exhaustive", users=(2, 3), resources=(2, 2)))
    >>> r["mechanism"], r["property"]
    ('drf', 'rm')
    """
    return _leontief.records(_command_argv("search", locals()))


def explore(
    mechanism: str,
    metric: str,
    *,
    budget: Optional[int] = None,
    time: Any = None,
    seed: int = 1,
    shard: Any = None,
    threads: Optional[int] = None,
    strategy: Optional[str] = None,
    users: Any = None,
    resources: Any = None,
    values: Any = None,
    zeros: Any = None,
    weights: bool = False,
    caps: bool = False,
    pools: Any = None,
    **flags: Any,
) -> Iterator[Dict[str, Any]]:
    """Optimizes a metric over generated instances (``leontief explore``).

    Parameters
    ----------
    mechanism : str
        The mechanism.
    metric : str
        The metric (``sp-gain``, ``rm-loss``, ``pm-loss``, ...; docs/explore.md).
    budget, time, seed, shard, threads, strategy, users, resources, values, zeros, weights, caps, pools
        As for :func:`search`.
    **flags
        Explore's other flags (``utility``, ``family``, ``local``, ...).

    Returns
    -------
    Records
        An iterator of records, one per improvement, the last marked ``best=True``.

    Examples
    --------
    >>> records = list(explore("asset", "sp-gain", budget=2000))
    >>> records[-1]["best"], records[-1]["metric"]
    (True, 'sp-gain')
    """
    return _leontief.records(_command_argv("explore", locals()))


def _explore_argv(mechanism: str, metric: str, *, seed: int = 1, **flags: Any) -> List[str]:
    """``explore``'s command line from its keywords (what ``leontief.ray.explore`` hands to
    its workers): ranges as ``2..4``, a shard as ``i/n``, a time in seconds as ``"Ns"``."""
    return _command_argv("explore", locals())



def merge(records: Iterable[Mapping[str, Any]], *, verify: bool = False, best: bool = False) -> List[Dict[str, Any]]:
    """Merges records (``leontief merge``).

    Parameters
    ----------
    records : iterable of dict
        Search or explore records.
    verify : bool, default False
        Re-verify each record exactly from its data.
    best : bool, default False
        Keep the best explore record per (mechanism, metric, utility).

    Returns
    -------
    list of dict
        Duplicates (by the recomputed canonical key) dropped, in the order (mechanism,
        property, seed, unit).

    Examples
    --------
    >>> found = list(search("drf", "rm", strategy="exhaustive", users=(2, 3), resources=(2, 2)))
    >>> len(merge(found + found)) == len(found)
    True
    """
    jsonl = "".join(_leontief.dumps(dict(r), True) + "\n" for r in records)
    argv = ["merge", "records"] + _flags(verify=verify, best=best)
    merged, _ = _leontief.run(argv, {"records": jsonl}, False, False, True)
    # The JSONL read in one call, as a list.
    return _leontief.loads("[" + ",".join(merged.splitlines()) + "]")
