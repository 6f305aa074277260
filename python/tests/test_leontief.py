"""The Python package against facts from its sources: the DRF paper's example, the lecture's
collusion, hand-derived tree and CEEI answers, the CLI's own messages and defaults,
determinism across thread counts, Ctrl-C, and the Python protocols its results follow."""

from __future__ import annotations

import _thread
import inspect
import json
import os
import pathlib
import subprocess
import threading
import typing
from collections.abc import Mapping, MutableMapping
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
    assert a["A"].tasks == 3 and a["B"].tasks == 2
    assert a["A"].allocation == [3, 12] and a["B"].allocation == [6, 2]
    assert a["A"].dominant_share == F(2, 3) == a["B"].dominant_share
    assert a.consumption == [9, 14]
    assert a.saturated == ["r1"]
    assert all(isinstance(x, F) for x in a["A"].allocation)
    assert a.trace is None


def test_an_allocation_is_a_read_only_mapping_of_users():
    a = leontief.solve(PAPER)
    assert isinstance(a, Mapping) and not isinstance(a, MutableMapping)
    assert list(a) == ["A", "B"] and len(a) == 2  # the instance's order
    assert "A" in a and "Z" not in a
    assert [(name, u.tasks) for name, u in a.items()] == [("A", 3), ("B", 2)]
    assert dict(a) == a.users  # the older accessor is the same mapping
    assert a.get("Z") is None
    with pytest.raises(KeyError):
        a["Z"]
    with pytest.raises(TypeError):
        a["A"] = a["B"]
    # Equal as mappings: drf-lp is DRF as an LP sequence, the same allocation.
    assert a == leontief.solve(PAPER, "drf-lp") and a != leontief.solve(PAPER, "ceei")
    # An answer read back from the CLI's JSON (pickling goes through it) is the same mapping.
    import pickle

    again = pickle.loads(pickle.dumps(a))
    assert list(again) == ["A", "B"] and again == a


def test_solve_threads():
    # The same exact answer with one worker or two, on the paper's example and a tree.
    for inst in (PAPER, EXAMPLES / "lecture-tree.json"):
        assert leontief.solve(inst, threads=1).to_dict() == leontief.solve(inst, threads=2).to_dict()
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(PAPER, threads=0)
    assert str(e.value) == "--threads: expected at least 1"  # the CLI's message


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
    assert (h["A"].tasks, h["B"].tasks) == (6, 4)
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
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.dumps({"x": [1, 0.25]})
    assert str(e.value).startswith("x[1]: ")
    # Spellings the CLI never prints read as the numbers they stand for, in lowest terms:
    # 6/4 = 3/2 (gcd 2), -3/9 = -1/3 (gcd 3), 0/5 = -0 = 0, 007 = 7, and a numerator beyond
    # 64 bits, 2**70 * 3 / 6 = 2**69.
    read = leontief.loads(f'["6/4", "-3/9", "0/5", "-0", "007", "{2**70 * 3}/6"]')
    assert [(x.numerator, x.denominator) for x in read] == [(3, 2), (-1, 3), (0, 1), (0, 1), (7, 1), (2**69, 1)]
    assert all(type(x) is F for x in read) and read[0] == F(3, 2) and hash(read[0]) == hash(F(3, 2))


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
    assert [u.tasks for u in by_path.values()] == [3, 2]


def test_ceei_certified():
    # Eisenberg-Gale on the paper's example, by hand: both resources bind,
    # xA + 3 xB = 9 and 4 xA + xB = 18 give xA = 45/11, xB = 18/11; the KKT conditions
    # 1/xA = p1 + 4 p2, 1/xB = 3 p1 + p2 give the prices p1 = 1/5, p2 = 1/90 (both > 0).
    c = leontief.solve(PAPER, "ceei")
    assert c.exact and c.certified and c.status == "solved"
    assert (c["A"].tasks, c["B"].tasks) == (F(45, 11), F(18, 11))
    assert c.prices == {"r1": F(1, 5), "r2": F(1, 90)}
    assert c.gap == 0
    assert c.interval is None  # exact: no interval needed


def test_compare_lists_every_flat_mechanism():
    every = leontief.compare(PAPER)
    assert {"drf", "asset", "ceei", "drf-lp"} <= set(every)
    # drf-lp is DRF as an LP sequence: the same exact answer.
    assert every["drf-lp"]["A"].tasks == every["drf"]["A"].tasks == 3
    two = leontief.compare(PAPER, ["drf", "asset"])
    assert list(two) == ["drf", "asset"]


# --- check, verify ------------------------------------------------------------------------


