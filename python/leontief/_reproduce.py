"""The sources' worked examples re-derived: ``reproduce`` and its :class:`ReproduceReport`.

See Also
--------
leontief : the package, which re-exports the public names.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Union

from . import _leontief
from ._entries import _Document, _pandas

__all__ = ["ReproduceReport", "reproduce"]


class ReproduceReport(_Document, list):
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
        self.data = self._data = data
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
    # A mismatch comes with its message.
    return ReproduceReport(*out) if isinstance(out, tuple) else ReproduceReport(out, None)
