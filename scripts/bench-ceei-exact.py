#!/usr/bin/env python3
"""Exact CEEI end to end, beside cvxpy + Clarabel on the same instances (BENCHMARKS.md,
"Exact algebraic CEEI").

    python3 scripts/bench-ceei-exact.py [--cli PATH] [--dir DIR] [--cvxpy PYTHON]

Writes random instances to DIR (default /tmp/leontief-ceei-exact; deterministic: Python's
`random.Random(seed)`), two resources of capacity 1000 with 10, 25, 50, 75 and 100 users and
three resources of capacity 1000 with 4, 6, 8 and 10 users, demands integers 1..30, three
seeds each. For each it times `leontief solve --mechanism ceei` (the numeric solve, the
algebraic step and every figure) and reads whether the answer is exact. With `--cvxpy PYTHON`
(an interpreter with cvxpy and clarabel installed) it also times the Eisenberg-Gale program
max sum log x_i s.t. sum_i x_i d_i <= c in cvxpy with the Clarabel solver, and reports its
status and its largest relative difference from the exact task counts. Prints one JSON line
per instance, then a table.
"""

import argparse
import json
import random
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

SIZES = [(2, n) for n in (10, 25, 50, 75, 100)] + [(3, n) for n in (4, 6, 8, 10)]
SEEDS = (1, 2, 3)

CVXPY_PROGRAM = r"""
import json, sys, time
import cvxpy as cp
import numpy as np
inst = json.load(open(sys.argv[1]))
d = np.array([[float(v) for v in u["demand"]] for u in inst["users"]])
c = np.array([float(v) for v in inst["capacity"]])
start = time.perf_counter()
x = cp.Variable(d.shape[0])
problem = cp.Problem(cp.Maximize(cp.sum(cp.log(x))), [d.T @ x <= c])
problem.solve(solver=cp.CLARABEL)
seconds = time.perf_counter() - start
tasks = None if x.value is None else [float(v) for v in x.value]
print(json.dumps({"seconds": seconds, "status": problem.status, "tasks": tasks}))
"""


def instance(resources, users, seed):
    rng = random.Random(seed * 1000 + resources * 100 + users)
    return {
        "capacity": [1000] * resources,
        "users": [
            {"name": f"u{i + 1}", "demand": [rng.randint(1, 30) for _ in range(resources)]}
            for i in range(users)
        ],
    }


def number(value):
    """A task count of the answer as a Fraction: "p/q", or an algebraic number's decimal."""
    if isinstance(value, str):
        return Fraction(value)
    return Fraction(value["decimal"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default="target/release/leontief")
    parser.add_argument("--dir", default="/tmp/leontief-ceei-exact")
    parser.add_argument("--cvxpy", help="a Python interpreter with cvxpy and clarabel")
    args = parser.parse_args()
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for resources, users in SIZES:
        for seed in SEEDS:
            path = out / f"ceei-{resources}r-{users}u-s{seed}.json"
            path.write_text(json.dumps(instance(resources, users, seed)))
            start = time.perf_counter()
            run = subprocess.run(
                [args.cli, "solve", "--mechanism", "ceei", str(path)],
                capture_output=True, text=True, check=True,
            )
            seconds = time.perf_counter() - start
            answer = json.loads(run.stdout)
            tasks = [number(u["tasks"]) for u in answer["users"]]
            degree = max(
                (len(u["tasks"]["algebraic"]["polynomial"]) - 1
                 for u in answer["users"] if isinstance(u["tasks"], dict)),
                default=1,
            )
            row = {
                "resources": resources, "users": users, "seed": seed,
                "seconds": round(seconds, 3), "exact": answer["exact"], "degree": degree,
                "reason": answer.get("exact_reason"),
            }
            if args.cvxpy:
                cvx = subprocess.run(
                    [args.cvxpy, "-c", CVXPY_PROGRAM, str(path)],
                    capture_output=True, text=True,
                )
                if cvx.returncode != 0:
                    row["cvxpy"] = {"error": cvx.stderr.strip().splitlines()[-1]}
                else:
                    got = json.loads(cvx.stdout)
                    error = None
                    if got["tasks"] is not None:
                        error = max(
                            abs(Fraction(g) - t) / t for g, t in zip(got["tasks"], tasks)
                        )
                    row["cvxpy"] = {
                        "seconds": round(got["seconds"], 3), "status": got["status"],
                        "max_relative_error": None if error is None else float(error),
                    }
            print(json.dumps(row), flush=True)
            rows.append(row)
    print("\n| resources | users | leontief (s), exact, degree | cvxpy + Clarabel (s), status, max rel. error |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        cvx = r.get("cvxpy")
        if cvx is None:
            cvx_text = ""
        elif "error" in cvx:
            cvx_text = cvx["error"]
        elif cvx["max_relative_error"] is None:
            cvx_text = f"{cvx['seconds']}, {cvx['status']}"
        else:
            cvx_text = f"{cvx['seconds']}, {cvx['status']}, {cvx['max_relative_error']:.1e}"
        lt = f"{r['seconds']}, {'exact' if r['exact'] else 'not exact: ' + str(r['reason'])}, {r['degree']}"
        print(f"| {r['resources']} | {r['users']} (seed {r['seed']}) | {lt} | {cvx_text} |")


if __name__ == "__main__":
    sys.exit(main())