def test_check_paper_properties_hold():
    # DRF is SI, EF, PO and SP (the DRF paper, section 4.1, Theorem 1).
    r = leontief.check(PAPER, properties=("si", "ef", "po", "sp"))
    assert r.holds and [v.property for v in r.verdicts] == ["si", "ef", "po", "sp"]
    assert r["sp"].bounded and not r["si"].bounded
    assert r.to_pandas().shape[0] == 4


def test_a_check_result_is_a_read_only_mapping_of_verdicts():
    r = leontief.check(PAPER, properties=["sp", "si"])
    assert isinstance(r, Mapping) and not isinstance(r, MutableMapping)
    # list() and `in` follow the properties, in the order asked (they raised KeyError: 0).
    assert list(r) == ["sp", "si"] and len(r) == 2
    assert "sp" in r and "ef" not in r
    assert {p: v.holds for p, v in r.items()} == {"sp": True, "si": True}
    assert list(r.values()) == r.verdicts
    with pytest.raises(KeyError):
        r["ef"]
    with pytest.raises(TypeError):
        r["ef"] = r["si"]
    # No property: the CLI's own error (its --property has no default).
    with pytest.raises(leontief.InvalidInput, match="--property"):
        leontief.check(PAPER)


def test_lecture_collusion_witness():
    # examples/four-operations.json: capacity <1,1,1>; op1, op2 need <1,0,0>, op3 <0,1,0>,
    # op4 <0,1/2,1>. DRF by hand: op1 and op2 split the CPU (1/2 each); op3 and op4 rise
    # together until memory binds, t + t/2 = 1, so 2/3 each. When op1 and op2 claim
    # <1,0,1/2>, CPU and network bind at level 1/2 (2x = 1, x + t = 1), freezing op1, op2
    # and op4 at 1/2; op3 goes on until memory binds, t + 1/4 = 1: 3/4. op3 gains, op1 and
    # op2 lose nothing: a strong group manipulation, not a weak one (docs/guide.md).
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
    # docs/guide.md: `search --mechanism drf --property gsp-strong --max-found 1` finds a strong
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
    # by a signal delivered to the main thread: KeyboardInterrupt, and the search's own
    # summary says it was cancelled (not stopped by its time limit).
    it = leontief.search("drf", "sp", time="600s")
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass
    timer.cancel()
    assert list(it) == []
    assert len(it.summaries) == 1 and "stopped by cancelled" in it.summaries[0]


def test_keyboard_interrupt_stops_verify():
    # Ten million instances would take hours: the interrupt ends the call.
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        leontief.verify("drf", "sp", instances=10_000_000)
    timer.cancel()


# --- trees --------------------------------------------------------------------------------


def test_tree_policies_lecture_tree():
    # examples/lecture-tree.json: capacity <1,1>; A <1,0> under the root, B1 <1,0> and
    # B2 <0,1> under B. B2 alone wants memory: 1 task. Collapsed = weighted DRF over the
    # leaves with weights 1/2, 1/4, 1/4: A and B1 split the CPU at equal weighted shares,
    # A / (1/2) = B1 / (1/4), A + B1 = 1: A 2/3, B1 1/3. H-DRF equalizes A and B at the
    # root; B's dominant share is its memory (1) so A and B1 split the CPU: 1/2 each.
    every = leontief.compare_policies(EXAMPLES / "lecture-tree.json")
    assert list(every) == ["collapsed", "naive", "min-satisfaction", "hdrf"]
    assert all(isinstance(t, leontief.TreeAllocation) for t in every.values())
    col, h = every["collapsed"], every["hdrf"]
    assert (col["root/A"].tasks, col["root/B/B1"].tasks) == (F(2, 3), F(1, 3))
    assert (h["root/A"].tasks, h["root/B/B1"].tasks) == (F(1, 2), F(1, 2))
    assert h["root/B/B2"].tasks == 1 and col["root/B/B2"].tasks == 1
    assert h["root/B"].guaranteed_share == F(1, 2) and h["root/B"].tasks is None
    assert set(h.leaves) == {"root/A", "root/B/B1", "root/B/B2"}
    one = leontief.hdrf(json.loads((EXAMPLES / "lecture-tree.json").read_text()), "hdrf")
    assert one.to_dict() == h.to_dict()
    assert one.to_pandas().loc["root/A", "cpu"] == F(1, 2)


