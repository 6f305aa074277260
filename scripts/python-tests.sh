#!/usr/bin/env bash
# The Python package's tests (python/tests, pytest) in the venv of scripts/python-env.sh,
# which it installs or refreshes first. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$(bash scripts/python-env.sh)"
exec "$venv/bin/python" -m pytest python/tests "$@"
