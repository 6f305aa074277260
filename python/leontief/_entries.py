"""What the result classes share: the read-only mapping base and pandas on demand.

The results that are mappings (:class:`~leontief.Allocation`, :class:`~leontief.CheckResult`,
:class:`~leontief.TreeAllocation`, :class:`~leontief.OfferOrder`,
:class:`~leontief.ImportedTree`) read their entries through :class:`_Entries`; every
``to_pandas()`` imports pandas through :func:`_pandas`, so that pandas stays optional.
"""

from __future__ import annotations

from collections.abc import Mapping as _Mapping
from typing import Dict, Generic, Iterator, TypeVar


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


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
