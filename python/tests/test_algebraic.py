"""`leontief.Algebraic`: exact comparisons, conversions and the closed form, on numbers whose
facts are derived by hand in the comments."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction as F

import pytest

import leontief
from leontief import Algebraic

# √2: the root of t² − 2 in (1, 2), since 1² = 1 < 2 < 4 = 2².
SQRT2 = Algebraic((-2, 0, 1), (1, 2))

# x = (45 − 5√33)/32: 32x − 45 = −5√33, so (32x − 45)² = 825, 1024x² − 2880x + 1200 = 0, and
# dividing by 16 (the gcd): 64x² − 180x + 75, primitive (gcd(64, 180, 75) = 1) and irreducible
# (its discriminant 180² − 4·64·75 = 32400 − 19200 = 13200 = 20²·33 is not a square). At 1/2
# it is 16 − 90 + 75 = 1 > 0 and at 1 it is 64 − 180 + 75 = −41 < 0: (1/2, 1) isolates the
# smaller root, x ≈ (45 − 28.7228)/32 ≈ 0.50866 (√33 ≈ 5.744563). The larger root
# (45 + 5√33)/32 ≈ 2.30384 lies in (2, 3): the polynomial is 256 − 360 + 75 = −29 at 2 and
# 576 − 540 + 75 = 111 at 3.
X = Algebraic((75, -180, 64), (F(1, 2), 1))
X_LARGER = Algebraic((75, -180, 64), (2, 3))


def test_attributes():
    assert SQRT2.polynomial == (-2, 0, 1)
    assert SQRT2.interval == (F(1), F(2))
    assert all(type(e) is F for e in SQRT2.interval)
    assert SQRT2.closed_form == "sqrt(2)"
    assert str(SQRT2) == "sqrt(2)"
    # √2 = 1.41421356237309504880168..., to 20 places.
    assert SQRT2.decimal == "1.41421356237309504880"
    assert X.closed_form == "(45 - 5*sqrt(33))/32"
    assert X_LARGER.closed_form == "(45 + 5*sqrt(33))/32"
    assert str(X) == "(45 - 5*sqrt(33))/32"
    # A non-primitive polynomial is made primitive with a positive leading coefficient.
    assert Algebraic((4, 0, -2), (1, 2)).polynomial == (-2, 0, 1)


def test_comparisons_with_fractions_just_around():
    # 1.41421356² = 1.9999999932878736 < 2 < 2.000000021572145 = 1.41421357².
    below, above = F(141421356, 10**8), F(141421357, 10**8)
    assert below < SQRT2 < above
    assert SQRT2 > below and SQRT2 >= below and SQRT2 <= above and SQRT2 != below
    assert not SQRT2 < below and not SQRT2 == above
    # 0.50866 < x < 0.50867: 64t² − 180t + 75 falls through x on (1/2, 1); at 0.50866 it is
    # 16.5590397184 − 91.5588 + 75 = 0.0002397184 > 0, at 0.50867 it is −0.0009091904 < 0.
    assert F(50866, 10**5) < X < F(50867, 10**5)
    assert 0 < X < 1 and X > 0.5 and X < 0.51
    assert not X == F(1, 2)


def test_comparisons_between_numbers():
    assert X < SQRT2 < X_LARGER
    assert X_LARGER > X and X != X_LARGER
    # The same root from another isolating interval is the same number (hash too).
    again = Algebraic((75, -180, 64), (F(1, 4), F(51, 100)))
    assert again == X and hash(again) == hash(X)
    assert {X, again, SQRT2} == {X, SQRT2}
    # −√2 (in (−2, −1)) is below every positive number, √2 is not −√2.
    minus = Algebraic((-2, 0, 1), (-2, -1))
    assert minus < X and minus != SQRT2 and str(minus) == "-sqrt(2)"


def test_float_and_rational_roots():
    assert abs(float(SQRT2) - math.sqrt(2)) <= 1e-15
    assert abs(float(X) - (45 - 5 * math.sqrt(33)) / 32) <= 1e-15
    # A degree-1 polynomial is a rational: 2t − 3 has the root 3/2, equal to the Fraction,
    # the float and (in hash) both.
    half3 = Algebraic((-3, 2), (0, 5))
    assert half3 == F(3, 2) == 1.5 and hash(half3) == hash(F(3, 2))
    assert half3.closed_form == "3/2" and half3.decimal.startswith("1.5000")


def test_pickle_and_repr():
    assert pickle.loads(pickle.dumps(X)) == X
    assert repr(SQRT2) == "Algebraic((-2, 0, 1), (Fraction(1, 1), Fraction(2, 1)))"


def test_bad_values_are_refused():
    with pytest.raises(ValueError, match="interval"):
        Algebraic((-2, 0, 1), (2, 3))  # t² − 2 is 2 and 7 there: no sign change
    with pytest.raises(ValueError, match="polynomial"):
        Algebraic((5,), (0, 1))
    assert X.__eq__("x") is NotImplemented
    assert not X == float("nan") and not X < float("nan")
    assert X < float("inf") and X > float("-inf")


def test_an_answers_algebraic_document_reads_as_the_class():
    # The document the solver writes for an algebraic number (coefficients as decimal strings,
    # the interval's ends exact), read from JSON text: √2 as above.
    doc = leontief.loads(
        '{"price": {"algebraic": {"polynomial": ["-2", "0", "1"], "interval": ["1", "2"]},'
        ' "decimal": "1.414214", "closed_form": "sqrt(2)"}, "name": "2"}'
    )
    price = doc["price"]
    assert isinstance(price, Algebraic) and price == SQRT2
    assert price.decimal == "1.414214" and str(price) == "sqrt(2)"
    assert doc["name"] == "2"


def test_solve_returns_the_theorem_5_equilibrium_as_algebraic_numbers():
    # The DRF paper's Theorem 5 instance: capacity (100, 100), demands <4,1>, <1,16>, <16,1>.
    # Its CEEI is irrational: u1 = (3125 - 125*sqrt(373))/63 with minimal polynomial
    # 63t^2 - 6250t + 62500 (63u1 - 3125 = -125*sqrt(373), squared: 3969u1^2 - 393750u1 +
    # 9765625 = 5828125, i.e. 3969u1^2 - 393750u1 + 3937500 = 0, divided by 63).
    t5 = {
        "capacity": [100, 100],
        "users": [
            {"name": "3", "demand": [4, 1]},
            {"name": "2", "demand": [1, 16]},
            {"name": "1", "demand": [16, 1]},
        ],
    }
    answer = leontief.solve(t5, "ceei")
    u1 = answer["3"].tasks
    assert isinstance(u1, Algebraic)
    assert u1.polynomial == (62500, -6250, 63)
    assert str(u1) == "(3125 - 125*sqrt(373))/63"
    # sqrt(373) lies in (19.31, 19.32) (19.31^2 = 372.8761, 19.32^2 = 373.2624), so u1 lies in
    # ((3125 - 125*19.32)/63, (3125 - 125*19.31)/63) = (11.26984..., 11.28968...).
    assert F(1126984, 100000) < u1 < F(1128969, 100000)
    # A user named "3" keeps its name as a string: strings are told apart by type, not key.
    assert list(answer) == ["3", "2", "1"]


def test_solve_returns_rationals_beyond_64_bits_as_fractions():
    # One resource of capacity 2^70 shared by two equal users: each runs 2^69 tasks.
    answer = leontief.solve({"capacity": [2**70], "users": [
        {"name": "a", "demand": [1]}, {"name": "b", "demand": [1]}]})
    assert answer["a"].tasks == F(2**69) and type(answer["a"].tasks) is F


def test_a_record_holding_an_algebraic_number_goes_back_to_the_command_line():
    # `merge` writes its records back as JSON: X goes out as the document it was read from
    # (coefficients and interval ends as exact text) and reads back equal.
    import json

    from leontief import _leontief

    doc = json.loads(_leontief.dumps({"value": X}, True))["value"]
    assert doc["algebraic"] == {"polynomial": ["75", "-180", "64"], "interval": ["1/2", "1"]}
    assert doc["closed_form"] == "(45 - 5*sqrt(33))/32"
    assert Algebraic._from_document(doc) == X
