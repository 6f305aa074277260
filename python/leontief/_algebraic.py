"""Real algebraic numbers: :class:`Algebraic`, an exact irrational answer (CEEI's prices).

A real algebraic number is held as its minimal polynomial over the rationals (integer
coefficients, primitive, positive leading coefficient) and an interval with rational ends
that isolates the root. Every comparison is exact: against a rational it takes the sign of the
polynomial at that rational; between two numbers it bisects both intervals, in Fractions, until
they separate.

The answers' numbers come with their closed form and decimal text; a number built here makes
its own (the closed form of a quadratic as the solver writes it: ``(a + b*sqrt(d))/c``).

References
----------
H. Cohen, *A Course in Computational Algebraic Number Theory*, Springer 1993 (chapters 3 and
4; section 5.1 for quadratic fields).
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, isqrt
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

# Bisections per comparison or conversion: each halves the interval, so 4096 steps reach a
# width of 2^-4096 times the original, far below any root separation of the polynomials the
# solver writes; the bound keeps the work finite on a malformed value.
_MAX_BISECTIONS = 4096
# The squarefree part of a discriminant is found by trial division up to this bound (as the
# solver's closed forms: exact for discriminants below its cube).
_TRIAL_DIVISION_BOUND = 1_000_000
# Digits of `decimal` when the value is built here rather than read from an answer.
_DECIMAL_DIGITS = 20


def _value(poly: Sequence[int], x: Fraction) -> Fraction:
    """The polynomial (lowest degree first) at ``x``, by Horner's rule."""
    acc = Fraction(0)
    for c in reversed(poly):
        acc = acc * x + c
    return acc


