"""`leontief.check` on CEEI's exact algebraic equilibria: irrational figures come back as
`leontief.Algebraic`, rational ones as `Fraction`s, with facts derived by hand in the
comments."""

from __future__ import annotations

from fractions import Fraction as F

import leontief
from leontief import Algebraic

# The DRF paper's Theorem 5 instance: CEEI is not population monotonic.
THEOREM5 = {
    "capacity": [100, 100],
    "users": [
        {"name": "1", "demand": [4, 1]},
        {"name": "2", "demand": [1, 16]},
        {"name": "3", "demand": [16, 1]},
    ],
}

# u2 = (3800 + 100√373)/1071 with all three users: (1071x − 3800)² = 100²·373 gives
# 1071²x² − 2·1071·3800x + 3800² − 3730000 = 0, i.e. 1071x² − 7600x + 10000 after dividing by
# 1071; at 5 it is 26775 − 38000 + 10000 = −1225 < 0 and at 6 it is 38556 − 45600 + 10000 =
# 2956 > 0, so (5, 6) isolates u2 ≈ 5.3514 (√373 ≈ 19.3132). Without user 3, the prices
# (11/1500, 19/1500) have user 1 buy 1500/(4·11 + 19) = 500/21 and user 2 1500/(11 + 16·19) =
# 100/21 tasks, spending both budgets, and both resources clear: 4·500/21 + 100/21 = 100 and
# 500/21 + 16·100/21 = 100 — the CEEI. User 2 falls from u2 to 100/21 ≈ 4.76.
U2 = Algebraic((10000, -7600, 1071), (5, 6))


def test_theorem5_population_monotonicity_fails_with_exact_figures():
    v = leontief.check(THEOREM5, "ceei", "pm", remove="3")["pm"]
    assert not v.holds
    assert v.data["exact"] is True
    assert v.data["tolerance"] is None
    w = v.witness
    assert isinstance(w["before"], Algebraic)
    assert w["before"] == U2
    assert w["before"].closed_form == "(3800 + 100*sqrt(373))/1071"
    assert w["after"] == F(100, 21)
    assert w["tasks_after"] == {"1": F(500, 21), "2": F(100, 21)}
    assert w["before"] > w["after"]
    # The truthful tasks, every one irrational: user 2's is u2.
    assert v.data["tasks"]["2"] == U2
    assert all(isinstance(t, Algebraic) for t in v.data["tasks"].values())