def test_a_tree_allocation_is_a_read_only_mapping_of_nodes():
    t = leontief.hdrf(EXAMPLES / "lecture-tree.json", "collapsed")
    assert isinstance(t, Mapping) and not isinstance(t, MutableMapping)
    assert list(t) == ["root", "root/A", "root/B", "root/B/B1", "root/B/B2"]  # the tree's order
    a = t["root/A"]
    assert isinstance(a, leontief.NodeAllocation) and (a.name, a.kind) == ("A", "leaf")
    # Collapsed DRF (above): A runs 2/3 of a task of <1,0>, its allocation <2/3,0>; its
    # guarantee is 1/2 of the root, so its satisfaction is (2/3) / (1/2) = 4/3.
    assert a.allocation == [F(2, 3), 0] and a.dominant_share == F(2, 3)
    assert a.satisfaction == F(4, 3) and a.weight == 1
    assert t.nodes["root/A"]["tasks"] == a.tasks  # the CLI's node objects stay available
    assert "root/C" not in t
    with pytest.raises(TypeError):
        t["root/A"] = a


def test_defaults_are_the_clis():
    # Every keyword with a default is a flag of the command, with the CLI's default (the
    # parser's own, read from it); keywords that default to None leave the flag out.
    def cli_text(value):
        if isinstance(value, bool):
            return str(value).lower()
        if isinstance(value, tuple) and len(value) == 2:
            return f"{value[0]}..{value[1]}"
        return str(value)

    renamed = {"properties": "property", "lies": "lie"}
    functions = {
        leontief.solve: "solve", leontief.check: "check", leontief.verify: "verify",
        leontief.search: "search", leontief.explore: "explore", leontief.hdrf: "hdrf",
        leontief.compare_policies: "hdrf", leontief.simulate: "simulate",
        leontief.compare_simulations: "simulate", leontief.order: "order",
        leontief.import_yarn: "import", leontief.import_kueue: "import",
        leontief.merge: "merge",
    }
    compared = 0
    for function, command in functions.items():
        defaults = leontief._leontief.flag_defaults(command)
        for name, p in inspect.signature(function).parameters.items():
            if p.default is inspect.Parameter.empty or p.kind is p.VAR_KEYWORD:
                continue
            flag = renamed.get(name, name)
            # The package's own: simulate's workload is a dict merged into the tree (not
            # --workload FILE); solve's threads sizes the pool that sums and writes the answer.
            if (function, name) in ((leontief.simulate, "workload"),
                                    (leontief.compare_simulations, "workload"),
                                    (leontief.solve, "threads")):
                continue
            assert flag in defaults, f"{function.__name__}({name}): no flag --{flag}"
            if p.default is not None:
                assert cli_text(p.default) == defaults[flag], (function.__name__, name)
                compared += 1
    assert compared >= 20
    # The ones the package once set differently: hdrf's and simulate's policy.
    assert leontief._leontief.flag_defaults("hdrf")["policy"] == "min-satisfaction"
    assert inspect.signature(leontief.simulate).parameters["policy"].default == "min-satisfaction"


def test_no_return_type_depends_on_an_arguments_value():
    # "all" has its own functions: one policy in, one TreeAllocation / Simulation out.
    with pytest.raises(leontief.InvalidInput, match="compare_policies"):
        leontief.hdrf(EXAMPLES / "lecture-tree.json", "all")
    with pytest.raises(leontief.InvalidInput, match="compare_simulations"):
        leontief.simulate(EXAMPLES / "lecture-churn.json", policy="all")
    hints = {
        leontief.hdrf: leontief.TreeAllocation, leontief.simulate: leontief.Simulation,
        leontief.solve: leontief.Allocation, leontief.check: leontief.CheckResult,
        leontief.order: leontief.OfferOrder, leontief.import_yarn: leontief.ImportedTree,
        leontief.import_kueue: leontief.ImportedTree, leontief.verify: leontief.VerifyResult,
    }
    for function, result in hints.items():
        assert typing.get_type_hints(function)["return"] is result, function.__name__


def test_simulate_lecture_churn():
    # docs/guide.md: in the lecture's churn naive HDRF drains B1 to 0 (the lecture's starvation);
    # min-satisfaction HDRF keeps it above its guarantee 1/4.
    churn = EXAMPLES / "lecture-churn.json"
    naive = leontief.simulate(churn, policy="naive", no_series=True)
    fair = leontief.simulate(churn)  # the CLI's default policy, min-satisfaction
    assert fair.policy == "min-satisfaction"
    assert naive.summary["root/B/B1"]["starved"] is True
    assert naive.summary["root/B/B1"]["min_share_steady"] == 0
    assert fair.summary["root/B/B1"]["starved"] is False
    assert fair.summary["root/B/B1"]["guaranteed_share"] == F(1, 4)
    assert fair.summary["root/B/B1"]["min_share_steady"] >= F(1, 4)
    assert not naive.series and fair.series
    df = fair.to_pandas()
    assert "root/B/B1 dominant_share" in df.columns and df["time"].iloc[0] == 0
    every = leontief.compare_simulations(churn, no_series=True)
    assert {"naive", "min-satisfaction", "hdrf"} <= set(every)
    assert all(isinstance(s, leontief.Simulation) and s.policy == p for p, s in every.items())
    assert every["naive"].summary == naive.summary


