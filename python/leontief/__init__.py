"""Exact multi-resource and hierarchical fair allocation (DRF, CEEI, HDRF), in-process.

The package runs the ``leontief`` command line's own code in-process (a Rust extension
module built with PyO3): the same flags (keyword names are the CLI's flag names with ``_``),
the same checks and error messages, the same JSON, with every exact number a
:class:`fractions.Fraction` instead of a ``"p/q"`` string.

Instances and trees are dicts in the CLI's JSON schema (or a JSON string, or a path).
Exact inputs may be ``int``, ``str`` (``"7/3"``, ``"0.37"``), :class:`fractions.Fraction` or
:class:`decimal.Decimal`; a non-integral ``float`` is refused (it is not the number it
prints as) with :class:`InvalidInput` naming the field.

Example -- the DRF paper's (Ghodsi et al., NSDI 2011, section 4) running example: 9 CPUs and
18 GB, user A's tasks need <1 CPU, 4 GB>, B's <3 CPUs, 1 GB>; DRF gives A 3 tasks and B 2,
both at dominant share 2/3:

>>> import leontief
>>> a = leontief.solve({"capacity": [9, 18], "users": [
...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
>>> a.users["A"].tasks, a.users["B"].tasks
(Fraction(3, 1), Fraction(2, 1))
>>> a.users["A"].dominant_share
Fraction(2, 3)

References: https://www.usenix.org/legacy/event/nsdi11/tech/full_papers/Ghodsi.pdf
"""

from __future__ import annotations

import json as _json
import os as _os
from dataclasses import dataclass as _dataclass
from functools import cached_property as _cached_property
from fractions import Fraction
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import _leontief
from ._leontief import InvalidInput, Mismatch

__all__ = [
    "Allocation",
    "CheckResult",
    "InvalidInput",
    "Mismatch",
    "Records",
    "ReproduceReport",
    "Simulation",
    "TreeAllocation",
    "UserAllocation",
    "Verdict",
    "VerifyResult",
    "check",
    "compare",
    "dumps",
    "explore",
    "hdrf",
    "loads",
    "merge",
    "reproduce",
    "run",
    "search",
    "simulate",
    "solve",
    "verify",
]

__version__ = _leontief.__version__

Records = _leontief.Records

# The name under which an in-memory instance or tree is handed to the command.
_INPUT = "<input>"


def dumps(value: Any) -> str:
    """JSON text of ``value`` as the CLI reads it (Fractions as ``"p/q"``, Decimals as digits)."""
    return _leontief.dumps(value)


def loads(text: str) -> Any:
    """Parses the CLI's JSON: exact ``"p/q"`` strings become Fractions (names stay strings)."""
    return _leontief.loads(text)


def _source(value: Any) -> Tuple[str, Dict[str, Any]]:
    """The FILE argument and in-memory inputs for an instance/tree given as a dict, JSON text
    or path."""
    if isinstance(value, (str, bytes)) and not isinstance(value, bytes):
        if value.lstrip().startswith(("{", "[")):
            return _INPUT, {_INPUT: value}
        return value, {}
    if isinstance(value, _os.PathLike):
        return _os.fspath(value), {}
    if isinstance(value, Mapping):
        return _INPUT, {_INPUT: dict(value)}
    raise InvalidInput(
        f"input: expected a dict in the CLI's JSON schema, JSON text or a path, found {type(value).__name__}"
    )


def _flag_value(name: str, value: Any) -> str:
    if isinstance(value, bool):
        raise InvalidInput(f"{name}: expected a value, found {value!r}")
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        raise InvalidInput(
            f"{name}: expected an exact number (int, str, Fraction or Decimal), found the float {value!r} (a float is not exact)"
        )
    if isinstance(value, (list, tuple)):
        return ",".join(_flag_value(name, v) for v in value)
    if isinstance(value, Fraction):
        return str(value)
    return str(value)


def _flags(**kw: Any) -> List[str]:
    """CLI flags from keyword arguments: ``None``/``False`` omitted, ``True`` as a switch,
    sequences comma-joined; ``users=(2, 4)`` style ranges as ``2..4``."""
    argv: List[str] = []
    for key, value in kw.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        else:
            argv += [flag, _flag_value(flag, value)]
    return argv


