"""Flat instances, one pool of resources: ``solve``, ``compare``, ``check`` and ``verify``.

:func:`solve` runs one mechanism and answers an :class:`~leontief.Allocation` (a mapping
from user name to :class:`~leontief.UserAllocation`) whose exact numbers stay in Rust until
they are read; :func:`compare` runs several. :func:`check` decides properties on one
instance (a :class:`~leontief.CheckResult` of :class:`~leontief.Verdict`), :func:`verify` on
generated instances (a :class:`~leontief.VerifyResult`).

See Also
--------
leontief : the package, which re-exports the public names.
"""

from __future__ import annotations

from dataclasses import dataclass as _dataclass
from fractions import Fraction
from functools import cached_property as _cached_property
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _leontief
from ._cli import _command_argv, _flag_value, _flags, _source
from ._entries import _Document, _Entries, _frame
from ._leontief import InvalidInput

__all__ = [
    "Allocation", "CheckResult", "UserAllocation", "Verdict", "VerifyResult", "check", "compare",
    "solve", "verify",
]


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


class Allocation(_Entries[UserAllocation]):
    """An allocation as ``leontief solve`` prints it: a read-only mapping from each user's
    name to its :class:`UserAllocation`, in the instance's order, exact numbers as Fractions.

    Two allocations are equal when they give every user the same (a mapping's equality),
    whatever the mechanism that found them.

    Parameters
    ----------
    data : mapping, optional
        The answer's document: ``leontief solve``'s JSON object as Python objects (a dict), or
        the answer :func:`solve` holds in Rust, which makes each field when it is read; none
        gives an empty allocation.

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
    Every attribute is read from the document on first access, then kept: an exact answer's
    numbers stay in Rust until they are read.

    Examples
    --------
    >>> a = solve({"capacity": [9, 18], "users": [
    ...     {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    >>> list(a), len(a), "A" in a
    (['A', 'B'], 2, True)
    >>> [(name, u.tasks) for name, u in a.items()]
    [('A', Fraction(3, 1)), ('B', Fraction(2, 1))]
    """

    # The document's fields read as attributes (made on first access, then kept).
    _fields = {k: k for k in ("resources", "capacity", "consumption", "saturated", "trace",
                              "certified", "status", "prices", "feasible_tasks")}
    _fields["gap"] = "relative_gap"
    resources: List[str]
    capacity: List[Fraction]
    consumption: Optional[List[Fraction]]
    saturated: Optional[List[str]]
    trace: Optional[Any]
    certified: Optional[bool]
    status: Optional[str]
    gap: Optional[Any]
    prices: Optional[Any]
    feasible_tasks: Optional[Dict[str, Fraction]]

    def __init__(self, data: Optional[Mapping[str, Any]] = None):
        data = {} if data is None else data
        self._data = data
        self._made: Dict[str, Any] = {}
        self.mechanism: str = data.get("mechanism", "")
        self.exact: bool = bool(data.get("exact", False))

    def _field(self, key: str) -> Any:
        # Made once: the attribute and ``to_dict()`` share the object.
        if key not in self._made:
            self._made[key] = self._data.get(key)
        return self._made[key]

    @_cached_property
    def _rows(self) -> List[Dict[str, Any]]:
        # The users' rows, an inexact answer's decimal strings read as floats.
        rows = self._field("users") or []
        if not self.exact:
            rows = [
                {k: [_num(x) for x in v] if k == "allocation" else _num(v) for k, v in u.items()}
                for u in rows
            ]
        return rows

    @_cached_property
    def users(self) -> Dict[str, UserAllocation]:
        """Each user's :class:`UserAllocation`, by name, in the instance's order."""
        new = object.__new__
        users = {}
        for row in self._rows:
            u = new(UserAllocation)
            u.__dict__.update(weighted_share=None)
            u.__dict__.update(row)
            users[row["name"]] = u
        return users

    @property
    def _entries(self) -> Dict[str, UserAllocation]:
        return self.users

    @_cached_property
    def interval(self) -> Optional[Dict[str, Tuple[Any, Any]]]:
        """Uncertified CEEI: per user, [exactly feasible tasks, the numeric answer]."""
        feasible = self.feasible_tasks
        if self.exact or feasible is None:
            return None
        return {n: (feasible.get(n), u.tasks) for n, u in self.users.items()}

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
        # The answer held in Rust as a dict, of the objects the attributes hold.
        doc = self._data
        if not isinstance(doc, dict):
            self._data = doc = {k: self._field(k) for k in doc.keys()}
        return doc

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
        columns = ("name", "tasks", "dominant_share", "weighted_share")
        rows = (vars(u) for u in self.users.values())
        return _frame(rows, columns, "name", self.resources, "allocation")

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
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise InvalidInput("--threads: expected at least 1")
    file, inputs = _source(instance)
    argv = ["solve", file] + _flags(mechanism=mechanism, trace=trace, **mechanism_flags)
    return Allocation(_leontief.solve(argv, inputs, threads))


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
class Verdict(_Document):
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

    # ``to_dict()`` (of ``_Document``) returns the property's JSON object.
    _data = property(lambda self: self.data)


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
        return _frame(self._data, ("property", "holds", "bounded", "scenarios", "note"))

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
    file, inputs = _source(instance)
    argv = ["check", file] + _flags(mechanism=mechanism, property=properties)
    for name, report in (lies or {}).items():
        argv += ["--lie", f"{name}={_flag_value('--lie', list(report))}"]
    argv += _flags(remove=remove, capacity=list(capacity) if capacity is not None else None)
    return CheckResult(_leontief.run(argv, inputs, True, False))


class VerifyResult(_Document):
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
        keys = ("mechanism", "property", "instances", "scenarios", "violations", "bounded")
        return _frame(self.summaries, keys)

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
    data, tallies = _leontief.run(_command_argv("verify", locals()), None, True, True, True)
    return VerifyResult(data, tallies)