# --- order, import ------------------------------------------------------------------------


# The guide's `leontief order` example (examples/order-tree.json, as `leontief.examples`
# holds it): a holds <6,6> of <100,100>; under the pool b, c holds <4,4> and d <3,3>.
ORDER_TREE = leontief.examples.ORDER_TREE


def test_order_readme_example():
    # The naive rule (Mesos' DRF sorter) offers to the smallest dominant share over weight,
    # top down: a 6/100 < b 7/100 (c and d together), so a first; within b, d 3/100 < c 4/100.
    # docs/guide.md: "offer order: root/a, root/b/d, root/b/c".
    o = leontief.order(ORDER_TREE)
    assert isinstance(o, Mapping) and o.rule == "naive"  # the CLI's default rule
    assert o.offer == ["root/a", "root/b/d", "root/b/c"]
    assert (o["root/a"].weighted_share, o["root/b"].weighted_share) == (F(6, 100), F(7, 100))
    assert [o[p].rank for p in o.offer] == [1, 2, 3]
    assert o["root/b"].kind == "pool" and o["root/b"].usage == [7, 7]
    assert all(isinstance(k, F) for k in o["root/a"].key)
    # The same figures as the CLI prints.
    assert o.to_dict() == leontief.run("order", "<t>", inputs={"<t>": ORDER_TREE})
    # A flag that does not apply: the CLI's message.
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.order(ORDER_TREE, fair_share="hdrf")
    assert str(e.value) == "--fair-share applies only to --rule ytsaurus, not --rule naive"


def test_import_yarn_then_order_the_walkthrough():
    # docs/walkthrough.md: Hadoop's test tree on 32 GB and 20 vcores; childA1 holds 18 tasks
    # of <512 MB, 1> = <9216, 18>, childB2 two of <4096, 0> = <8192, 0>. parentA's weighted
    # share: max(9216/32768, 18/20) / 8 = (9/10) / 8 = 9/80; parentB's: (8192/32768) / 1 =
    # 1/4. So childA1 is offered the next container although childB1 holds nothing.
    tree = leontief.import_yarn(EXAMPLES / "yarn-parents.xml", [32768, 20],
                                demands=EXAMPLES / "yarn-walkthrough-demands.json")
    assert isinstance(tree, leontief.ImportedTree) and isinstance(tree, Mapping)
    assert tree["capacity"] == [32768, 20] and tree["resources"] == ["memory-mb", "vcores"]
    o = leontief.order(tree)
    assert o.offer[0] == "root/parentA/childA1"
    assert o["root/parentA"].weighted_share == F(9, 80)
    assert o["root/parentB"].weighted_share == F(1, 4)
    # The demands as a dict give the same tree; the tree is what the CLI prints.
    demands = json.loads((EXAMPLES / "yarn-walkthrough-demands.json").read_text())
    same = leontief.import_yarn(str(EXAMPLES / "yarn-parents.xml"), "32768,20", demands=demands)
    assert dict(same) == dict(tree)
    printed = leontief.run("import", "yarn", str(EXAMPLES / "yarn-parents.xml"), "--capacity",
                           "32768,20", "--demands", str(EXAMPLES / "yarn-walkthrough-demands.json"))
    assert tree.to_dict() == printed


def test_import_kueue_limits_and_warnings():
    # examples/kueue-limits.yaml (Kueue's documentation): team-a-cq "can admit Workloads with
    # resources adding up to 9+1=10 CPUs"; team-b-cq, without a borrowingLimit, 12+9=21.
    tree = leontief.import_kueue(EXAMPLES / "kueue-limits.yaml")
    queues = {c["name"]: c for c in tree["tree"]["children"]}
    assert tree["resources"] == ["cpu", "memory"] and tree["capacity"][0] == 12 + 9
    assert queues["team-a-cq"]["limit"][0] == 9 + 1
    assert "limit" not in queues["team-b-cq"]  # it can reach the whole capacity, 12 + 9
    # namespaceSelector has no tree equivalent: a warning (the CLI writes it on standard
    # error), also in the tree's note; --strict makes it an error.
    assert tree.warnings and any("namespaceSelector" in w for w in tree.warnings)
    assert tree["note"] == " ".join(tree.warnings)
    with pytest.raises(leontief.InvalidInput, match="^--strict: "):
        leontief.import_kueue(EXAMPLES / "kueue-limits.yaml", strict=True)
    # The configuration's text works as its path does.
    assert dict(leontief.import_kueue((EXAMPLES / "kueue-limits.yaml").read_text())) == dict(tree)


