"""Exact multi-resource and hierarchical fair allocation (DRF, CEEI, HDRF), in-process.

The package runs the ``leontief`` command line's own code in-process (a Rust extension
module built with PyO3): the same flags (keyword names are the CLI's flag names with ``_``,
with the CLI's defaults; ``None`` leaves a flag out), the same checks and error messages,
the same answers, with every exact number a :class:`fractions.Fraction` instead of a
``"p/q"`` string.

Instances and trees are dicts in the CLI's JSON schema (or a JSON string, or a path).
Exact inputs may be ``int``, ``str`` (``"7/3"``, ``"0.37"``), :class:`fractions.Fraction` or
:class:`decimal.Decimal`; a non-integral ``float`` is refused (it is not the number it
prints as) with :class:`InvalidInput` naming the field.

Results are read-only mappings: an :class:`Allocation` from user name to
:class:`UserAllocation`, a :class:`TreeAllocation` from node path to
:class:`NodeAllocation`, a :class:`CheckResult` from property to :class:`Verdict`, an
:class:`OfferOrder` from node path to :class:`OrderNode`.

Examples
--------
The DRF paper's (Ghodsi et al., NSDI 2011, section 4) running example: 9 CPUs and 18 GB,
user A's tasks need <1 CPU, 4 GB>, B's <3 CPUs, 1 GB>; DRF gives A 3 tasks and B 2, both at
dominant share 2/3:

>>> import leontief
>>> a = leontief.solve({"capacity": [9, 18], "users": [
...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
>>> a["A"].tasks, a["B"].tasks
(Fraction(3, 1), Fraction(2, 1))
>>> a["A"].dominant_share
Fraction(2, 3)

References
----------
https://www.usenix.org/legacy/event/nsdi11/tech/full_papers/Ghodsi.pdf
"""

from __future__ import annotations