def _range(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]}..{value[1]}"
    return value


def _shard(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2:
        return f"{value[0]}/{value[1]}"
    return value


def _time(value: Any) -> Any:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value}s"
    return value


def run(*argv: str, inputs: Optional[Mapping[str, Any]] = None, json: bool = True) -> Any:
    """Runs any command as the CLI takes it (``run("solve", "x.json", "--trace")``) and returns
    its JSON as Python objects (``json=False``: its text). ``inputs`` maps names used as FILE
    arguments to dicts or texts held in memory."""
    return _leontief.run(list(argv), dict(inputs or {}), json, True)


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


# ---------------------------------------------------------------------------------------
# solve / compare
# ---------------------------------------------------------------------------------------


@_dataclass(frozen=True)
class UserAllocation:
    """One user's exact share: tasks, the resources they use, dominant and weighted share."""

    name: str
    tasks: Fraction
    allocation: List[Fraction]
    dominant_share: Fraction
    weighted_share: Optional[Fraction]


def _num(x: Any) -> Any:
    """A decimal string of an inexact answer as a float (exact values unchanged)."""
    if isinstance(x, str):
        try:
            return float(x)
        except ValueError:
            return x
    return x


def _from_rust(method: str, doc: str) -> Any:
    """An attribute of an answer held in Rust, ``self._answer.<method>()``: made on first
    access, then kept (in the instance's ``__dict__``, where the answers read from JSON keep
    theirs from the start)."""

    def make(self: Any) -> Any:
        return getattr(self._answer, method)()

    make.__doc__ = doc
    return _cached_property(make)


def _extra_field(key: str, doc: str) -> Any:
    """A field the mechanism writes after the allocation, ``key`` of the Rust answer's
    extra fields (``None`` when it writes none); made on first access, then kept."""

    def make(self: Any) -> Any:
        return self._extra.get(key)

    make.__doc__ = doc
    return _cached_property(make)


