"""The Python package against facts from its sources: the DRF paper's example, the lecture's
collusion, hand-derived tree and CEEI answers, the CLI's own messages, determinism across
thread counts, and Ctrl-C."""

from __future__ import annotations

import _thread
import json
import os
import pathlib
import subprocess
import threading
import time
from decimal import Decimal
from fractions import Fraction as F

import pytest

import leontief

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# The DRF paper's running example (Ghodsi et al., NSDI 2011, section 4): 9 CPUs, 18 GB;
# A's tasks need <1 CPU, 4 GB>, B's <3 CPUs, 1 GB>.
PAPER = {
    "capacity": [9, 18],
    "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}],
}


def cli() -> pathlib.Path | None:
    """The release CLI built from the same sources, when present (scripts/test.sh builds it)."""
    path = pathlib.Path(os.environ.get("LEONTIEF_BIN", ROOT / "target" / "release" / "leontief"))
    return path if path.exists() else None


# --- solve --------------------------------------------------------------------------------


def test_drf_paper_example():
    # Paper, section 4: A runs 3 tasks <3 CPU, 12 GB>, B 2 tasks <6 CPU, 2 GB>; both
    # dominant shares 2/3 (A: 12/18 of memory, B: 6/9 of CPU); CPU is saturated.
    a = leontief.solve(PAPER)
    assert a.mechanism == "drf" and a.exact
    assert a.users["A"].tasks == 3 and a.users["B"].tasks == 2
    assert a.users["A"].allocation == [3, 12] and a.users["B"].allocation == [6, 2]
    assert a.users["A"].dominant_share == F(2, 3) == a.users["B"].dominant_share
    assert a.consumption == [9, 14]
    assert a.saturated == ["r1"]
    assert all(isinstance(x, F) for x in a.users["A"].allocation)
    assert a.trace is None


def test_trace_and_to_pandas():
    a = leontief.solve(PAPER, trace=True)
    assert a.trace  # the filling's events
    df = a.to_pandas()
    assert list(df.index) == ["A", "B"]
    assert df.loc["A", "tasks"] == 3 and df.loc["B", "r1"] == 6


@pytest.mark.parametrize(
    "mechanism,flags",
    [
        ("drf", {}),
        ("drf", {"trace": True}),
        ("drf-common-level", {}),
        ("asset", {}),
        ("discrete-drf", {"misfit": "skip", "trace": True}),
        ("drf-lp", {}),
        ("ceei", {}),
        ("hdrf:hdrf", {}),
    ],
)
def test_solve_objects_equal_the_cli_json(mechanism, flags):
    # solve builds its objects from the exact numbers; run() parses the CLI's printed JSON:
    # the same fields, order and values (weights and caps included).
    inst = {
        "capacity": [9, 18, 5],
        "users": [
            {"name": "A", "demand": [1, 4, 0], "weight": 2},
            {"name": "B", "demand": [3, 1, "1/2"], "tasks": "3/2"},
            {"name": "C", "demand": [0, 2, 1]},
        ],
    }
    argv = ["solve", "<in>", "--mechanism", mechanism]
    for k, v in flags.items():
        argv += ["--" + k.replace("_", "-")] + ([] if v is True else [v])
    printed = leontief.run(*argv, inputs={"<in>": inst})
    built = leontief.solve(inst, mechanism, **flags).to_dict()
    assert built == printed
    assert list(built) == list(printed)


def test_fraction_round_trip():
    # The same instance in every exact spelling gives the same answer.
    mixed = {
        "capacity": [Decimal("9"), "18"],
        "users": [
            {"name": "A", "demand": [F(1), 4.0]},  # an integral float is exact
            {"name": "B", "demand": ["3", Decimal("1.0")]},
        ],
    }
    assert leontief.solve(mixed).to_dict() == leontief.solve(PAPER).to_dict()
    # Halving the demands doubles the tasks (Leontief utilities): "1/2", 0.5 as Decimal, 2 as
    # Fraction(4, 2).
    halved = {
        "capacity": [9, 18],
        "users": [
            {"name": "A", "demand": ["1/2", F(4, 2)]},
            {"name": "B", "demand": [Decimal("1.5"), "0.5"]},
        ],
    }
    h = leontief.solve(halved)
    assert (h.users["A"].tasks, h.users["B"].tasks) == (6, 4)
    # The answer's own instance fields go back in unchanged.
    d = h.to_dict()
    again = {
        "resources": d["resources"],
        "capacity": d["capacity"],
        "users": [{"name": "A", "demand": [F(1, 2), F(2)]}, {"name": "B", "demand": [F(3, 2), F(1, 2)]}],
    }
    assert leontief.solve(again).to_dict() == d
    # dumps/loads: exact strings both ways.
    assert leontief.dumps({"x": [F(7, 3), Decimal("0.37"), 5]}) == '{"x":["7/3","0.37",5]}'
    assert leontief.loads('{"x": ["7/3", "2"], "name": "3"}') == {"x": [F(7, 3), F(2)], "name": "3"}