def test_import_errors_name_the_element():
    # README: unknown elements are errors naming their path.
    bad = '<allocations>\n<queue name="a"><wieght>1</wieght></queue>\n</allocations>\n'
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.import_yarn(bad, [100, 10])
    assert "allocations/queue[a]/wieght: unknown element" in str(e.value)


def test_reproduce_rows():
    rep = leontief.reproduce("drf-paper")
    assert rep.failed == 0 and rep.passed == len(rep) > 0
    row = rep[0]
    assert row["example"] == "drf-paper" and row["what"] == "A tasks"
    assert row["computed"] == "3" and row["source"] == "3" and row["ok"] is True


def public_objects():
    import leontief.ray

    for module, names in ((leontief, leontief.__all__), (leontief.ray, leontief.ray.__all__)):
        for name in names:
            obj = getattr(module, name)
            # The exceptions and the records iterator are the extension module's.
            if obj in (leontief.InvalidInput, leontief.Mismatch, leontief.Records):
                continue
            yield f"{module.__name__}.{name}", obj


def test_docstrings_are_numpydoc_with_an_example_each():
    for name, obj in public_objects():
        doc = inspect.getdoc(obj) or ""
        assert "Examples\n--------\n" in doc and ">>> " in doc, f"{name}: no example"
        if inspect.isfunction(obj):
            assert "Returns\n-------\n" in doc, f"{name}: no Returns section"
            if inspect.signature(obj).parameters:
                assert "Parameters\n----------\n" in doc, f"{name}: no Parameters section"
        for attr, member in vars(obj).items() if inspect.isclass(obj) else ():
            if inspect.isfunction(member) and not attr.startswith("_"):
                assert ">>> " in (inspect.getdoc(member) or ""), f"{name}.{attr}: no example"


def test_docstring_examples():
    # The docstrings' examples (the DRF paper's example among them) run as written.
    import doctest

    import leontief.examples
    import leontief.ray

    for module in (leontief, leontief.ray, leontief.examples):
        failures, tests = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert tests >= 1 and failures == 0, module.__name__


def test_public_names_present_the_package_as_their_home():
    # The public classes and functions are defined in private modules (leontief._flat,
    # leontief._trees, ...) and re-exported. Each names the package as its module: pickles
    # refer to `leontief.UserAllocation`, annotations resolve (typing.get_type_hints reads a
    # class's in its module), and the doctests collected from the package include every
    # public class's and public method's examples (one left in its private module would be
    # skipped without a failure).
    import doctest
    import pickle

    collected = {t.name for t in doctest.DocTestFinder().find(leontief) if t.examples}
    for name in leontief.__all__:
        obj = getattr(leontief, name)
        if getattr(leontief._leontief, name, None) is obj:
            continue  # the extension's own names (InvalidInput, Mismatch, Records)
        assert obj.__module__ == "leontief", name
        assert f"leontief.{name}" in collected, name
        if inspect.isclass(obj):
            typing.get_type_hints(obj)
            for attr, member in vars(obj).items():
                if inspect.isfunction(member) and not attr.startswith("_"):
                    assert f"leontief.{name}.{attr}" in collected, f"{name}.{attr}"
    a = leontief.solve({"capacity": [9, 18], "users": [
        {"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}]})
    assert b"cleontief\nAllocation\n" in pickle.dumps(a, protocol=2)
    assert b"cleontief\nUserAllocation\n" in pickle.dumps(a["A"], protocol=2)


def test_readme_examples_run(monkeypatch, capsys):
    # The guide's "From Python" block (run from the repository's root, as its paths are) and
    # python/README.md's doctest, as written.
    import doctest
    import re

    text = (ROOT / "docs" / "guide.md").read_text()
    section = text[text.index("## From Python"):]
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(ROOT)
    exec(compile(block, "docs/guide.md", "exec"), {})
    assert "users[0].demand[1]: expected an exact number" in capsys.readouterr().out
    failures, tests = doctest.testfile(str(ROOT / "python" / "README.md"), module_relative=False)
    assert tests >= 5 and failures == 0