class Allocation:
    """An allocation as ``leontief solve`` prints it, exact numbers as Fractions.

    ``users`` maps each user's name to its :class:`UserAllocation`; ``consumption`` and
    ``saturated`` are per resource. CEEI answers also carry ``status``, ``gap``, ``interval``
    and ``prices`` (``None`` for the other mechanisms); ``trace`` is the filling's events with
    ``trace=True``.

    An exact answer keeps its numbers in Rust until they are read: each attribute is built
    on first access (then kept), and ``to_dict()`` assembles the CLI's JSON from them.

    >>> a = solve({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    >>> [(u.name, u.tasks) for u in a.users.values()]
    [('A', Fraction(3, 1)), ('B', Fraction(2, 1))]
    """

    def __init__(self, data: Optional[Dict[str, Any]] = None, *, _answer: Any = None):
        self._answer = _answer
        if _answer is not None:
            self.mechanism: str = _answer.mechanism
            self.exact: bool = _answer.exact
            return
        data = data if data is not None else {}
        self._data = data
        self.mechanism = data.get("mechanism", "")
        self.exact = bool(data.get("exact", False))
        self.resources = data.get("resources", [])
        self.capacity = data.get("capacity", [])
        self.users = {
            u["name"]: UserAllocation(
                u["name"],
                u.get("tasks"),
                u.get("allocation", []),
                u.get("dominant_share"),
                u.get("weighted_share"),
            )
            for u in data.get("users", [])
        }
        self.consumption = data.get("consumption")
        self.saturated = data.get("saturated")
        self.trace = data.get("trace")
        # CEEI: "solved" when the numeric answer was certified (then exact, gap 0); an
        # uncertified answer has decimal strings (read here as floats), its proven relative
        # gap, and `interval` per user: [exactly feasible tasks, the numeric answer].
        self.certified = data.get("certified")
        self.status = data.get("status")
        self.gap = data.get("relative_gap")
        self.prices = data.get("prices")
        self.feasible_tasks = data.get("feasible_tasks")
        self.interval = None
        if not self.exact:
            for u in self.users.values():
                object.__setattr__(u, "tasks", _num(u.tasks))
                object.__setattr__(u, "allocation", [_num(x) for x in u.allocation])
                object.__setattr__(u, "dominant_share", _num(u.dominant_share))
            if self.feasible_tasks is not None:
                self.interval = {
                    n: (self.feasible_tasks.get(n), u.tasks) for n, u in self.users.items()
                }

    # An answer held in Rust: each attribute made on first access, then kept (in the
    # instance's __dict__, where the answers read from JSON keep theirs from the start).

    resources: List[str] = _from_rust("resources", "The resources' names.")
    capacity: List[Fraction] = _from_rust("capacity", "The capacities.")
    consumption: Optional[List[Fraction]] = _from_rust(
        "consumption", "What the users consume of each resource."
    )
    saturated: Optional[List[str]] = _from_rust("saturated", "The resources used to capacity.")
    _extra: Dict[str, Any] = _from_rust("extra", "The fields written after the allocation.")
    trace: Optional[Any] = _extra_field(
        "trace", "The filling's events (``trace=True``), else ``None``."
    )
    certified: Optional[bool] = _extra_field(
        "certified", "CEEI: whether the numeric answer was certified exact (``None`` otherwise)."
    )
    status: Optional[str] = _extra_field(
        "status", "CEEI: the solver's status (``None`` otherwise)."
    )
    gap: Optional[Any] = _extra_field(
        "relative_gap", "CEEI: the proven relative gap (``None`` otherwise)."
    )
    prices: Optional[Any] = _extra_field("prices", "CEEI: the prices (``None`` otherwise).")
    feasible_tasks: Optional[Dict[str, Fraction]] = _extra_field(
        "feasible_tasks", "Uncertified CEEI: exactly feasible tasks per user (``None`` otherwise)."
    )

    @_cached_property
    def users(self) -> Dict[str, UserAllocation]:
        """Each user's :class:`UserAllocation`, by name, in the instance's order."""
        new = object.__new__
        users = {}
        for name, tasks, allocation, dominant, weighted in self._answer.users():
            u = new(UserAllocation)
            u.__dict__.update(
                name=name,
                tasks=tasks,
                allocation=allocation,
                dominant_share=dominant,
                weighted_share=weighted,
            )
            users[name] = u
        return users

    @_cached_property
    def interval(self) -> Optional[Dict[str, Tuple[Any, Any]]]:
        """Uncertified CEEI: per user, [exactly feasible tasks, the numeric answer]."""
        return None

    @_cached_property
    def _data(self) -> Dict[str, Any]:
        # The CLI's JSON (`write_json`'s fields and order), from the attributes' objects.
        data: Dict[str, Any] = {
            "mechanism": self.mechanism,
            "exact": self.exact,
            "resources": self.resources,
            "capacity": self.capacity,
            "users": [
                {
                    "name": u.name,
                    "tasks": u.tasks,
                    "allocation": u.allocation,
                    "dominant_share": u.dominant_share,
                    "weighted_share": u.weighted_share,
                }
                for u in self.users.values()
            ],
            "consumption": self.consumption,
            "saturated": self.saturated,
        }
        data.update(self._extra)
        return data

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON, with Fractions in place of the exact strings."""
        return self._data

    def to_pandas(self):
        """One row per user: name, tasks, dominant and weighted share, and one column per
        resource's allocation (pandas is imported here)."""
        pd = _pandas()
        rows = []
        for u in self.users.values():
            row = {
                "name": u.name,
                "tasks": u.tasks,
                "dominant_share": u.dominant_share,
                "weighted_share": u.weighted_share,
            }
            for r, x in zip(self.resources, u.allocation):
                row[r] = x
            rows.append(row)
        return pd.DataFrame(rows).set_index("name")

    def __reduce__(self) -> Any:
        # Pickled as the CLI's JSON (the Rust answer is not picklable).
        return (Allocation, (self.to_dict(),))

    def __repr__(self) -> str:
        tasks = ", ".join(f"{n}: {u.tasks}" for n, u in self.users.items())
        return f"Allocation({self.mechanism}, {{{tasks}}})"


