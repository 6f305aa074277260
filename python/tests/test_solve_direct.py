"""`solve` hands an instance dict to the CLI's reader (as JSON, exact numbers kept) and keeps
its answer's exact numbers in Rust until they are read: the same answers, the same errors (the
CLI reader's messages, quoted from the solver's own tests and docs), and the same objects as the
CLI's JSON."""

from __future__ import annotations

import json
import math
import os
import pathlib
import pickle
import subprocess
from dataclasses import FrozenInstanceError
from decimal import Decimal
from fractions import Fraction as F

import pytest

import leontief

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The DRF paper's running example (Ghodsi et al., NSDI 2011, section 4).
PAPER = {
    "capacity": [9, 18],
    "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}],
}


def cli_message(text: str) -> str | None:
    """The release CLI's error message on an instance given as JSON text (None without it)."""
    exe = pathlib.Path(os.environ.get("LEONTIEF_BIN", ROOT / "target" / "release" / "leontief"))
    if not exe.exists():
        return None
    p = subprocess.run([str(exe), "solve", "-"], input=text, capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    return p.stderr[len("error: ") :].rstrip("\n")


def with_user(**fields):
    inst = json.loads(json.dumps(PAPER))
    inst["users"][0].update(fields)
    return inst


@pytest.mark.parametrize(
    "inst,message",
    [
        # Messages as the solver's tests and docs state them.
        (with_user(demand=[0, 0]), "users[0].demand: all entries are zero; a user must demand some resource"),
        (with_user(demand=[1]), "users[0].demand: expected 2 entries, one per resource, found 1"),
        (with_user(weight=0), "users[0].weight: must be positive, found 0"),
        (with_user(weight=F(-1, 3)), "users[0].weight: must be positive, found -1/3"),
        (with_user(weight=None), "users[0].weight: expected a number, found null"),
        (with_user(weight=True), "users[0].weight: expected a number, found a boolean"),
        (with_user(tasks=0), "users[0].tasks: must be positive, found 0"),
        (with_user(tasks=[1]), "users[0].tasks: expected a number, found a list"),
        (with_user(name=""), "users[0].name: empty name"),
        (with_user(name=False), "users[0].name: expected a string, found a boolean"),
        (with_user(demands=[1, 4]), "users[0].demands: unknown field (expected name, demand, weight, weights, tasks)"),
        ({"capacity": [9, 0], "users": PAPER["users"]}, "capacity[1]: must be positive, found 0"),
        ({"capacity": [9, None], "users": PAPER["users"]}, "capacity[1]: expected a number, found null"),
        ({"capacity": 9, "users": PAPER["users"]}, "capacity: expected a list of numbers, found a number"),
        ({"users": PAPER["users"]}, "capacity: missing"),
    ],
)
def test_errors_are_the_cli_readers(inst, message):
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(inst)
    assert str(e.value) == message
    # The same document as JSON text goes through the CLI's reader: the same message.
    text = leontief.dumps(inst)
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(text)
    assert str(e.value) == message
    assert cli_message(text) in (None, message)


def test_inline_flags_beside_an_instance():
    # The CLI refuses an instance FILE with inline instance flags, whatever the FILE holds.
    with pytest.raises(leontief.InvalidInput) as e:
        leontief.solve(PAPER, capacity="9,18")
    assert str(e.value) == "give either an instance FILE or inline --capacity/--user flags, not both"


def big_instance():
    # Every spelling of a number in Python objects: ints beyond 64 bits, Fractions, strings, an
    # integral float, tuples, a null cap, missing names, free text.
    return {
        "about": "spellings",
        "resources": ("cpu", "mem", "disk"),
        "capacity": [2**100, F(3**50, 7), "123456789012345678901234567890/11"],
        "users": [
            {"name": "A", "demand": (1, 4.0, 0), "weight": 2, "tasks": None},
            {"demand": [F(3, 2), "1/3", 2**70], "tasks": F(10**30, 3)},
            {"name": "C", "demand": ["0.25", 0, 5], "weight": "3/2"},
        ],
    }


def test_python_objects_give_the_cli_readers_answer():
    inst = big_instance()
    direct = leontief.solve(inst).to_dict()
    text = leontief.solve(leontief.dumps(inst)).to_dict()  # the CLI's reader
    printed = leontief.run("solve", "<in>", inputs={"<in>": leontief.dumps(inst)})  # the CLI's JSON
    assert direct == text == printed
    assert list(direct) == list(printed)
    assert [u["name"] for u in direct["users"]] == ["A", "u2", "C"]  # the CLI's default name
    # A Decimal: the same answer.
    inst["users"][2]["demand"][0] = Decimal("0.25")
    assert leontief.solve(inst).to_dict() == direct


def fractions_in(value):
    if isinstance(value, F):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from fractions_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from fractions_in(v)


def test_answer_fractions_are_proper():
    # Fractions made without the constructor must be the constructor's: lowest terms, positive
    # denominator, the same value, hash and text.
    d = leontief.solve(big_instance()).to_dict()
    xs = list(fractions_in(d))
    assert len(xs) > 20
    for x in xs:
        assert type(x) is F and x.denominator > 0 and math.gcd(x.numerator, x.denominator) == 1
        y = F(x.numerator, x.denominator)
        assert x == y and hash(x) == hash(y) and str(x) == str(y)
        assert x + y == 2 * y and x - y == 0


def test_answer_behaves_as_before():
    a = leontief.solve(PAPER)
    # users: a dict of frozen dataclasses, in the instance's order.
    assert type(a.users) is dict and list(a.users) == ["A", "B"] and len(a.users) == 2
    u = a.users["A"]
    assert isinstance(u, leontief.UserAllocation)
    assert u == leontief.UserAllocation("A", F(3), [F(3), F(12)], F(2, 3), F(2, 3))
    assert repr(u) == "UserAllocation(name='A', tasks=Fraction(3, 1), allocation=[Fraction(3, 1), Fraction(12, 1)], dominant_share=Fraction(2, 3), weighted_share=Fraction(2, 3))"
    with pytest.raises(FrozenInstanceError):
        u.tasks = F(1)
    assert a.users is a.users and a.capacity is a.capacity  # made once
    assert repr(a) == "Allocation(drf, {A: 3, B: 2})"
    assert a.to_dict() is a.to_dict()
    assert list(a.to_dict()) == ["mechanism", "exact", "resources", "capacity", "users", "consumption", "saturated"]
    # Pickled as the CLI's JSON.
    b = pickle.loads(pickle.dumps(a))
    assert b.to_dict() == a.to_dict() and b.users == a.users and b.saturated == ["r1"]


def test_one_allocation_shape_from_json_and_from_rust():
    # The same answer read from the CLI's printed JSON (a dict) and held in Rust: one class,
    # every attribute equal, the DRF paper's 3 and 2 tasks either way.
    held = leontief.solve(PAPER, trace=True)
    printed = leontief.Allocation(
        leontief.run("solve", "<in>", "--trace", inputs={"<in>": leontief.dumps(PAPER)})
    )
    assert type(held) is type(printed) is leontief.Allocation
    for name in ("mechanism", "exact", "resources", "capacity", "users", "consumption",
                 "saturated", "trace", "certified", "status", "gap", "prices", "interval"):
        assert getattr(held, name) == getattr(printed, name), name
    assert held.to_dict() == printed.to_dict()
    assert [u.tasks for u in printed.values()] == [F(3), F(2)] and held.trace
