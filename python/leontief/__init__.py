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

import types as _types

# `Fraction` and `examples` are in the package's namespace for the docstrings' examples (the
# doctests run in it); the typing names because `typing.get_type_hints` reads a class's
# annotations in its module, which for the public classes is this package (below).
from fractions import Fraction  # noqa: F401
from typing import Any, Dict, List, Optional, Tuple  # noqa: F401

from . import _algebraic, _cli, _entries, _explore, _flat, _leontief, _reproduce, _trees, examples  # noqa: F401
from ._algebraic import Algebraic
from ._cli import *  # noqa: F401,F403
from ._explore import *  # noqa: F401,F403
from ._flat import *  # noqa: F401,F403
from ._leontief import InvalidInput, Mismatch
from ._reproduce import *  # noqa: F401,F403
from ._trees import *  # noqa: F401,F403

# Each private module lists its public names; the package's are theirs and the extension's.
_LISTING = (_cli, _explore, _flat, _reproduce, _trees)
__all__ = sorted(
    ["Algebraic", "InvalidInput", "Mismatch", "Records"] + [n for m in _LISTING for n in m.__all__]
)

__version__ = _leontief.__version__

Records = _leontief.Records


def _present_as_package(obj: Any) -> None:
    """Names the package as the home of a public class or function defined in a private module.

    Pickles (``leontief.Allocation``), ``help()`` and documentation then name the package,
    not the private module, and the doctests collected from the package include the object's
    examples; a class's own methods move with it, so that theirs are collected too.
    """
    home = obj.__module__
    obj.__module__ = __name__
    for member in vars(obj).values() if isinstance(obj, type) else ():
        if isinstance(member, _types.FunctionType) and member.__module__ == home:
            member.__module__ = __name__


_PRIVATE_MODULES = {m.__name__ for m in (_algebraic, _entries) + _LISTING}
for _name in __all__:
    if getattr(globals()[_name], "__module__", None) in _PRIVATE_MODULES:
        _present_as_package(globals()[_name])
del _name
