"""Display functions shared by the notebooks in notebooks/, the repository's path, and the
notebooks' independent extended DRF.

The computations themselves go through the `leontief` package (`import leontief`; installed
by `pip install ./python`, or by scripts/python-env.sh into the shared venv), which returns
exact numbers as Fractions. `hand_drf` below is the exception on purpose: it is the
independent check the notebooks compare the package against, written out in Fractions.

The notebooks import this module with `from leontief_nb import ...`: Jupyter, and
scripts/notebooks.sh, start each notebook with notebooks/ as its working directory, which is
on the kernel's path.
"""

import os
from fractions import Fraction
from io import BytesIO
from pathlib import Path

import matplotlib.pyplot as plt
from IPython.display import Image, Markdown, display

__all__ = ["REPO", "Q", "show", "md_table", "short", "hand_drf"]


def find_repo():
    """The leontief checkout (for its examples/ and corpus files): $LEONTIEF_REPO, else the
    first parent of the working directory with Cargo.toml and examples/ (Jupyter starts a
    notebook in notebooks/)."""
    if os.environ.get("LEONTIEF_REPO"):
        return Path(os.environ["LEONTIEF_REPO"])
    for d in [Path.cwd(), *Path.cwd().parents]:
        if (d / "Cargo.toml").is_file() and (d / "examples").is_dir():
            return d
    raise RuntimeError("cannot find the leontief repository: set LEONTIEF_REPO")


REPO = find_repo()


def Q(value):
    """An exact number as a Fraction: a Fraction, an int or an exact string ("3/4", "2");
    never a float. For instances written by hand in the notebooks' JSON form."""
    if isinstance(value, bool) or not isinstance(value, (str, int, Fraction)):
        raise TypeError(f"expected an exact number, got {value!r}")
    return Fraction(value)


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


def short(value, width=24):
    """An exact value for a table: the fraction itself when short, else its size in digits."""
    text = str(value)
    if len(text) <= width:
        return f"`{text}`"
    num, _, den = text.partition("/")
    return f"({len(num)}-digit / {len(den)}-digit fraction)"


def hand_drf(instance, trace=False):
    """The independent check: extended DRF by progressive filling, written out here in
    Fractions without the `leontief` package (docs/theory.md §2; Parkes-Procaccia-Shah's
    freeze rule): every active user's weighted dominant share rises at the same rate; when a
    resource saturates, exactly the active users that demand it freeze (users with a zero
    there keep growing); a user also freezes at its task cap. Returns {name: tasks}."""
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