def _fraction_text(x: Fraction) -> str:
    """``x`` as an exact ``"p/q"`` (``"p"`` for an integer)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


class Algebraic:
    """A real algebraic number: a root of ``polynomial``, the only one in ``interval``.

    Parameters
    ----------
    polynomial : sequence of int
        The minimal polynomial over the rationals, lowest degree first (made primitive with a
        positive leading coefficient).
    interval : pair of rationals
        ``(lo, hi)`` with ``lo < hi`` and the polynomial of opposite signs at the two ends (the
        root is the one inside); for degree 1 any pair holding the root.
    closed_form, decimal : str, optional
        The texts an answer carries; made here when not given (the closed form for degree 1
        and 2 only, the decimal to 20 places).

    Attributes
    ----------
    polynomial : tuple of int
    interval : tuple of Fraction
    closed_form : str or None
        ``(a + b*sqrt(d))/c`` for degree 2 (the solver's form), the rational for degree 1.
    decimal : str

    Raises
    ------
    ValueError
        A polynomial of degree 0, or an interval that does not isolate a root.

    Examples
    --------
    The square root of 2, the root of t^2 - 2 between 1 and 2:

    >>> r = Algebraic((-2, 0, 1), (1, 2))
    >>> str(r), Fraction(141, 100) < r < Fraction(142, 100), float(r)
    ('sqrt(2)', True, 1.4142135623730951)
    """

    __slots__ = ("_poly", "_interval", "_closed", "_decimal", "_lo", "_hi")

    def __init__(
        self,
        polynomial: Sequence[int],
        interval: Tuple[Any, Any],
        closed_form: Optional[str] = None,
        decimal: Optional[str] = None,
    ) -> None:
        coeffs = [int(c) for c in polynomial]
        if coeffs != [c for c in polynomial]:
            raise ValueError(f"polynomial: expected integers, found {tuple(polynomial)!r}")
        while coeffs and coeffs[-1] == 0:
            coeffs.pop()
        if len(coeffs) < 2:
            raise ValueError(f"polynomial: expected degree 1 or more, found {tuple(polynomial)!r}")
        g = 0
        for c in coeffs:
            g = gcd(g, c)
        if coeffs[-1] < 0:
            g = -g
        poly = tuple(c // g for c in coeffs)
        lo, hi = (Fraction(x) for x in interval)
        if lo > hi:
            raise ValueError(f"interval: expected lo <= hi, found ({lo}, {hi})")
        if len(poly) == 2:
            root = Fraction(-poly[0], poly[1])
            if not lo <= root <= hi:
                raise ValueError(f"interval: ({lo}, {hi}) does not hold the root {root}")
            self._lo = self._hi = root
        else:
            if _sign(_value(poly, lo)) * _sign(_value(poly, hi)) >= 0:
                raise ValueError(
                    f"interval: the polynomial does not change sign between {lo} and {hi}"
                )
            self._lo, self._hi = lo, hi
        self._poly = poly
        self._interval = (lo, hi)
        self._closed = closed_form if closed_form is not None else self._make_closed_form()
        self._decimal = decimal

    @classmethod
    def _from_document(cls, doc: Any) -> "Algebraic":
        """The value of an answer's ``{"algebraic": {"polynomial", "interval"}, "decimal",
        "closed_form"}`` (coefficients as decimal strings, interval ends exact)."""
        inner = doc["algebraic"]
        closed, decimal = doc.get("closed_form"), doc.get("decimal")
        return cls(
            [int(c) for c in inner["polynomial"]],
            tuple(Fraction(x) for x in inner["interval"]),
            None if closed is None else str(closed),
            None if decimal is None else str(decimal),
        )

    def _document(self) -> Dict[str, Any]:
        """The number as the command line writes it (the inverse of ``_from_document``)."""
        doc: Dict[str, Any] = {
            "algebraic": {
                "polynomial": [str(c) for c in self._poly],
                "interval": [_fraction_text(x) for x in self._interval],
            },
            "decimal": self.decimal,
        }
        if self._closed is not None:
            doc["closed_form"] = self._closed
        return doc

    # -- the attributes ---------------------------------------------------------------------

    @property
    def polynomial(self) -> Tuple[int, ...]:
        """The minimal polynomial's coefficients, lowest degree first."""
        return self._poly

    @property
    def interval(self) -> Tuple[Fraction, Fraction]:
        """The isolating interval ``(lo, hi)``."""
        return self._interval

    @property
    def closed_form(self) -> Optional[str]:
        """The closed form (degree 1 and 2), else ``None``."""
        return self._closed

    @property
    def decimal(self) -> str:
        """The decimal text (the answer's, else 20 places correctly rounded)."""
        if self._decimal is None:
            self._decimal = self._to_decimal(_DECIMAL_DIGITS)
        return self._decimal

    @property
    def degree(self) -> int:
        """The minimal polynomial's degree (1 for a rational)."""
        return len(self._poly) - 1

    # -- exact refinement -------------------------------------------------------------------

    def _rational(self) -> Optional[Fraction]:
        return self._lo if self._lo == self._hi else None

    def _bisect(self) -> None:
        """Halves the private interval, keeping the root inside."""
        lo, hi = self._lo, self._hi
        if lo == hi:
            return
        mid = (lo + hi) / 2
        s = _sign(_value(self._poly, mid))
        if s == 0:
            self._lo = self._hi = mid
        elif s == _sign(_value(self._poly, lo)):
            self._lo = mid
        else:
            self._hi = mid

    def _cmp_rational(self, q: Fraction) -> int:
        """-1, 0 or 1 as the root is below, at or above ``q`` (exact, no bisection)."""
        r = self._rational()
        if r is not None:
            return (r > q) - (r < q)
        if q <= self._lo:
            return 1
        if q >= self._hi:
            return -1
        s = _sign(_value(self._poly, q))
        if s == 0:
            return 0
        # The root lies on the side where the sign changes.
        return -1 if s != _sign(_value(self._poly, self._lo)) else 1

    def _cmp(self, other: "Algebraic") -> int:
        if other._rational() is not None:
            return self._cmp_rational(other._rational())
        if self._rational() is not None:
            return -other._cmp_rational(self._rational())
        for _ in range(_MAX_BISECTIONS):
            if self._hi < other._lo:
                return -1
            if other._hi < self._lo:
                return 1
            if self._poly == other._poly:
                # Both intervals isolate a root of the same polynomial: the roots are one when
                # the polynomial changes sign on the intersection (which then holds exactly
                # one root, each interval's own).
                lo, hi = max(self._lo, other._lo), min(self._hi, other._hi)
                if _sign(_value(self._poly, lo)) * _sign(_value(self._poly, hi)) < 0:
                    return 0
            self._bisect()
            other._bisect()
        raise ArithmeticError("Algebraic: the roots did not separate within the bisection bound")

    @staticmethod
    def _coerce(other: Any) -> Any:
        """``other`` as an Algebraic or a Fraction, ``None`` for NaN, ``NotImplemented`` for
        other types; an infinite float as itself."""
        if isinstance(other, Algebraic):
            return other
        if isinstance(other, bool):
            return NotImplemented
        if isinstance(other, (int, Fraction)):
            return Fraction(other)
        if isinstance(other, float):
            if other != other:
                return None
            if other in (float("inf"), float("-inf")):
                return other
            return Fraction(other)
        return NotImplemented

    def _compare(self, other: Any) -> Any:
        """The sign of ``self - other``, ``None`` when unordered (NaN)."""
        o = self._coerce(other)
        if o is NotImplemented or o is None:
            return o
        if isinstance(o, float):
            return -1 if o > 0 else 1
        if isinstance(o, Fraction):
            return self._cmp_rational(o)
        return self._cmp(o)

    def _ordering(test: Callable[[Optional[int]], bool]) -> Any:  # noqa: N805 - a class-body helper
        # A rich comparison from the sign of ``self - other`` (``None`` when unordered).
        def compare(self: "Algebraic", other: Any) -> Any:
            c = self._compare(other)
            return c if c is NotImplemented else test(c)

        return compare

    __eq__ = _ordering(lambda c: c == 0)
    __ne__ = _ordering(lambda c: c != 0)
    __lt__ = _ordering(lambda c: c is not None and c < 0)
    __le__ = _ordering(lambda c: c is not None and c <= 0)
    __gt__ = _ordering(lambda c: c is not None and c > 0)
    __ge__ = _ordering(lambda c: c is not None and c >= 0)
    del _ordering

    def __hash__(self) -> int:
        # Equal numbers have the same minimal polynomial; a rational hashes as its Fraction
        # (so as the equal int and float).
        r = self._rational()
        return hash(r) if r is not None else hash(self._poly)

    # -- conversions ------------------------------------------------------------------------

    def __float__(self) -> float:
        # Correctly rounded: once both ends round to the same float, so does the root between.
        for _ in range(_MAX_BISECTIONS):
            lo, hi = float(self._lo), float(self._hi)
            if lo == hi:
                return lo
            self._bisect()
        return float((self._lo + self._hi) / 2)

    def _to_decimal(self, digits: int) -> str:
        """Correctly rounded to ``digits`` places (an irrational is never half-way)."""
        scale = 10**digits
        r = self._rational()
        if r is not None:
            n = round(r * scale)
        else:
            for _ in range(_MAX_BISECTIONS):
                lo, hi = round(self._lo * scale), round(self._hi * scale)
                if lo == hi:
                    break
                self._bisect()
            n = round(self._lo * scale)
        whole, frac = divmod(abs(n), scale)
        return f"{'-' if n < 0 else ''}{whole}" + (f".{frac:0{digits}d}" if digits else "")

    def _make_closed_form(self) -> Optional[str]:
        r = self._rational()
        if r is not None:
            return str(r)
        if self.degree != 2:
            return None
        c, b, a = self._poly
        disc = b * b - 4 * a * c
        s, d = _square_split(disc)
        if d is None:
            return None
        larger = self._cmp_rational(Fraction(-b, 2 * a)) > 0
        g = gcd(gcd(b, s), 2 * a)
        num, coef, den = -b // g, s // g, 2 * a // g
        root = f"sqrt({d})" if coef == 1 else f"{coef}*sqrt({d})"
        if num == 0:
            text = root if larger else f"-{root}"
        else:
            text = f"{num} {'+' if larger else '-'} {root}"
            text = f"({text})" if den != 1 else text
        return text if den == 1 else f"{text}/{den}"

    def __str__(self) -> str:
        return self._closed if self._closed is not None else self.decimal

    def __repr__(self) -> str:
        lo, hi = self._interval
        return f"Algebraic({self._poly!r}, ({lo!r}, {hi!r}))"

    def __reduce__(self) -> Any:
        return (Algebraic, (self._poly, self._interval, self._closed, self._decimal))


def _square_split(n: int) -> Tuple[int, Optional[int]]:
    """``(s, d)`` with ``n = s^2 d`` and ``d`` squarefree, by trial division (``d`` is
    ``None`` when the cofactor left is too large to settle)."""
    s, d = 1, 1
    p = 2
    while p <= _TRIAL_DIVISION_BOUND and p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        s *= p ** (e // 2)
        d *= p ** (e % 2)
        p += 1
    if n > 1:
        if n >= _TRIAL_DIVISION_BOUND**3:
            return s, None
        # No prime factor up to the bound is left: n is a prime, a prime's square or a
        # product of two distinct primes.
        root = isqrt(n)
        if root * root == n:
            s *= root
        else:
            d *= n
    return s, d
