#!/usr/bin/env bash
# Execute the notebooks (notebooks/*.ipynb) on the `leontief` Python package and report one
# line each:
#
#   bash scripts/notebooks.sh                             # every notebook
#   bash scripts/notebooks.sh notebooks/collusion.ipynb   # some of them
#
# Needs python3 (3.11) with venv and the Rust toolchain. The venv is the project's shared one:
# scripts/python-env.sh creates or refreshes it (${LEONTIEF_VENV:-target/python-venv}, the
# pinned python/requirements-dev.txt and notebooks/requirements.txt, the package built from
# python/ and installed into it) and prints its path. A Jupyter kernel spec is registered
# inside that venv. The notebooks run in memory with nbclient (MPLBACKEND=Agg, a timeout per
# cell of ${NOTEBOOK_CELL_TIMEOUT:-180} s), each with notebooks/ as its working directory, so
# that they import the display functions of notebooks/leontief_nb.py; nothing is written back
# into notebooks/. Set NOTEBOOK_OUT to a directory to keep the executed copies (with their
# outputs and plots) there.
# Ends with `notebooks: N passed, M failed`; exits non-zero when any failed or none ran.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"

venv="$(bash "$repo/scripts/python-env.sh")"
if [ ! -x "$venv/bin/python" ]; then
    echo "notebooks: scripts/python-env.sh printed ${venv@Q}, not a venv" >&2
    exit 2
fi
kernel="leontief-notebooks"

# Matplotlib, IPython and Jupyter keep their caches and state in the venv, not in the home
# directory; the kernel finds the venv's kernel spec through JUPYTER_PATH.
export MPLBACKEND=Agg
export MPLCONFIGDIR="$venv/state/matplotlib"
export IPYTHONDIR="$venv/state/ipython"
export JUPYTER_PATH="$venv/share/jupyter"
export JUPYTER_CONFIG_DIR="$venv/state/jupyter-config"
export JUPYTER_DATA_DIR="$venv/state/jupyter-data"
export JUPYTER_RUNTIME_DIR="$venv/state/jupyter-runtime"
export JUPYTER_PLATFORM_DIRS=1
export PYDEVD_DISABLE_FILE_VALIDATION=1
export PYTHONDONTWRITEBYTECODE=1

mkdir -p "$MPLCONFIGDIR" "$IPYTHONDIR" "$JUPYTER_CONFIG_DIR" "$JUPYTER_DATA_DIR" "$JUPYTER_RUNTIME_DIR"
# The kernel spec lives inside the venv (never in ~/.local), and points at the venv's python.
if [ ! -f "$venv/share/jupyter/kernels/$kernel/kernel.json" ]; then
    "$venv/bin/python" -m ipykernel install --prefix "$venv" --name "$kernel" \
        --display-name "Python 3 (leontief notebooks)" >/dev/null
fi
"$venv/bin/python" -c 'import leontief' || {
    echo "notebooks: the venv at $venv has no leontief package (scripts/python-env.sh installs it)" >&2
    exit 2
}

# --- run them.
export LEONTIEF_REPO="$repo"
export NOTEBOOK_KERNEL="$kernel"
export NOTEBOOK_CELL_TIMEOUT="${NOTEBOOK_CELL_TIMEOUT:-180}"
export NOTEBOOK_OUT="${NOTEBOOK_OUT:-}"

if [ "$#" -gt 0 ]; then
    notebooks=("$@")
else
    shopt -s nullglob
    notebooks=("$repo"/notebooks/*.ipynb)
    shopt -u nullglob
fi

exec "$venv/bin/python" - "${notebooks[@]}" <<'PY'
import os
import re
import sys
import time
import traceback
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

kernel = os.environ["NOTEBOOK_KERNEL"]
timeout = int(os.environ["NOTEBOOK_CELL_TIMEOUT"])
out_dir = os.environ.get("NOTEBOOK_OUT") or None
paths = [Path(p).resolve() for p in sys.argv[1:]]
passed, failed = 0, 0
if not paths:
    print("notebooks: no notebook to run", file=sys.stderr)


def one_line(text):
    text = " ".join(str(text).split())
    return text if len(text) <= 300 else text[:297] + "..."


for path in paths:
    name = path.name
    start = time.monotonic()
    try:
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name=kernel,
            allow_errors=False,
            # the kernel's own log (e.g. its warning that it talks TCP on loopback) only at errors
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
            resources={"metadata": {"path": str(path.parent)}},
        )
        try:
            client.execute()
        finally:
            if out_dir:
                os.makedirs(out_dir, exist_ok=True)
                nbformat.write(nb, os.path.join(out_dir, name))
    except CellExecutionError as err:
        failed += 1
        reason = f"{err.ename}: {err.evalue}" if getattr(err, "ename", None) else str(err)
        print(f"FAILED {name}: {one_line(reason)}", flush=True)
        print(re.sub(r"\x1b\[[0-9;]*m", "", str(err)), file=sys.stderr, flush=True)
        continue
    except CellTimeoutError as err:
        failed += 1
        print(f"FAILED {name}: a cell ran longer than {timeout} s: {one_line(err)}", flush=True)
        continue
    except Exception as err:  # kernel died, unreadable notebook, ...
        failed += 1
        print(f"FAILED {name}: {type(err).__name__}: {one_line(err)}", flush=True)
        traceback.print_exc(file=sys.stderr)
        continue
    passed += 1
    print(f"ok {name} ({time.monotonic() - start:.1f} s)", flush=True)

print(f"notebooks: {passed} passed, {failed} failed", flush=True)
sys.exit(0 if passed > 0 and failed == 0 else 1)
PY