def solve(
    instance: Any,
    mechanism: str = "drf",
    *,
    trace: bool = False,
    threads: Optional[int] = None,
    **mechanism_flags: Any,
) -> Allocation:
    """One mechanism on one instance, exactly (``leontief solve``).

    ``mechanism_flags`` are solve's other flags with ``_`` for ``-``: ``misfit``,
    ``machines``, ``tie_break`` (discrete-drf), ``form`` (asset). ``threads`` sizes the pool
    that sums and writes large answers (the answer is the same at any count).

    The DRF paper's example: A gets 3 tasks, B 2.

    >>> a = solve({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    >>> a.users["A"].tasks, a.users["B"].tasks, a.saturated
    (Fraction(3, 1), Fraction(2, 1), ['r1'])

    Raises :class:`InvalidInput` with the CLI's message on bad input, e.g.
    ``users[1].demand: expected 2 entries, one per resource, found 3``.
    """
    _threads(threads)
    file, inputs = _source(instance)
    argv = ["solve", file] + _flags(mechanism=mechanism, trace=trace, **mechanism_flags)
    out = _leontief.solve(argv, inputs, threads)
    if isinstance(out, dict):
        return Allocation(out)
    return Allocation(_answer=out)


def _threads(threads: Optional[int]) -> None:
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise InvalidInput("--threads: expected at least 1")


def compare(instance: Any, mechanisms: Optional[Iterable[str]] = None) -> Dict[str, Allocation]:
    """Every flat mechanism on one instance (``leontief solve`` per mechanism, as
    ``leontief compare`` lists them), or only ``mechanisms``: name -> :class:`Allocation`."""
    file, inputs = _source(instance)
    if mechanisms is None:
        listed = _leontief.run(["compare", file, "--format", "json"], inputs, True, False)
        mechanisms = [m["mechanism"] for m in listed["mechanisms"]]
    return {m: solve(instance, m) for m in mechanisms}


# ---------------------------------------------------------------------------------------
# check / verify
# ---------------------------------------------------------------------------------------


@_dataclass(frozen=True)
class Verdict:
    """One property's verdict: whether it holds, whether the check was bounded (a finite
    set of scenarios), and a witness (a dict with Fractions) when it fails."""

    property: str
    holds: bool
    bounded: bool
    witness: Optional[Dict[str, Any]]
    data: Dict[str, Any]

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON object for this property."""
        return self.data


class CheckResult:
    """What ``leontief check`` decides: one :class:`Verdict` per property, in order."""

    def __init__(self, data: List[Dict[str, Any]]):
        self._data = data
        self.verdicts: List[Verdict] = [
            Verdict(v["property"], bool(v["holds"]), bool(v.get("bounded")), v.get("witness"), v)
            for v in data
        ]

    @property
    def holds(self) -> bool:
        """Whether every property holds."""
        return all(v.holds for v in self.verdicts)

    def __getitem__(self, prop: str) -> Verdict:
        for v in self.verdicts:
            if v.property == prop:
                return v
        raise KeyError(prop)

    def to_dict(self) -> List[Dict[str, Any]]:
        """The CLI's JSON (a list, one object per property)."""
        return self._data

    def to_pandas(self):
        """One row per property: property, holds, bounded, scenarios, note."""
        pd = _pandas()
        keys = ("property", "holds", "bounded", "scenarios", "note")
        return pd.DataFrame([{k: v.get(k) for k in keys} for v in self._data])

    def __repr__(self) -> str:
        return "CheckResult(" + ", ".join(f"{v.property}={v.holds}" for v in self.verdicts) + ")"


