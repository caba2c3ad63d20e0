#!/bin/sh
# Set up a virtual environment (the first time, or when pyproject.toml changes)
# and run the whole test suite, one pytest worker per core (FAIRDEAL_TEST_WORKERS, or
# `-n 0` among the arguments, says otherwise). Extra arguments go to pytest.
set -eu
cd "$(dirname "$0")"
. ./scripts/venv.sh
ensure_venv test
exec "$VENV/bin/python" -m pytest -n "${FAIRDEAL_TEST_WORKERS:-auto}" "$@"