import json as _json
import os as _os
from collections.abc import Mapping as _Mapping
from dataclasses import dataclass as _dataclass
from functools import cached_property as _cached_property
from fractions import Fraction
from typing import (
    Any,
    Dict,
    Generic,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

from . import _leontief, examples
from ._leontief import InvalidInput, Mismatch

__all__ = [
    "Allocation",
    "CheckResult",
    "ImportedTree",
    "InvalidInput",
    "Mismatch",
    "NodeAllocation",
    "OfferOrder",
    "OrderNode",
    "Records",
    "ReproduceReport",
    "Simulation",
    "TreeAllocation",
    "UserAllocation",
    "Verdict",
    "VerifyResult",
    "check",
    "compare",
    "compare_policies",
    "compare_simulations",
    "dumps",
    "explore",
    "hdrf",
    "import_kueue",
    "import_yarn",
    "loads",
    "merge",
    "order",
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
    """JSON text of ``value`` as the CLI reads it.

    Parameters
    ----------
    value : object
        Dicts, lists, ints, strings, Fractions (written ``"p/q"``) and Decimals (their
        digits); a non-integral float is refused.

    Returns
    -------
    str
        Compact JSON text.

    Raises
    ------
    InvalidInput
        On a non-integral float, naming its field.

    Examples
    --------
    >>> dumps({"capacity": [Fraction(7, 3), 2]})
    '{"capacity":["7/3",2]}'
    """
    return _leontief.dumps(value)


def loads(text: str) -> Any:
    """Parses the CLI's JSON: exact ``"p/q"`` strings become Fractions (names stay strings).

    Parameters
    ----------
    text : str
        JSON text as the CLI prints it.

    Returns
    -------
    object
        Dicts, lists and Fractions.

    Examples
    --------
    >>> loads('{"name": "3", "tasks": "7/3"}')
    {'name': '3', 'tasks': Fraction(7, 3)}
    """
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
    """Runs any command as the CLI takes it and returns what it prints.

    Parameters
    ----------
    *argv : str
        The command line without the program name, e.g. ``"solve", "x.json", "--trace"``.
    inputs : mapping, optional
        Names used as FILE arguments, each mapped to a dict or a text held in memory.
    json : bool, default True
        Parse the printed JSON into Python objects (Fractions for exact numbers); ``False``
        returns the text.

    Returns
    -------
    object
        The printed JSON as Python objects, or the text.

    Raises
    ------
    InvalidInput
        Bad input or flags, with the CLI's message.

    Examples
    --------
    >>> out = run("solve", "paper", inputs={"paper": {"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}})
    >>> [u["tasks"] for u in out["users"]]
    [Fraction(3, 1), Fraction(2, 1)]
    """
    return _leontief.run(list(argv), dict(inputs or {}), json, True)


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


def _refuse_all(policy: str, instead: str) -> None:
    # One function, one return type: every policy at once has its own function.
    if policy == "all":
        raise InvalidInput(f'policy: "all" runs every policy; use leontief.{instead} for that')


_V = TypeVar("_V")


class _Entries(_Mapping, Generic[_V]):
    """A read-only mapping over the dict ``_entries``, which each subclass builds (or makes on
    first access); the subclass says what its entries are, this class how they are read.

    The mapping's order, equality and ``in`` are the dict's: two results are equal when their
    entries are, whatever else they carry.
    """

    _entries: Dict[str, _V]

    def __getitem__(self, key: str) -> _V:
        return self._entries[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries


# ---------------------------------------------------------------------------------------
# solve / compare
# ---------------------------------------------------------------------------------------


@_dataclass(frozen=True)
class UserAllocation:
    """One user's exact share in an :class:`Allocation`.

    Attributes
    ----------
    name : str
        The user's name.
    tasks : Fraction
        The tasks it runs.
    allocation : list of Fraction
        What it uses of each resource (``tasks`` times its demand).
    dominant_share : Fraction
        Its largest share of any resource.
    weighted_share : Fraction or None
        The dominant share over its weight.

    Examples
    --------
    >>> solve({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})["B"]
    UserAllocation(name='B', tasks=Fraction(2, 1), allocation=[Fraction(6, 1), Fraction(2, 1)], dominant_share=Fraction(2, 3), weighted_share=Fraction(2, 3))
    """

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


class Allocation(_Entries[UserAllocation]):
    """An allocation as ``leontief solve`` prints it: a read-only mapping from each user's
    name to its :class:`UserAllocation`, in the instance's order, exact numbers as Fractions.

    Two allocations are equal when they give every user the same (a mapping's equality),
    whatever the mechanism that found them.

    Attributes
    ----------
    mechanism : str
        The mechanism's name.
    exact : bool
        Whether the numbers are exact (Fractions) or an inexact method's floats.
    resources, capacity : list
        The resources' names and capacities.
    consumption : list of Fraction
        What the users consume of each resource.
    saturated : list of str
        The resources used to capacity.
    users : dict
        The mapping as a dict (name to :class:`UserAllocation`).
    trace : list or None
        The filling's events with ``trace=True``.
    certified, status, gap, prices, interval, feasible_tasks
        CEEI's certificate (``None`` for the other mechanisms).

    Notes
    -----
    An exact answer keeps its numbers in Rust until they are read: each attribute is built on
    first access (then kept), and ``to_dict()`` assembles the CLI's JSON from them.

    Examples
    --------
    >>> a = solve({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    >>> list(a), len(a), "A" in a
    (['A', 'B'], 2, True)
    >>> [(name, u.tasks) for name, u in a.items()]
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

    @property
    def _entries(self) -> Dict[str, UserAllocation]:
        return self.users

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
        """The CLI's JSON, with Fractions in place of the exact strings.

        Returns
        -------
        dict
            ``leontief solve``'s JSON object: mechanism, exact, resources, capacity, users,
            consumption, saturated, then the mechanism's extra fields.

        Examples
        --------
        >>> solve({"capacity": [4], "users": [{"name": "A", "demand": [1]}]}).to_dict()["users"]
        [{'name': 'A', 'tasks': Fraction(4, 1), 'allocation': [Fraction(4, 1)], 'dominant_share': Fraction(1, 1), 'weighted_share': Fraction(1, 1)}]
        """
        return self._data

    def to_pandas(self):
        """One row per user (pandas is imported here).

        Returns
        -------
        pandas.DataFrame
            Indexed by name: tasks, dominant and weighted share, and one column per
            resource's allocation.

        Examples
        --------
        >>> solve({"capacity": [4], "users": [{"name": "A", "demand": [1]}]}).to_pandas().loc["A", "tasks"]
        Fraction(4, 1)
        """
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

    Parameters
    ----------
    instance : dict, str or path
        The instance in the CLI's JSON schema (``capacity``, ``users`` with ``name``,
        ``demand`` and optional ``weight``/``tasks``), its JSON text, or a file's path.
    mechanism : str, default "drf"
        A flat mechanism (``drf``, ``ceei``, ``asset``, ``discrete-drf``, ...) or a tree
        policy ``hdrf:<policy>``.
    trace : bool, default False
        Record the filling's events (``Allocation.trace``).
    threads : int, optional
        Workers summing and writing large answers (the answer is the same at any count).
    **mechanism_flags
        Solve's other flags with ``_`` for ``-``: ``misfit``, ``machines``, ``tie_break``
        (discrete-drf), ``form`` (asset), the tree rules.

    Returns
    -------
    Allocation
        A mapping from user name to :class:`UserAllocation`.

    Raises
    ------
    InvalidInput
        The CLI's message on bad input, naming the field, e.g. ``users[1].demand: expected 2
        entries, one per resource, found 3``.

    Examples
    --------
    The DRF paper's example: A gets 3 tasks, B 2.

    >>> a = solve({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    >>> a["A"].tasks, a["B"].tasks, a.saturated
    (Fraction(3, 1), Fraction(2, 1), ['r1'])
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
    """Every flat mechanism on one instance (``leontief compare``'s list), or ``mechanisms``.

    Parameters
    ----------
    instance : dict, str or path
        As for :func:`solve`.
    mechanisms : iterable of str, optional
        The mechanisms to run; by default every one ``leontief compare`` lists.

    Returns
    -------
    dict
        Mechanism name to :class:`Allocation`, in that order.

    Examples
    --------
    DRF as an LP sequence (drf-lp) gives DRF's allocation:

    >>> both = compare({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}, ["drf", "drf-lp"])
    >>> both["drf"] == both["drf-lp"]
    True
    """
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
    """One property's verdict in a :class:`CheckResult`.

    Attributes
    ----------
    property : str
        The property's name (``si``, ``ef``, ``sp``, ...).
    holds : bool
        Whether it holds.
    bounded : bool
        Whether the check tried a finite set of scenarios (a lie, a departure, ...) rather
        than deciding it outright.
    witness : dict or None
        When it fails, the scenario that shows it (Fractions).
    data : dict
        The CLI's JSON object for this property.

    Examples
    --------
    >>> v = check({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}, properties="ef")["ef"]
    >>> v.property, v.holds, v.witness
    ('ef', True, None)
    """

    property: str
    holds: bool
    bounded: bool
    witness: Optional[Dict[str, Any]]
    data: Dict[str, Any]

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON object for this property.

        Returns
        -------
        dict
            ``property``, ``holds``, ``bounded``, and the check's own fields.

        Examples
        --------
        >>> check({"capacity": [2], "users": [{"name": "A", "demand": [1]}]},
        ...       properties="si")["si"].to_dict()["holds"]
        True
        """
        return self.data


class CheckResult(_Entries[Verdict]):
    """What ``leontief check`` decides: a read-only mapping from property name to
    :class:`Verdict`, in the order the properties were asked.

    Attributes
    ----------
    verdicts : list of Verdict
        The verdicts in order.
    holds : bool
        Whether every property holds.

    Examples
    --------
    >>> r = check({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}, properties=["si", "sp"])
    >>> list(r), "sp" in r, r["sp"].holds, r.holds
    (['si', 'sp'], True, True, True)
    """

    def __init__(self, data: List[Dict[str, Any]]):
        self._data = data
        self.verdicts: List[Verdict] = [
            Verdict(v["property"], bool(v["holds"]), bool(v.get("bounded")), v.get("witness"), v)
            for v in data
        ]
        self._entries = {v.property: v for v in self.verdicts}

    @property
    def holds(self) -> bool:
        """Whether every property holds."""
        return all(v.holds for v in self.verdicts)

    def to_dict(self) -> List[Dict[str, Any]]:
        """The CLI's JSON.

        Returns
        -------
        list of dict
            One object per property, in order.

        Examples
        --------
        >>> [v["property"] for v in check({"capacity": [2], "users": [{"name": "A", "demand": [1]}]},
        ...                               properties=["si", "ef"]).to_dict()]
        ['si', 'ef']
        """
        return self._data

    def to_pandas(self):
        """One row per property (pandas is imported here).

        Returns
        -------
        pandas.DataFrame
            Columns property, holds, bounded, scenarios, note.

        Examples
        --------
        >>> check({"capacity": [2], "users": [{"name": "A", "demand": [1]}]},
        ...       properties=["si", "ef"]).to_pandas().shape[0]
        2
        """
        pd = _pandas()
        keys = ("property", "holds", "bounded", "scenarios", "note")
        return pd.DataFrame([{k: v.get(k) for k in keys} for v in self._data])

    def __repr__(self) -> str:
        return "CheckResult(" + ", ".join(f"{v.property}={v.holds}" for v in self.verdicts) + ")"


def check(
    instance: Any,
    mechanism: str = "drf",
    properties: Union[str, Sequence[str], None] = None,
    *,
    lies: Optional[Mapping[str, Sequence[Any]]] = None,
    remove: Optional[str] = None,
    capacity: Optional[Sequence[Any]] = None,
) -> CheckResult:
    """Decides properties of a mechanism on one instance, exactly (``leontief check``).

    Parameters
    ----------
    instance : dict, str or path
        As for :func:`solve`.
    mechanism : str, default "drf"
        The mechanism.
    properties : str or sequence of str
        The properties to decide (``si``, ``ef``, ``po``, ``sp``, ``gsp-strong``,
        ``gsp-weak``, ``pm``, ``rm``, ``sg``, ...); required, as the CLI's ``--property``.
    lies : mapping, optional
        User name to the demand it reports (``--lie NAME=v1,v2``).
    remove : str, optional
        The user who leaves (pm).
    capacity : sequence, optional
        The grown capacities (rm).

    Returns
    -------
    CheckResult
        A mapping from property to :class:`Verdict`.

    Raises
    ------
    InvalidInput
        The CLI's message: no property given, a flag that does not apply, a lie naming
        nobody.

    Examples
    --------
    DRF is envy-free and strategy-proof (the DRF paper, section 4.1):

    >>> r = check({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]}, properties=["ef", "sp"])
    >>> r.holds, r["sp"].bounded
    (True, True)
    """
    if isinstance(properties, str):
        properties = [properties]
    file, inputs = _source(instance)
    argv = ["check", file] + _flags(
        mechanism=mechanism, property=list(properties) if properties is not None else None
    )
    for name, report in (lies or {}).items():
        argv += ["--lie", f"{name}={_flag_value('--lie', list(report))}"]
    argv += _flags(remove=remove, capacity=list(capacity) if capacity is not None else None)
    return CheckResult(_leontief.run(argv, inputs, True, False))


class VerifyResult:
    """``leontief verify``'s summaries (one per property) and its tallies.

    Attributes
    ----------
    summaries : list of dict
        Per property: mechanism, property, instances, scenarios, violations, bounded,
        witnesses.
    tallies : list of str
        The CLI's one-line tallies.
    holds : bool
        Whether no property was violated on any instance.

    Examples
    --------
    >>> r = verify("drf", "ef", instances=50)
    >>> r.holds, r.summaries[0]["instances"]
    (True, 50)
    """

    def __init__(self, data: Any, tallies: List[str]):
        self._data = data
        self.summaries: List[Dict[str, Any]] = data if isinstance(data, list) else [data]
        self.tallies = tallies

    @property
    def holds(self) -> bool:
        """Whether no property was violated on any instance."""
        return all(s.get("violations", 0) == 0 for s in self.summaries)

    def to_dict(self) -> Any:
        """The CLI's JSON.

        Returns
        -------
        dict or list
            An object for one property, a list for several.

        Examples
        --------
        >>> verify("drf", "ef", instances=10).to_dict()["violations"]
        0
        """
        return self._data

    def to_pandas(self):
        """One row per property (pandas is imported here).

        Returns
        -------
        pandas.DataFrame
            Columns mechanism, property, instances, scenarios, violations, bounded.

        Examples
        --------
        >>> list(verify("drf", ["ef", "si"], instances=10).to_pandas()["property"])
        ['ef', 'si']
        """
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
    """Verifies properties on generated instances (``leontief verify``).

    Parameters
    ----------
    mechanism : str
        The mechanism.
    properties : str or sequence of str
        The properties, each verified on the same instances.
    instances : int, default 1000
        How many instances.
    users, resources : (int, int), default (2, 4) and (2, 3)
        Ranges of the instances' sizes.
    zeros : str or Fraction, default "1/3"
        The probability of a zero demand entry.
    weights, caps : bool, default False
        Draw weights, task caps.
    pools : (int, int), optional
        Draw trees with this many pools.
    witnesses : int, default 3
        Witnesses to keep per property.
    seed : int, default 1
        The generator's seed.
    threads : int, optional
        Workers; the same seed gives the same summary at any count.

    Returns
    -------
    VerifyResult
        The summaries and tallies.

    Examples
    --------
    DRF is not resource monotonic (the DRF paper, section 5):

    >>> verify("drf", "rm", instances=300).holds
    False
    """
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
    merged, _read, _dropped = _leontief.merge(jsonl, verify, best)
    return merged


# ---------------------------------------------------------------------------------------
# trees: hdrf / compare_policies / simulate / compare_simulations / order
# ---------------------------------------------------------------------------------------


@_dataclass(frozen=True)
class NodeAllocation:
    """One node's share in a :class:`TreeAllocation`.

    Attributes
    ----------
    path : str
        The node's path (``root/B/B1``).
    name : str
        Its name.
    kind : str
        ``"leaf"`` or ``"pool"``.
    weight : Fraction
        Its weight among its siblings.
    guaranteed_share : Fraction
        Its static guarantee (the weights' product down the tree).
    allocation : list of Fraction
        What its subtree uses of each resource.
    dominant_share : Fraction
        The subtree's largest share of any resource.
    satisfaction : Fraction
        Its dominant share over its guaranteed share.
    tasks : Fraction or None
        A leaf's tasks (``None`` for a pool).

    Examples
    --------
    >>> hdrf(examples.LECTURE_TREE)["root/B/B2"].tasks
    Fraction(1, 1)
    """

    path: str
    name: str
    kind: str
    weight: Fraction
    guaranteed_share: Fraction
    allocation: List[Fraction]
    dominant_share: Fraction
    satisfaction: Fraction
    tasks: Optional[Fraction]


class TreeAllocation(_Entries[NodeAllocation]):
    """A hierarchical policy's allocation (``leontief hdrf``): a read-only mapping from node
    path to :class:`NodeAllocation`, in the tree's order (the root first).

    Attributes
    ----------
    policy : str
        The policy.
    resources, capacity : list
        The resources' names and capacities.
    nodes : dict
        Path to the CLI's node object (a dict).
    leaves : dict
        The leaves' entries of ``nodes``.

    Examples
    --------
    On the lecture's tree, H-DRF equalizes A and the pool B at the root; B's dominant share
    is B2's memory, so A and B1 split the CPU:

    >>> t = hdrf(examples.LECTURE_TREE, "hdrf")
    >>> list(t)
    ['root', 'root/A', 'root/B', 'root/B/B1', 'root/B/B2']
    >>> t["root/A"].tasks, t["root/B/B1"].tasks
    (Fraction(1, 2), Fraction(1, 2))
    """

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.policy: str = data.get("policy", "")
        self.resources: List[str] = data.get("resources", [])
        self.capacity: List[Fraction] = data.get("capacity", [])
        self.nodes: Dict[str, Dict[str, Any]] = {n["path"]: n for n in data.get("nodes", [])}
        self._entries = {
            p: NodeAllocation(**{f: n.get(f) for f in NodeAllocation.__dataclass_fields__})
            for p, n in self.nodes.items()
        }

    @property
    def leaves(self) -> Dict[str, Dict[str, Any]]:
        """The leaves by path (the CLI's node objects)."""
        return {p: n for p, n in self.nodes.items() if n.get("kind") == "leaf"}

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON, with Fractions.

        Returns
        -------
        dict
            policy, resources, capacity and the nodes in the tree's order.

        Examples
        --------
        >>> hdrf(examples.LECTURE_TREE).to_dict()["policy"]
        'min-satisfaction'
        """
        return self._data

    def to_pandas(self):
        """One row per node (pandas is imported here).

        Returns
        -------
        pandas.DataFrame
            Indexed by path: kind, weight, guaranteed share, dominant share, satisfaction,
            tasks, and one column per resource's allocation.

        Examples
        --------
        >>> hdrf(examples.LECTURE_TREE, "hdrf").to_pandas().loc["root/A", "cpu"]
        Fraction(1, 2)
        """
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


def _tree_argv(command: str, tree: Any, **flags: Any) -> Tuple[List[str], Dict[str, Any]]:
    file, inputs = _source(tree)
    return [command, file] + _flags(**flags), inputs


def hdrf(
    tree: Any,
    policy: str = "min-satisfaction",
    *,
    guarantees: Optional[str] = None,
    oversubscribed: Optional[str] = None,
    limit_below_guarantee: Optional[str] = None,
) -> TreeAllocation:
    """One hierarchical policy's allocation on a weighted tree (``leontief hdrf``).

    Parameters
    ----------
    tree : dict, str or path
        The tree in the CLI's JSON schema (``resources``, ``capacity``, ``tree`` with
        ``children``), its JSON text, or a file's path.
    policy : str, default "min-satisfaction"
        ``collapsed``, ``naive``, ``min-satisfaction`` or ``hdrf``; every policy at once is
        :func:`compare_policies`.
    guarantees, oversubscribed, limit_below_guarantee : str, optional
        How the tree's guarantees and limits are read (docs/production.md).

    Returns
    -------
    TreeAllocation
        A mapping from node path to :class:`NodeAllocation`.

    Raises
    ------
    InvalidInput
        A bad tree (the CLI's message, naming the field), or ``policy="all"``.

    Examples
    --------
    Collapsed DRF is weighted DRF over the leaves with weights 1/2, 1/4, 1/4: A and B1 split
    the CPU at equal weighted shares, A / (1/2) = B1 / (1/4), A + B1 = 1:

    >>> t = hdrf(examples.LECTURE_TREE, "collapsed")
    >>> t["root/A"].tasks, t["root/B/B1"].tasks
    (Fraction(2, 3), Fraction(1, 3))
    """
    _refuse_all(policy, "compare_policies(tree)")
    argv, inputs = _tree_argv("hdrf", tree, policy=policy, guarantees=guarantees,
                              oversubscribed=oversubscribed,
                              limit_below_guarantee=limit_below_guarantee)
    return TreeAllocation(_leontief.run(argv, inputs, True, False))


def compare_policies(
    tree: Any,
    *,
    guarantees: Optional[str] = None,
    oversubscribed: Optional[str] = None,
    limit_below_guarantee: Optional[str] = None,
) -> Dict[str, TreeAllocation]:
    """Every hierarchical policy on one tree (``leontief hdrf --policy all``).

    Parameters
    ----------
    tree : dict, str or path
        As for :func:`hdrf`.
    guarantees, oversubscribed, limit_below_guarantee : str, optional
        As for :func:`hdrf`.

    Returns
    -------
    dict
        Policy name to :class:`TreeAllocation`, in the CLI's order, as :func:`compare`
        gives mechanism name to :class:`Allocation`.

    Examples
    --------
    >>> every = compare_policies(examples.LECTURE_TREE)
    >>> list(every)
    ['collapsed', 'naive', 'min-satisfaction', 'hdrf']
    >>> every["collapsed"]["root/A"].tasks, every["hdrf"]["root/A"].tasks
    (Fraction(2, 3), Fraction(1, 2))
    """
    argv, inputs = _tree_argv("hdrf", tree, policy="all", guarantees=guarantees,
                              oversubscribed=oversubscribed,
                              limit_below_guarantee=limit_below_guarantee)
    return {d["policy"]: TreeAllocation(d) for d in _leontief.run(argv, inputs, True, False)}


class Simulation:
    """A simulation's result under one policy (``leontief simulate``).

    Attributes
    ----------
    policy : str
        The policy.
    paths : list of str
        The nodes' paths, in the tree's order.
    summary : dict
        Path to the node's figures: time-average share, minimum steady share, time below the
        guarantee, ``starved``.
    series : list of dict or None
        The samples: time, every node's dominant share and satisfaction (empty with
        ``no_series=True``).
    runs : dict
        ``{policy: the CLI's JSON}``.

    Examples
    --------
    >>> s = simulate(examples.LECTURE_CHURN, no_series=True)
    >>> s.policy, s.summary["root/B/B1"]["starved"]
    ('min-satisfaction', False)
    """

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.policy: str = data.get("policy", "")
        self.runs: Dict[str, Dict[str, Any]] = {self.policy: data}
        self.paths: List[str] = [n["path"] for n in data.get("nodes", [])]
        self.summary: Dict[str, Dict[str, Any]] = {n["path"]: n for n in data.get("nodes", [])}
        self.series: Optional[List[Dict[str, Any]]] = data.get("series")

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON, with Fractions.

        Returns
        -------
        dict
            policy, nodes, series and the run's figures.

        Examples
        --------
        >>> simulate(examples.LECTURE_CHURN, policy="naive", no_series=True).to_dict()["policy"]
        'naive'
        """
        return self._data

    def to_pandas(self):
        """The series, one row per sample; without a series, the summary, one row per node.

        Returns
        -------
        pandas.DataFrame
            ``time`` and one column per node and figure (``"root/A dominant_share"``,
            ``"root/A satisfaction"``); or the summary indexed by path.

        Examples
        --------
        >>> simulate(examples.LECTURE_CHURN).to_pandas()["time"].iloc[0]
        Fraction(0, 1)
        """
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
        return f"Simulation({self.policy})"


def _simulate_argv(tree: Any, workload: Any, policy: str, flags: Dict[str, Any]) -> Tuple[List[str], Dict[str, Any]]:
    if workload is not None:
        if not isinstance(tree, Mapping) or not isinstance(workload, Mapping):
            raise InvalidInput("workload: give the tree and the workload as dicts")
        merged = dict(tree)
        merged.update(workload)
        tree = merged
    return _tree_argv("simulate", tree, policy=policy, **flags)


def simulate(tree: Any, workload: Any = None, policy: str = "min-satisfaction", **flags: Any) -> Simulation:
    """Simulates task churn on a tree under one policy (``leontief simulate``).

    Parameters
    ----------
    tree : dict, str or path
        The workload file's dict (tree plus ``workload``, ``horizon``, ...), its JSON text
        or path; or, with ``workload``, a tree dict.
    workload : dict, optional
        The workload's keys, added to the tree dict.
    policy : str, default "min-satisfaction"
        A tree policy or ``fifo``; every policy at once is :func:`compare_simulations`.
    **flags
        Simulate's other flags: ``machines``, ``horizon``, ``every``, ``seed``, ``tie``,
        ``preempt_after``, ``max_events``, ``no_series``.

    Returns
    -------
    Simulation
        The run's summary and series.

    Raises
    ------
    InvalidInput
        A bad tree or workload (the CLI's message), or ``policy="all"``.

    Examples
    --------
    In the lecture's churn naive HDRF drains B1 to 0 (its starvation); min-satisfaction HDRF
    keeps it at or above its guarantee 1/4:

    >>> simulate(examples.LECTURE_CHURN, policy="naive", no_series=True).summary["root/B/B1"]["starved"]
    True
    >>> simulate(examples.LECTURE_CHURN, no_series=True).summary["root/B/B1"]["min_share_steady"] >= Fraction(1, 4)
    True
    """
    _refuse_all(policy, "compare_simulations(tree, workload)")
    argv, inputs = _simulate_argv(tree, workload, policy, flags)
    return Simulation(_leontief.run(argv, inputs, True, True))


def compare_simulations(tree: Any, workload: Any = None, **flags: Any) -> Dict[str, Simulation]:
    """Every policy on the same workload (``leontief simulate --policy all``).

    Parameters
    ----------
    tree, workload, **flags
        As for :func:`simulate`.

    Returns
    -------
    dict
        Policy name to :class:`Simulation`, in the CLI's order.

    Examples
    --------
    >>> runs = compare_simulations(examples.LECTURE_CHURN, no_series=True)
    >>> {p: s.summary["root/B/B1"]["starved"] for p, s in runs.items() if p in ("naive", "min-satisfaction")}
    {'naive': True, 'min-satisfaction': False}
    """
    argv, inputs = _simulate_argv(tree, workload, "all", flags)
    data = _leontief.run(argv, inputs, True, True)
    return {p: Simulation(run) for p, run in data["runs"].items()}


@_dataclass(frozen=True)
class OrderNode:
    """One node's figures in an :class:`OfferOrder`.

    Attributes
    ----------
    path : str
        The node's path.
    kind : str
        ``"leaf"`` or ``"pool"``.
    usage : list of Fraction
        What its subtree holds now.
    guarantee : list of Fraction or None
        Its guarantee, when it has one.
    fair_share : list of Fraction or None
        ``rule="ytsaurus"``: its static fair share.
    dominant_share, weighted_share : Fraction
        The subtree's dominant share, and that over its weight.
    deficit : list of Fraction
        What it lacks of its guarantee.
    needy : bool
        Whether it is below its guarantee.
    key : tuple of Fraction
        The rule's sort key among its siblings (smaller first).
    count : int
        Tasks held (or offers, with ``served``), for the tie-break ``count``.
    last_served : int or None
        Its last offer's position in ``served``.
    sibling_rank : int or None
        Its place among its siblings.
    rank : int or None
        A leaf's place in the offer order (``None`` when it is not offered).
    inactive : str or None
        Why it is not offered.

    Examples
    --------
    >>> order(examples.ORDER_TREE)["root/b"].weighted_share
    Fraction(7, 100)
    """

    path: str
    kind: str
    usage: List[Fraction]
    guarantee: Optional[List[Fraction]]
    fair_share: Optional[List[Fraction]]
    dominant_share: Fraction
    weighted_share: Fraction
    deficit: List[Fraction]
    needy: bool
    key: Tuple[Fraction, ...]
    count: int
    last_served: Optional[int]
    sibling_rank: Optional[int]
    rank: Optional[int]
    inactive: Optional[str]


class OfferOrder(_Entries[OrderNode]):
    """Who a scheduler's rule offers the next task (``leontief order``): a read-only mapping
    from node path to :class:`OrderNode`, in the tree's order, and ``offer``, the active
    leaves' paths in the order they are offered.

    Attributes
    ----------
    rule : str
        The ordering rule.
    ties : str
        The tie-break chain.
    fair_share : str or None
        ``rule="ytsaurus"``: the policy giving the fair shares.
    resources, capacity : list
        The resources' names and capacities.
    offer : list of str
        The leaves' paths, first offered first.

    Examples
    --------
    >>> o = order(examples.ORDER_TREE)
    >>> o.offer
    ['root/a', 'root/b/d', 'root/b/c']
    >>> o["root/a"].rank, o["root/b/c"].rank
    (1, 3)
    """

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.rule: str = data["rule"]
        self.ties: str = data["ties"]
        self.fair_share: Optional[str] = data.get("fair_share")
        self.resources: List[str] = data["resources"]
        self.capacity: List[Fraction] = data["capacity"]
        self.offer: List[str] = list(data["offer"])
        fields = OrderNode.__dataclass_fields__
        self._entries = {}
        for n in data["nodes"]:
            node = {f: n.get(f) for f in fields}
            # The key's entries are exact numbers (read as text beside merge's "key").
            node["key"] = tuple(Fraction(k) for k in n.get("key", []))
            self._entries[n["path"]] = OrderNode(**node)

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's JSON, with Fractions.

        Returns
        -------
        dict
            rule, ties, resources, capacity, offer and the nodes.

        Examples
        --------
        >>> order(examples.ORDER_TREE).to_dict()["offer"][0]
        'root/a'
        """
        return self._data

    def to_pandas(self):
        """One row per node (pandas is imported here).

        Returns
        -------
        pandas.DataFrame
            Indexed by path: every :class:`OrderNode` field.

        Examples
        --------
        >>> order(examples.ORDER_TREE).to_pandas().loc["root/b/d", "weighted_share"]
        Fraction(3, 100)
        """
        pd = _pandas()
        return pd.DataFrame([vars(n) for n in self.values()]).set_index("path")

    def __repr__(self) -> str:
        return f"OfferOrder({self.rule}, offer={self.offer})"


def order(
    tree: Any,
    rule: str = "naive",
    *,
    tie: Union[str, Sequence[str], None] = None,
    served: Union[str, Sequence[str], None] = None,
    fair_share: Optional[str] = None,
    guarantees: Optional[str] = None,
    oversubscribed: Optional[str] = None,
    limit_below_guarantee: Optional[str] = None,
) -> OfferOrder:
    """The order in which a scheduler's rule offers the next task (``leontief order``).

    Parameters
    ----------
    tree : dict, str or path
        A tree (as for :func:`hdrf`) with ``usage`` on the leaves that hold something.
    rule : str, default "naive"
        ``naive`` (Mesos' DRF sorter), ``yarn`` (YARN's DRF comparator), ``kueue`` (the share
        borrowed beyond the guarantee) or ``ytsaurus`` (usage over fair share).
    tie : str or sequence of str, optional
        Tie-breaks, a chain of ``first``, ``count``, ``lru``, ``name``; by default the
        rule's system's own.
    served : str or sequence of str, optional
        The history of offers, oldest first (leaf paths); needed by ``lru``.
    fair_share : str, optional
        ``rule="ytsaurus"``: the policy whose allocation is the fair share (H-DRF by
        default).
    guarantees, oversubscribed, limit_below_guarantee : str, optional
        As for :func:`hdrf`.

    Returns
    -------
    OfferOrder
        A mapping from node path to :class:`OrderNode`, and ``offer``, the leaves in order.

    Raises
    ------
    InvalidInput
        The CLI's message: a bad tree, a tree without any ``usage``, a flag that does not
        apply to the rule.

    Examples
    --------
    The guide's example (``examples/order-tree.json``): a holds 6/100 against the pool b's
    7/100, so a is offered first; within b, d (3/100) before c (4/100):

    >>> order(examples.ORDER_TREE).offer
    ['root/a', 'root/b/d', 'root/b/c']
    """
    argv, inputs = _tree_argv("order", tree, rule=rule, tie=tie, served=served,
                              fair_share=fair_share, guarantees=guarantees,
                              oversubscribed=oversubscribed,
                              limit_below_guarantee=limit_below_guarantee)
    return OfferOrder(_leontief.run(argv, inputs, True, False))


# ---------------------------------------------------------------------------------------
# import
# ---------------------------------------------------------------------------------------


class ImportedTree(_Entries[Any]):
    """A production scheduler's configuration as a tree (``leontief import``): a read-only
    mapping of the tree JSON's fields (``about``, ``note`` when something was dropped,
    ``resources``, ``capacity``, ``tree``), usable wherever a tree is (:func:`hdrf`,
    :func:`order`, :func:`simulate`), and ``warnings``, what the CLI writes on standard
    error.

    Attributes
    ----------
    warnings : list of str
        What the tree cannot express and was dropped, or how a source rule was applied.

    Examples
    --------
    >>> t = import_kueue(examples.KUEUE_BORROWING)
    >>> list(t)
    ['about', 'note', 'resources', 'capacity', 'tree']
    >>> t["resources"], t["capacity"]
    (['cpu'], [21])
    """

    def __init__(self, data: Dict[str, Any], warnings: List[str]):
        self._entries = data
        self.warnings = warnings

    def to_dict(self) -> Dict[str, Any]:
        """The tree JSON the CLI prints, with Fractions.

        Returns
        -------
        dict
            The tree file's fields.

        Examples
        --------
        >>> import_kueue(examples.KUEUE_BORROWING).to_dict()["tree"]["name"]
        'team-ab'
        """
        return self._entries

    def __repr__(self) -> str:
        return f"ImportedTree({self._entries.get('about', '')!r}, {len(self.warnings)} warnings)"


def _config_source(config: Any) -> Tuple[str, Dict[str, Any]]:
    """The FILE argument for a configuration given as a path or as its text (a str with a
    line break)."""
    if isinstance(config, _os.PathLike):
        return _os.fspath(config), {}
    if isinstance(config, str):
        if "\n" in config:
            return "<config>", {"<config>": config}
        return config, {}
    raise InvalidInput(
        f"config: expected a path or the configuration's text, found {type(config).__name__}"
    )


def _import(format: str, config: Any, demands: Any, **flags: Any) -> ImportedTree:
    file, inputs = _config_source(config)
    if demands is not None and not isinstance(demands, (str, _os.PathLike)):
        inputs["<demands>"] = demands
        demands = "<demands>"
    elif isinstance(demands, str) and demands.lstrip().startswith("{"):
        inputs["<demands>"] = demands
        demands = "<demands>"
    elif isinstance(demands, _os.PathLike):
        demands = _os.fspath(demands)
    argv = ["import", format, file] + _flags(demands=demands, **flags)
    tree, warnings = _leontief.import_config(argv, inputs)
    return ImportedTree(tree, list(warnings))


def import_yarn(
    config: Any,
    capacity: Union[str, Sequence[Any]],
    *,
    demands: Any = None,
    demand: Optional[Sequence[Any]] = None,
    strict: bool = False,
) -> ImportedTree:
    """A YARN Fair Scheduler allocation file as a tree (``leontief import yarn``).

    Parameters
    ----------
    config : str or path
        The allocation file's path, or its text (a str with a line break).
    capacity : sequence or str
        The cluster's capacity (an allocation file does not state it): numbers in resource
        order (memory-mb, vcores, then the file's other resource types), or YARN's syntax
        (``"memory-mb=16384, vcores=10"``).
    demands : dict, str or path, optional
        The leaves' demands by queue name (``root.a.b``), each ``{"demand", "tasks",
        "usage"}`` or ``{"jobs": [...]}``; a dict, its JSON text or a file's path.
    demand : sequence, optional
        The per-task demand of every leaf ``demands`` does not name (otherwise idle).
    strict : bool, default False
        Fail instead of warning when the file has what a tree cannot express.

    Returns
    -------
    ImportedTree
        The tree and its warnings.

    Raises
    ------
    InvalidInput
        A malformed file (naming the element's path), or with ``strict``, anything dropped.

    Examples
    --------
    Every leaf backlogged with tasks of <1024 MB, 1 vcore> on <16384, 10>: the vcores bind,
    and a, of weight 3 beside b's 1, gets 3/4 of them, 7.5 tasks:

    >>> t = import_yarn(examples.YARN_WEIGHTS, [16384, 10], demand=[1024, 1])
    >>> [(c["name"], c.get("weight", 1)) for c in t["tree"]["children"]]
    [('a', 3), ('b', 1)]
    >>> hdrf(t)["root/a"].tasks
    Fraction(15, 2)
    """
    return _import("yarn", config, demands, capacity=capacity, demand=demand, strict=strict)


def import_kueue(
    config: Any,
    *,
    demands: Any = None,
    demand: Optional[Sequence[Any]] = None,
    strict: bool = False,
) -> ImportedTree:
    """Kueue ClusterQueue and Cohort objects as a tree (``leontief import kueue``).

    Parameters
    ----------
    config : str or path
        The YAML stream's path, or its text (a str with a line break).
    demands : dict, str or path, optional
        The leaves' demands by ClusterQueue name, as for :func:`import_yarn`.
    demand : sequence, optional
        The per-task demand of every leaf ``demands`` does not name (otherwise idle).
    strict : bool, default False
        Fail instead of warning when the objects have what a tree cannot express.

    Returns
    -------
    ImportedTree
        The tree (its capacity the nominal quotas' sum) and its warnings.

    Raises
    ------
    InvalidInput
        A malformed object (naming its path), or with ``strict``, anything dropped.

    Examples
    --------
    Kueue's documented borrowing limit: team-a-cq reaches at most 9 + 1 CPUs; team-b-cq,
    without one, the whole cohort, 12 + 9 (no limit below the capacity). The
    ``namespaceSelector`` has no tree equivalent: a warning.

    >>> t = import_kueue(examples.KUEUE_BORROWING)
    >>> [(c["name"], c["guarantee"], c.get("limit")) for c in t["tree"]["children"]]
    [('team-a-cq', [9], [10]), ('team-b-cq', [12], None)]
    >>> t["capacity"]
    [21]
    >>> any("namespaceSelector" in w for w in t.warnings)
    True
    """
    return _import("kueue", config, demands, demand=demand, strict=strict)


# ---------------------------------------------------------------------------------------
# reproduce
# ---------------------------------------------------------------------------------------


class ReproduceReport(list):
    """The sources' worked examples re-derived (``leontief reproduce``): a list of rows.

    Each row is a dict with ``example``, the value's name (``what``), the source's value,
    ours (``computed``) and ``ok``.

    Attributes
    ----------
    passed, failed : int
        Rows that match their source, and that differ.
    data : object
        The CLI's JSON report.
    error : str or None
        The mismatch message when a row failed.

    Examples
    --------
    >>> reproduce("drf-paper").failed
    0
    """

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
        """The CLI's JSON report.

        Returns
        -------
        object
            ``leontief reproduce --format json``'s output.

        Examples
        --------
        >>> isinstance(reproduce("drf-paper").to_dict(), (dict, list))
        True
        """
        return self.data

    def to_pandas(self):
        """One row per value (pandas is imported here).

        Returns
        -------
        pandas.DataFrame
            The rows.

        Examples
        --------
        >>> list(reproduce("drf-paper").to_pandas()["what"])[:2]
        ['A tasks', 'B tasks']
        """
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
    """Re-derives the sources' worked examples and compares each value with the source's.

    Parameters
    ----------
    name : str or sequence of str, optional
        The examples (``leontief reproduce --list``); all by default.

    Returns
    -------
    ReproduceReport
        One row per value.

    Examples
    --------
    The DRF paper's example: A runs 3 tasks.

    >>> row = reproduce("drf-paper")[0]
    >>> row["what"], row["computed"], row["ok"]
    ('A tasks', '3', True)
    """
    names = [] if name is None else [name] if isinstance(name, str) else list(name)
    argv = ["reproduce", "--format", "json"] + (names if names else ["--all"])
    out = _leontief.run(argv, {}, True, True)
    if isinstance(out, tuple):
        return ReproduceReport(out[0], out[1])
    return ReproduceReport(out, None)