def check(
    instance: Any,
    mechanism: str = "drf",
    properties: Union[str, Sequence[str]] = ("si", "ef", "po"),
    *,
    lies: Optional[Mapping[str, Sequence[Any]]] = None,
    remove: Optional[str] = None,
    capacity: Optional[Sequence[Any]] = None,
) -> CheckResult:
    """Decides properties of a mechanism on one instance, exactly (``leontief check``).

    ``lies`` maps user names to the demands they report (``--lie NAME=v1,v2``), ``remove`` a
    user who leaves (pm), ``capacity`` the grown capacities (rm).

    >>> r = check({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    >>> r.holds
    True
    """
    if isinstance(properties, str):
        properties = [properties]
    file, inputs = _source(instance)
    argv = ["check", file] + _flags(mechanism=mechanism, property=list(properties))
    for name, report in (lies or {}).items():
        argv += ["--lie", f"{name}={_flag_value('--lie', list(report))}"]
    argv += _flags(remove=remove, capacity=list(capacity) if capacity is not None else None)
    return CheckResult(_leontief.run(argv, inputs, True, False))


class VerifyResult:
    """``leontief verify``'s summaries (one per property) and its tallies."""

    def __init__(self, data: Any, tallies: List[str]):
        self._data = data
        self.summaries: List[Dict[str, Any]] = data if isinstance(data, list) else [data]
        self.tallies = tallies

    @property
    def holds(self) -> bool:
        """Whether no property was violated on any instance."""
        return all(s.get("violations", 0) == 0 for s in self.summaries)

    def to_dict(self) -> Any:
        """The CLI's JSON (an object for one property, a list for several)."""
        return self._data

    def to_pandas(self):
        """One row per property: property, instances, scenarios, violations, bounded."""
        pd = _pandas()
        keys = ("mechanism", "property", "instances", "scenarios", "violations", "bounded")
        return pd.DataFrame([{k: s.get(k) for k in keys} for s in self.summaries])

    def __repr__(self) -> str:
        return "VerifyResult(" + "; ".join(self.tallies) + ")"


def verify(
    mechanism: str,
    properties: Union[str, Sequence[str]],
    *,
    instances: int = 1000,
    users: Any = (2, 4),
    resources: Any = (2, 3),
    zeros: Any = "1/3",
    weights: bool = False,
    caps: bool = False,
    pools: Any = None,
    witnesses: int = 3,
    seed: int = 1,
    threads: Optional[int] = None,
) -> VerifyResult:
    """Verifies properties on generated instances (``leontief verify``), in parallel on
    ``threads`` workers; the same seed gives the same summary at any thread count."""
    if isinstance(properties, str):
        properties = [properties]
    argv = ["verify"] + _flags(
        mechanism=mechanism,
        property=list(properties),
        instances=instances,
        users=_range(users),
        resources=_range(resources),
        zeros=zeros,
        weights=weights,
        caps=caps,
        pools=_range(pools),
        witnesses=witnesses,
        seed=seed,
        threads=threads,
    )
    data, tallies = _leontief.verify(argv)
    return VerifyResult(data, tallies)


# ---------------------------------------------------------------------------------------
# search / explore / merge
# ---------------------------------------------------------------------------------------


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
    """Hunts counterexamples (``leontief search``): an iterator of records (dicts with
    Fractions, the CLI's JSONL fields), yielded as found while the search runs on a worker
    thread. Without ``budget`` or ``time`` the CLI's default of 30 s applies. ``shard`` is
    ``(i, n)``; ``time`` seconds or a duration such as ``"10s"``. Closing or dropping the
    iterator, or Ctrl-C, stops the search. ``unit_log=True`` yields a record per examined
    unit instead (``leontief.ray.search`` replays the shards' into one process's run).

    The lecture's collusion, found from a cold start:

    >>> r = next(search("drf", "gsp-strong", max_found=1, budget=200000))  # doctest: +SKIP
    """
    if isinstance(properties, str):
        properties = [properties]
    argv = ["search"] + _flags(
        mechanism=mechanism,
        property=list(properties),
        budget=budget,
        time=_time(time),
        max_found=max_found,
        seed=seed,
        shard=_shard(shard),
        threads=threads,
        strategy=strategy,
        users=_range(users),
        resources=_range(resources),
        values=values,
        zeros=zeros,
        weights=weights,
        caps=caps,
        pools=_range(pools),
        max_liars=max_liars,
        no_shrink=no_shrink,
        unit_log=unit_log,
    )
    return _leontief.search(argv)


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
    """Optimizes a metric over generated instances (``leontief explore``): an iterator of
    records, one per improvement, the last marked ``best=True``. Other explore flags
    (``utility``, ``family``, ``local``, ...) pass through ``flags``."""
    return _leontief.explore(_explore_argv(
        mechanism, metric, budget=budget, time=time, seed=seed, shard=shard, threads=threads,
        strategy=strategy, users=users, resources=resources, values=values, zeros=zeros,
        weights=weights, caps=caps, pools=pools, **flags))


