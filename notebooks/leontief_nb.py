"""What every notebook in notebooks/ needs, in one place: finding the checkout and the release
CLI, running the CLI with JSON in and out, reading its exact numbers as Fractions, showing
figures and tables, and an independent extended DRF written out in Fractions.

The notebooks import it with `from leontief_nb import ...`: Jupyter, and scripts/notebooks.sh,
start each notebook with notebooks/ as its working directory, which is on the kernel's path.

Exact means exact here too: numbers from the CLI are read with `Q` into Fractions and every
assertion compares Fractions; floats appear only in plots.
"""

import json
import os
import subprocess
from fractions import Fraction
from io import BytesIO
from pathlib import Path

import matplotlib.pyplot as plt
from IPython.display import Image, Markdown, display

__all__ = ["REPO", "LEONTIEF", "leontief", "leontief_json", "Q", "show", "md_table", "hand_drf",
           "explore", "explore_best", "short", "check", "solve_tasks"]


def find_repo():
    """The leontief checkout: $LEONTIEF_REPO, else the first parent of the working directory
    with Cargo.toml and examples/ (Jupyter starts a notebook in notebooks/)."""
    if os.environ.get("LEONTIEF_REPO"):
        return Path(os.environ["LEONTIEF_REPO"])
    for d in [Path.cwd(), *Path.cwd().parents]:
        if (d / "Cargo.toml").is_file() and (d / "examples").is_dir():
            return d
    raise RuntimeError("cannot find the leontief repository: set LEONTIEF_REPO")


REPO = find_repo()
LEONTIEF = os.environ.get("LEONTIEF") or str(REPO / "target" / "release" / "leontief")
assert os.access(LEONTIEF, os.X_OK), f"{LEONTIEF}: build it with `cargo build --release`"


def leontief(*args, stdin=None, timeout=300):
    """Run the CLI; returns the finished process (stdout, stderr). Fails on a non-zero exit."""
    done = subprocess.run([LEONTIEF, *map(str, args)], input=stdin, capture_output=True,
                          text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"leontief {' '.join(map(str, args))} exited {done.returncode}:\n"
                           f"{done.stderr}")
    return done


def leontief_json(*args, stdin=None):
    """Run the CLI and parse its standard output as JSON."""
    return json.loads(leontief(*args, stdin=stdin).stdout)


def Q(text):
    """An exact number of the CLI's JSON ("3/4", "2") as a Fraction; never a float."""
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise TypeError(f"expected an exact string, got {text!r}")
    return Fraction(text)


def show(fig):
    """Render the figure to PNG and display it (works under any backend, Agg included)."""
    buffer = BytesIO()
    fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
    plt.close(fig)
    display(Image(data=buffer.getvalue()))


def md_table(header, rows):
    """A Markdown table, for `display`."""
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return Markdown("\n".join(lines))


def hand_drf(instance, trace=False):
    """Extended DRF by progressive filling, written out here in Fractions, independently of the
    CLI (docs/theory.md §2; Parkes-Procaccia-Shah's freeze rule): every active user's weighted
    dominant share rises at the same rate; when a resource saturates, exactly the active users
    that demand it freeze (users with a zero there keep growing); a user also freezes at its
    task cap. Returns {name: tasks}."""
    caps = [Q(c) for c in instance["capacity"]]
    users = instance["users"]
    assert all("weights" not in u for u in users), "per-resource weights: not handled here"
    demand = {u["name"]: [Q(x) for x in u["demand"]] for u in users}
    weight = {u["name"]: Q(u.get("weight", 1)) for u in users}
    cap = {u["name"]: (Q(u["tasks"]) if u.get("tasks") is not None else None) for u in users}
    # tasks per unit of level: x_i = level * w_i / s_i, s_i the dominant share of one task.
    rate = {}
    for name, d in demand.items():
        s = max(dr / cr for dr, cr in zip(d, caps))
        assert s > 0, f"{name} demands nothing"
        rate[name] = weight[name] / s
    tasks = {name: Fraction(0) for name in demand}
    active = set(demand)
    level = Fraction(0)
    while active:
        used = [sum(tasks[n] * demand[n][r] for n in demand if n not in active)
                for r in range(len(caps))]
        events = []  # (level, cause, users frozen)
        for r, c in enumerate(caps):
            growth = sum(rate[n] * demand[n][r] for n in active)
            if growth > 0:
                events.append(((c - used[r]) / growth, f"saturated r{r + 1}",
                               {n for n in active if demand[n][r] > 0}))
        for n in active:
            if cap[n] is not None:
                events.append((cap[n] / rate[n], f"cap of {n}", {n}))
        level = min(e[0] for e in events)
        frozen = set().union(*(e[2] for e in events if e[0] == level))
        for n in frozen:
            tasks[n] = level * rate[n]
        if trace:
            causes = ", ".join(e[1] for e in events if e[0] == level)
            print(f"level {level}: {causes}; frozen {sorted(frozen)} at "
                  + ", ".join(f"{n}={tasks[n]}" for n in sorted(frozen)))
        active -= frozen
    return tasks


def _range(r):
    """`--users`/`--resources` take "a..b"; an int n means n..n."""
    return f"{r}..{r}" if isinstance(r, int) else f"{r[0]}..{r[1]}"


def explore(mechanism, metric, *, users, resources, budget, seed, out=None, extra=()):
    """Run `leontief explore` with a scenario budget and a seed (deterministic at any thread
    count) and return its records, parsed: one per improvement, the last one the best
    (`"best": true`). With `out`, the JSONL is also kept in that file (for `leontief merge`)."""
    args = ["explore", "--mechanism", mechanism, "--metric", metric,
            "--users", _range(users), "--resources", _range(resources),
            "--budget", budget, "--seed", seed, *extra]
    if out is not None:
        leontief(*args, "--out", out)
        text = Path(out).read_text()
    else:
        text = leontief(*args).stdout
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert records and records[-1].get("best") is True, "explore printed no best record"
    return records


def explore_best(mechanism, metric, **kwargs):
    """The best record of `explore(...)`."""
    return explore(mechanism, metric, **kwargs)[-1]


def short(value, width=24):
    """An exact value for a table: the fraction itself when short, else its size in digits."""
    text = str(value)
    if len(text) <= width:
        return f"`{text}`"
    num, _, den = text.partition("/")
    return f"({len(num)}-digit / {len(den)}-digit fraction)"


def check(instance, properties, *, mechanism="drf", lies=None, remove=None, capacity=None):
    """`leontief check` on an instance given as a dict (a record's `instance`, read from
    standard input): {property: verdict}. `lies` maps a user (by path, e.g. p1/u3) to its
    reported demand, passed as `--lie`; `remove` is the user who leaves, for `pm`; `capacity`
    the grown capacities, for `rm`."""
    args = ["check", "--mechanism", mechanism, "--property", ",".join(properties)]
    for name, demand in (lies or {}).items():
        args += ["--lie", f"{name}=" + ",".join(str(x) for x in demand)]
    if remove is not None:
        args += ["--remove", remove]
    if capacity is not None:
        args += ["--capacity", ",".join(str(x) for x in capacity)]
    verdicts = leontief_json(*args, "-", stdin=json.dumps(instance))
    return {v["property"]: v for v in verdicts}


def solve_tasks(instance, mechanism="drf", *extra):
    """`leontief solve` on an instance given as a dict: {user: tasks} as Fractions."""
    out = leontief_json("solve", "--mechanism", mechanism, *extra, "-", stdin=json.dumps(instance))
    return {u["name"]: Q(u["tasks"]) for u in out["users"]}
