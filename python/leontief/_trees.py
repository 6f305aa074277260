"""Hierarchical trees: policies (``hdrf``), simulations, offer orders and imported
scheduler configurations.

:func:`hdrf` and :func:`compare_policies` allocate a weighted tree (a
:class:`~leontief.TreeAllocation` of :class:`~leontief.NodeAllocation`); :func:`simulate`
and :func:`compare_simulations` run task churn on one (a :class:`~leontief.Simulation`);
:func:`order` gives who a scheduler's rule offers the next task (an
:class:`~leontief.OfferOrder` of :class:`~leontief.OrderNode`); :func:`import_yarn` and
:func:`import_kueue` read production configurations as trees (an
:class:`~leontief.ImportedTree`), usable wherever a tree is.

See Also
--------
leontief : the package, which re-exports the public names.
"""

from __future__ import annotations

import os as _os
from dataclasses import dataclass as _dataclass
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import _leontief
from ._cli import _flags, _run_file
from ._entries import _Document, _Entries, _frame, _pandas, _record
from ._leontief import InvalidInput

__all__ = [
    "ImportedTree", "NodeAllocation", "OfferOrder", "OrderNode", "Simulation", "TreeAllocation",
    "compare_policies", "compare_simulations", "hdrf", "import_kueue", "import_yarn", "order",
    "simulate",
]


def _refuse_all(policy: str, instead: str) -> None:
    # One function, one return type: every policy at once has its own function.
    if policy == "all":
        raise InvalidInput(f'policy: "all" runs every policy; use leontief.{instead} for that')


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

    _fields = {k: k for k in ("policy", "resources", "capacity")}
    policy: str
    resources: List[str]
    capacity: List[Fraction]

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.nodes: Dict[str, Dict[str, Any]] = {n["path"]: n for n in data.get("nodes", [])}
        self._entries = {p: _record(NodeAllocation, n) for p, n in self.nodes.items()}

    @property
    def leaves(self) -> Dict[str, Dict[str, Any]]:
        """The leaves by path (the CLI's node objects)."""
        return {p: n for p, n in self.nodes.items() if n.get("kind") == "leaf"}

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
        columns = ("path", "kind", "weight", "guaranteed_share", "dominant_share", "satisfaction",
                   "tasks")
        return _frame(self.nodes.values(), columns, "path", self.resources, "allocation")

    def __repr__(self) -> str:
        return f"TreeAllocation({self.policy}, {len(self.nodes)} nodes)"


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
    return TreeAllocation(_run_file("hdrf", locals()))


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
    every = _run_file("hdrf", {"policy": "all", **locals()})
    return {d["policy"]: TreeAllocation(d) for d in every}


class Simulation(_Document):
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

    _fields = {"policy": "policy", "series": "series"}
    policy: str
    series: Optional[List[Dict[str, Any]]]

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        self.runs: Dict[str, Dict[str, Any]] = {self.policy: data}
        self.paths: List[str] = [n["path"] for n in data.get("nodes", [])]
        self.summary: Dict[str, Dict[str, Any]] = {n["path"]: n for n in data.get("nodes", [])}

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
        if not self.series:
            return _pandas().DataFrame(list(self.summary.values())).set_index("path")
        rows = []
        for sample in self.series:
            row = {"time": sample.get("time")}
            for key in ("dominant_share", "satisfaction"):
                for path, x in zip(self.paths, sample.get(key, [])):
                    row[f"{path} {key}"] = x
            rows.append(row)
        return _pandas().DataFrame(rows)

    def __repr__(self) -> str:
        return f"Simulation({self.policy})"


def _simulate(tree: Any, workload: Any, policy: str, flags: Dict[str, Any]) -> Any:
    if workload is not None:
        if not isinstance(tree, Mapping) or not isinstance(workload, Mapping):
            raise InvalidInput("workload: give the tree and the workload as dicts")
        merged = dict(tree)
        merged.update(workload)
        tree = merged
    return _run_file("simulate", dict(tree=tree, policy=policy, flags=flags), True)


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
    return Simulation(_simulate(tree, workload, policy, flags))


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
    data = _simulate(tree, workload, "all", flags)
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

    _fields = {k: k for k in ("rule", "ties", "fair_share", "resources", "capacity", "offer")}
    rule: str
    ties: str
    fair_share: Optional[str]
    resources: List[str]
    capacity: List[Fraction]
    offer: List[str]

    def __init__(self, data: Dict[str, Any]):
        self._data = data
        # The key's entries are exact numbers (read as text beside merge's "key").
        self._entries = {
            n["path"]: _record(OrderNode, n, key=tuple(Fraction(k) for k in n.get("key", [])))
            for n in data["nodes"]
        }

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
        return _pandas().DataFrame([vars(n) for n in self.values()]).set_index("path")

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
    return OfferOrder(_run_file("order", locals()))


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
        self._data = self._entries = data
        self.warnings = warnings

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
    if (demands is not None and not isinstance(demands, (str, _os.PathLike))
            or isinstance(demands, str) and demands.lstrip().startswith("{")):
        inputs["<demands>"] = demands
        demands = "<demands>"
    elif isinstance(demands, _os.PathLike):
        demands = _os.fspath(demands)
    argv = ["import", format, file] + _flags(demands=demands, **flags)
    tree, warnings = _leontief.run(argv, inputs, True, False, True)
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
    demands, demand, strict
        As for :func:`import_yarn` (``demands`` by ClusterQueue name).

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