def _explore_argv(mechanism: str, metric: str, *, seed: int = 1, **flags: Any) -> List[str]:
    """``explore``'s command line from its keywords (what ``leontief.ray.explore`` hands to
    its workers): ranges as ``2..4``, a shard as ``i/n``, a time in seconds as ``"Ns"``."""
    for key, convert in (("time", _time), ("shard", _shard), ("users", _range),
                         ("resources", _range), ("pools", _range)):
        if key in flags:
            flags[key] = convert(flags[key])
    return ["explore"] + _flags(mechanism=mechanism, metric=metric, seed=seed, **flags)


def merge(records: Iterable[Mapping[str, Any]], *, verify: bool = False, best: bool = False) -> List[Dict[str, Any]]:
    """Merges records (``leontief merge``): duplicates (by the recomputed canonical key)
    dropped, in the order (mechanism, property, seed, unit); ``best=True`` keeps the best
    explore record per (mechanism, metric, utility); ``verify=True`` re-verifies each."""
    jsonl = "".join(_leontief.dumps(dict(r), True) + "\n" for r in records)
    merged, _read, _dropped = _leontief.merge(jsonl, verify, best)
    return merged


# ---------------------------------------------------------------------------------------
# trees: hdrf / simulate
# ---------------------------------------------------------------------------------------


class TreeAllocation:
    """A hierarchical policy's allocation (``leontief hdrf``): ``nodes`` by path, each the
    CLI's node object (allocation, dominant share, satisfaction, tasks) with Fractions."""

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.policy: str = data.get("policy", "")
        self.resources: List[str] = data.get("resources", [])
        self.capacity: List[Fraction] = data.get("capacity", [])
        self.nodes: Dict[str, Dict[str, Any]] = {n["path"]: n for n in data.get("nodes", [])}

    @property
    def leaves(self) -> Dict[str, Dict[str, Any]]:
        """The leaves by path."""
        return {p: n for p, n in self.nodes.items() if n.get("kind") == "leaf"}

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON, with Fractions."""
        return self._data

    def to_pandas(self):
        """One row per node: path, kind, weight, guaranteed share, dominant share,
        satisfaction, tasks, and one column per resource's allocation."""
        pd = _pandas()
        rows = []
        for n in self.nodes.values():
            row = {k: n.get(k) for k in ("path", "kind", "weight", "guaranteed_share", "dominant_share", "satisfaction", "tasks")}
            for r, x in zip(self.resources, n.get("allocation", [])):
                row[r] = x
            rows.append(row)
        return pd.DataFrame(rows).set_index("path")

    def __repr__(self) -> str:
        return f"TreeAllocation({self.policy}, {len(self.nodes)} nodes)"


def hdrf(tree: Any, policy: str = "hdrf") -> Union[TreeAllocation, Dict[str, TreeAllocation]]:
    """Allocates on a weighted tree with a hierarchical policy (``leontief hdrf``):
    ``collapsed``, ``naive``, ``min-satisfaction`` or ``hdrf``; ``"all"`` gives a dict
    policy -> :class:`TreeAllocation`."""
    file, inputs = _source(tree)
    data = _leontief.run(["hdrf", file, "--policy", policy], inputs, True, False)
    if isinstance(data, list):
        return {d["policy"]: TreeAllocation(d) for d in data}
    return TreeAllocation(data)


