"""What the result classes share: the CLI's document behind each, the read-only mapping base,
and pandas on demand.

Every result holds the command's JSON document (as Python objects, Fractions for exact
numbers) in ``_data``: :class:`_Document` gives ``to_dict()`` and reads the document's fields
named in ``_fields`` as attributes. The results that are mappings
(:class:`~leontief.Allocation`, :class:`~leontief.CheckResult`,
:class:`~leontief.TreeAllocation`, :class:`~leontief.OfferOrder`,
:class:`~leontief.ImportedTree`) read their entries through :class:`_Entries`; every
``to_pandas()`` builds its frame through :func:`_frame`, which imports pandas, so that pandas
stays optional.
"""

from __future__ import annotations

from collections.abc import Mapping as _Mapping
from typing import Any, ClassVar, Dict, Generic, Iterable, Iterator, Optional, Sequence, TypeVar


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_pandas() needs pandas: pip install pandas") from e
    return pandas


def _frame(
    rows: Iterable[Dict[str, Any]],
    columns: Sequence[str],
    index: Optional[str] = None,
    resources: Sequence[str] = (),
    spread: str = "",
):
    """A DataFrame of ``rows`` with the ``columns`` (missing ones ``None``), then the list
    under ``spread`` as one column per resource, indexed by ``index`` when given."""
    table = []
    for row in rows:
        out = {k: row.get(k) for k in columns}
        out.update(zip(resources, row.get(spread) or ()) if spread else ())
        table.append(out)
    df = _pandas().DataFrame(table)
    return df.set_index(index) if index else df


def _record(cls: Any, doc: Dict[str, Any], **fields: Any) -> Any:
    """The dataclass ``cls`` from a document's fields of its field names (absent ones
    ``None``), ``fields`` overriding them."""
    return cls(**{**{f: doc.get(f) for f in cls.__dataclass_fields__}, **fields})


class _Document:
    """A result over the CLI's document ``_data``: ``to_dict()`` returns it, and each name in
    ``_fields`` reads the document's field it maps to (``None`` when absent)."""

    _data: Any
    _fields: ClassVar[Dict[str, str]] = {}

    def __getattr__(self, name: str) -> Any:
        # Called only for names not found otherwise: the document's fields.
        key = type(self)._fields.get(name)
        if key is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        return self._field(key)

    def _field(self, key: str) -> Any:
        return self._data.get(key)

    def to_dict(self) -> Any:
        """The CLI's JSON document, with Fractions in place of the exact strings.

        Returns
        -------
        dict or list
            What the command prints with ``--format json``, as Python objects.
        """
        return self._data


_V = TypeVar("_V")


class _Entries(_Document, _Mapping, Generic[_V]):
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