def test_float_rejected_with_field():
    bad = json.loads(json.dumps(PAPER))
    bad["users"][1]["demand"][0] = 0.1
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(bad)
    assert str(e.value).startswith("users[1].demand[0]: ")
    assert "0.1" in str(e.value) and "float" in str(e.value)
    assert isinstance(e.value, ValueError)


def cli_error(args: list[str], stdin: str | None = None) -> str | None:
    exe = cli()
    if exe is None:
        return None
    p = subprocess.run([str(exe), *args], input=stdin, capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("error: ")
    return p.stderr[len("error: ") :].rstrip("\n")


def test_errors_verbatim():
    bad = json.loads(json.dumps(PAPER))
    bad["users"][1]["demand"] = [3, 1, 2]
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(bad)
    # The message the issue quotes, and the CLI's own on the same input.
    assert str(e.value) == "users[1].demand: expected 2 entries, one per resource, found 3"
    from_cli = cli_error(["solve", "-"], stdin=json.dumps(bad))
    assert from_cli in (None, str(e.value))

    # A flag that does not apply.
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.check(PAPER, properties=["si"], remove="A")
    assert str(e.value) == "--remove applies to --property pm"
    from_cli = cli_error(["check", "-", "--property", "si", "--remove", "A"], stdin=json.dumps(PAPER))
    assert from_cli in (None, str(e.value))

    # A scenario naming nobody.
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.check(PAPER, properties="sp", lies={"Z": [1, 1]})
    assert str(e.value) == '--lie[0]: no user named "Z"'

    # Bad flag values come from the same checks as the CLI's.
    with pytest.raises(leontief.InvalidInput) as e:
        next(iter(leontief.search("drf", "sp", max_found=0)))
    assert str(e.value) == "--max-found: expected at least 1, found 0"
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(PAPER, "no-such-mechanism")
    assert 'unknown mechanism "no-such-mechanism"' in str(e.value)
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(EXAMPLES / "no-such-file.json")
    assert str(e.value).startswith(str(EXAMPLES / "no-such-file.json") + ": ")


def test_path_and_json_text_inputs():
    by_path = leontief.solve(EXAMPLES / "drf-paper.json")
    by_str = leontief.solve(str(EXAMPLES / "drf-paper.json"))
    by_text = leontief.solve((EXAMPLES / "drf-paper.json").read_text())
    assert by_path.to_dict() == by_str.to_dict() == by_text.to_dict()
    assert [u.tasks for u in by_path.users.values()] == [3, 2]


def test_ceei_certified():
    # Eisenberg-Gale on the paper's example, by hand: both resources bind,
    # xA + 3 xB = 9 and 4 xA + xB = 18 give xA = 45/11, xB = 18/11; the KKT conditions
    # 1/xA = p1 + 4 p2, 1/xB = 3 p1 + p2 give the prices p1 = 1/5, p2 = 1/90 (both > 0).
    c = leontief.solve(PAPER, "ceei")
    assert c.exact and c.certified and c.status == "solved"
    assert (c.users["A"].tasks, c.users["B"].tasks) == (F(45, 11), F(18, 11))
    assert c.prices == {"r1": F(1, 5), "r2": F(1, 90)}
    assert c.gap == 0
    assert c.interval is None  # exact: no interval needed


def test_compare_lists_every_flat_mechanism():
    every = leontief.compare(PAPER)
    assert {"drf", "asset", "ceei", "drf-lp"} <= set(every)
    # drf-lp is DRF as an LP sequence: the same exact answer.
    assert every["drf-lp"].users["A"].tasks == every["drf"].users["A"].tasks == 3
    two = leontief.compare(PAPER, ["drf", "asset"])
    assert list(two) == ["drf", "asset"]


# --- check, verify ------------------------------------------------------------------------


def test_check_paper_properties_hold():
    r = leontief.check(PAPER, properties=("si", "ef", "po", "sp"))
    assert r.holds and [v.property for v in r.verdicts] == ["si", "ef", "po", "sp"]
    assert r["sp"].bounded and not r["si"].bounded
    assert r.to_pandas().shape[0] == 4


def test_lecture_collusion_witness():
    # examples/four-operations.json: capacity <1,1,1>; op1, op2 need <1,0,0>, op3 <0,1,0>,
    # op4 <0,1/2,1>. DRF by hand: op1 and op2 split the CPU (1/2 each); op3 and op4 rise
    # together until memory binds, t + t/2 = 1, so 2/3 each. When op1 and op2 claim
    # <1,0,1/2>, CPU and network bind at level 1/2 (2x = 1, x + t = 1), freezing op1, op2
    # and op4 at 1/2; op3 goes on until memory binds, t + 1/4 = 1: 3/4. op3 gains, op1 and
    # op2 lose nothing: a strong group manipulation, not a weak one (README).
    r = leontief.check(
        EXAMPLES / "four-operations.json",
        properties=["gsp-strong", "gsp-weak"],
        lies={"op1": ["1", 0, F(1, 2)], "op2": [1, 0, "1/2"]},
    )
    strong, weak = r["gsp-strong"], r["gsp-weak"]
    assert not strong.holds and weak.holds and not r.holds
    w = strong.witness
    assert strong.data["tasks"] == {"op1": F(1, 2), "op2": F(1, 2), "op3": F(2, 3), "op4": F(2, 3)}
    assert w["tasks_under_lie"] == {"op1": F(1, 2), "op2": F(1, 2), "op3": F(3, 4), "op4": F(1, 2)}
    gains = {m["user"]: (m["before"], m["after"]) for m in w["coalition"]}
    assert gains == {"op1": (F(1, 2), F(1, 2)), "op2": (F(1, 2), F(1, 2)), "op3": (F(2, 3), F(3, 4))}


def test_verify_summary_and_threads():
    # DRF is envy-free (DRF paper, section 4.1): no violation on generated instances.
    one = leontief.verify("drf", ["ef", "sp"], instances=200, threads=1)
    two = leontief.verify("drf", ["ef", "sp"], instances=200, threads=2)
    assert one.holds
    assert one.to_dict() == two.to_dict()
    assert [s["property"] for s in one.summaries] == ["ef", "sp"]
    # DRF is not resource monotonic (DRF paper, section 5): witnesses, with Fractions.
    rm = leontief.verify("drf", "rm", instances=300)
    assert not rm.holds and rm.summaries[0]["violations"] > 0
    witness = rm.summaries[0]["witnesses"][0]
    assert any(isinstance(x, F) for x in witness["instance"]["capacity"])


# --- search, explore, merge ---------------------------------------------------------------


def test_search_finds_collusion_from_cold_start():
    # README: `search --mechanism drf --property gsp-strong --max-found 1` finds a strong
    # group manipulation like the lecture's; it re-checks as one with check.
    found = list(leontief.search("drf", "gsp-strong", max_found=1))
    assert len(found) == 1
    rec = found[0]
    assert rec["mechanism"] == "drf" and rec["property"] == "gsp-strong"
    verdict = leontief.check(rec["instance"], properties="gsp-strong", lies=rec["lies"])
    assert not verdict.holds
    # A record goes through merge (the CLI's merge) unchanged but for its recomputed key.
    merged = leontief.merge(found + found)
    assert len(merged) == 1
    assert merged[0]["instance"] == rec["instance"] and merged[0]["lies"] == rec["lies"]
    assert len(leontief.merge(found, verify=True)) == 1


def test_search_same_records_at_any_thread_count():
    kw = dict(budget=20000, seed=7)
    one = list(leontief.search("drf", "rm", threads=1, **kw))
    two = list(leontief.search("drf", "rm", threads=2, **kw))
    assert one and one == two


def test_search_shards_merge_to_the_whole():
    kw = dict(budget=5000, seed=5, strategy="exhaustive", users=(2, 3), resources=(1, 2))
    whole = leontief.merge(leontief.search("drf", "rm", **kw))
    parts = [r for i in range(2) for r in leontief.search("drf", "rm", shard=(i, 2), **kw)]
    assert whole and whole == leontief.merge(parts)


def test_explore_last_record_is_best():
    recs = list(leontief.explore("asset", "sp-gain", budget=3000))
    assert recs and recs[-1].get("best") is True
    best = leontief.merge(recs, best=True)
    assert len(best) == 1 and best[0]["best"] is True


def test_keyboard_interrupt_stops_search():
    # A search with nothing to find (DRF is strategy-proof) and a long time limit, interrupted
    # by a signal delivered to the main thread: KeyboardInterrupt, promptly.
    it = leontief.search("drf", "sp", time="60s")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    assert time.monotonic() - start < 20
    timer.cancel()


def test_keyboard_interrupt_stops_verify():
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        leontief.verify("drf", "sp", instances=10_000_000)
    assert time.monotonic() - start < 20
    timer.cancel()


# --- trees --------------------------------------------------------------------------------


def test_tree_policies_lecture_tree():
    # examples/lecture-tree.json: capacity <1,1>; A <1,0> under the root, B1 <1,0> and
    # B2 <0,1> under B. B2 alone wants memory: 1 task. Collapsed = weighted DRF over the
    # leaves with weights 1/2, 1/4, 1/4: A and B1 split the CPU at equal weighted shares,
    # A / (1/2) = B1 / (1/4), A + B1 = 1: A 2/3, B1 1/3. H-DRF equalizes A and B at the
    # root; B's dominant share is its memory (1) so A and B1 split the CPU: 1/2 each.
    every = leontief.hdrf(EXAMPLES / "lecture-tree.json", policy="all")
    assert set(every) == {"collapsed", "naive", "min-satisfaction", "hdrf"}
    col, h = every["collapsed"], every["hdrf"]
    assert (col.nodes["root/A"]["tasks"], col.nodes["root/B/B1"]["tasks"]) == (F(2, 3), F(1, 3))
    assert (h.nodes["root/A"]["tasks"], h.nodes["root/B/B1"]["tasks"]) == (F(1, 2), F(1, 2))
    assert h.nodes["root/B/B2"]["tasks"] == 1 and col.nodes["root/B/B2"]["tasks"] == 1
    assert h.nodes["root/B"]["guaranteed_share"] == F(1, 2)
    assert set(h.leaves) == {"root/A", "root/B/B1", "root/B/B2"}
    one = leontief.hdrf(json.loads((EXAMPLES / "lecture-tree.json").read_text()))
    assert one.to_dict() == h.to_dict()
    assert one.to_pandas().loc["root/A", "cpu"] == F(1, 2)


def test_simulate_lecture_churn():
    # README: in the lecture's churn naive HDRF drains B1 to 0 (the lecture's starvation);
    # min-satisfaction HDRF keeps it above its guarantee 1/4.
    churn = EXAMPLES / "lecture-churn.json"
    naive = leontief.simulate(churn, policy="naive", no_series=True)
    fair = leontief.simulate(churn, policy="min-satisfaction")
    assert naive.summary["root/B/B1"]["starved"] is True
    assert naive.summary["root/B/B1"]["min_share_steady"] == 0
    assert fair.summary["root/B/B1"]["starved"] is False
    assert fair.summary["root/B/B1"]["guaranteed_share"] == F(1, 4)
    assert fair.summary["root/B/B1"]["min_share_steady"] >= F(1, 4)
    assert not naive.series and fair.series
    df = fair.to_pandas()
    assert "root/B/B1 dominant_share" in df.columns and df["time"].iloc[0] == 0
    every = leontief.simulate(churn, policy="all", no_series=True)
    assert {"naive", "min-satisfaction", "hdrf"} <= set(every.runs)


def test_reproduce_rows():
    rep = leontief.reproduce("drf-paper")
    assert rep.failed == 0 and rep.passed == len(rep) > 0
    row = rep[0]
    assert row["example"] == "drf-paper" and row["what"] == "A tasks"
    assert row["computed"] == "3" and row["source"] == "3" and row["ok"] is True


def test_docstring_examples():
    # The docstrings' examples (the DRF paper's example among them) run as written.
    import doctest

    failures, tests = doctest.testmod(leontief)
    assert tests >= 4 and failures == 0