class Simulation:
    """A simulation's result (``leontief simulate``) under one policy, or several
    (``policy="all"``: ``runs`` by policy). ``summary`` is the first run's per-node figures
    by path (time-average share, minimum steady share, time below the guarantee, starvation),
    ``series`` its samples (time, every node's dominant share and satisfaction; empty with
    ``no_series=True``)."""

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        runs = data.get("runs") if isinstance(data.get("runs"), dict) else None
        self.runs: Dict[str, Dict[str, Any]] = runs if runs is not None else {data.get("policy", ""): data}
        first = next(iter(self.runs.values()))
        self.policy: str = first.get("policy", next(iter(self.runs)))
        self.paths: List[str] = [n["path"] for n in first.get("nodes", [])]
        self.summary: Dict[str, Dict[str, Any]] = {n["path"]: n for n in first.get("nodes", [])}
        self.series: Optional[List[Dict[str, Any]]] = first.get("series")

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON, with Fractions."""
        return self._data

    def to_pandas(self):
        """The first run's series, one row per sample: ``time`` and one column per node and
        figure (``"root/A dominant_share"``, ``"root/A satisfaction"``); without a series,
        the per-node summary, one row per node."""
        pd = _pandas()
        if not self.series:
            return pd.DataFrame(list(self.summary.values())).set_index("path")
        rows = []
        for sample in self.series:
            row = {"time": sample.get("time")}
            for key in ("dominant_share", "satisfaction"):
                for path, x in zip(self.paths, sample.get(key, [])):
                    row[f"{path} {key}"] = x
            rows.append(row)
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        return f"Simulation({', '.join(self.runs)})"


def simulate(tree: Any, workload: Any = None, policy: str = "naive", **flags: Any) -> Simulation:
    """Simulates task churn on a tree with a workload (``leontief simulate``). ``tree`` is
    the workload file's dict (tree plus workload) or, with ``workload``, a tree dict that the
    workload's keys are added to. Other flags (``machines``, ``horizon``, ``every``,
    ``seed``, ``tie``, ``no_series`` ...) pass through ``flags``."""
    if workload is not None:
        if not isinstance(tree, Mapping) or not isinstance(workload, Mapping):
            raise InvalidInput("workload: give the tree and the workload as dicts")
        merged = dict(tree)
        merged.update(workload)
        tree = merged
    file, inputs = _source(tree)
    argv = ["simulate", file] + _flags(policy=policy, **flags)
    return Simulation(_leontief.run(argv, inputs, True, True))


# ---------------------------------------------------------------------------------------
# reproduce
# ---------------------------------------------------------------------------------------


class ReproduceReport(list):
    """The sources' worked examples re-derived (``leontief reproduce``): a list of rows
    (dicts with ``example``, the value's name, the source's value, ours and ``ok``)."""

    def __init__(self, data: Any, error: Optional[str]):
        self.data = data
        self.error = error
        super().__init__(_rows(data))

    @property
    def passed(self) -> int:
        """Rows that match their source."""
        return sum(1 for r in self if r.get("ok"))

    @property
    def failed(self) -> int:
        """Rows that differ from their source."""
        return sum(1 for r in self if not r.get("ok"))

    def to_dict(self) -> Any:
        """The CLI's JSON report."""
        return self.data

    def to_pandas(self):
        """One row per value."""
        return _pandas().DataFrame(list(self))


def _rows(data: Any) -> List[Dict[str, Any]]:
    reports = data.get("examples", data) if isinstance(data, dict) else data
    rows: List[Dict[str, Any]] = []
    for rep in reports if isinstance(reports, list) else []:
        name = rep.get("name")
        for item in rep.get("rows", rep.get("checks", [])):
            row = {"example": name}
            row.update(item)
            rows.append(row)
    return rows


def reproduce(name: Optional[Union[str, Sequence[str]]] = None) -> ReproduceReport:
    """Re-derives the sources' worked examples (all, or those named) and compares each value
    with the source's."""
    names = [] if name is None else [name] if isinstance(name, str) else list(name)
    argv = ["reproduce", "--format", "json"] + (names if names else ["--all"])
    out = _leontief.run(argv, {}, True, True)
    if isinstance(out, tuple):
        return ReproduceReport(out[0], out[1])
    return ReproduceReport(out, None)
