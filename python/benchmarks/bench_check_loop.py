"""A loop of small `check` calls in-process (`leontief.check`) against the same loop through
the CLI (one `leontief check` process per call, its JSON parsed), the notebooks' former way.

The instance is the DRF paper's example; each call decides si, ef and po.

Usage: python bench_check_loop.py PATH/TO/leontief [CALLS] [CLI_CALLS]
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import leontief

PAPER = {
    "capacity": [9, 18],
    "users": [{"name": "A", "demand": [1, 4]}, {"name": "B", "demand": [3, 1]}],
}


def main() -> None:
    exe = sys.argv[1]
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    cli_calls = int(sys.argv[3]) if len(sys.argv) > 3 else calls
    properties = ["si", "ef", "po"]
    leontief.check(PAPER, properties=properties)
    t = time.perf_counter()
    for _ in range(calls):
        r = leontief.check(PAPER, properties=properties)
    py = time.perf_counter() - t
    assert r.holds
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(PAPER, f)
    try:
        t = time.perf_counter()
        for _ in range(cli_calls):
            out = subprocess.run(
                [exe, "check", f.name, "--property", "si,ef,po"],
                capture_output=True, text=True, check=True,
            ).stdout
            verdicts = json.loads(out)
        cli = time.perf_counter() - t
    finally:
        os.unlink(f.name)
    assert all(v["holds"] for v in verdicts)
    per_py, per_cli = py / calls, cli / cli_calls
    print(
        f"{calls} check calls in-process: {py:.2f} s ({per_py * 1e6:.0f} us/call); "
        f"{cli_calls} through the CLI: {cli:.2f} s ({per_cli * 1e3:.2f} ms/call); "
        f"speed-up x{per_cli / per_py:.0f}"
    )


if __name__ == "__main__":
    main()
