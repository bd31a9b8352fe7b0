#!/usr/bin/env bash
# The separate rliable 1.2.0 venv (.venv-rliable) that tests/metrics/compare/test_oracle_rliable.py
# and bench/compare.py run as the reference for `sylla compare`. It is never mixed into .venv:
# rliable needs arch < 8, and arch 7.2 does not import with pandas 3 (pandas' deprecate_kwarg
# changed), so this venv pins pandas < 3. Idempotent: does nothing when rliable 1.2.0 imports.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
VENV=.venv-rliable
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c \
  'import importlib.metadata as m, sys, rliable.library; sys.exit(m.version("rliable") != "1.2.0")' 2>/dev/null; then
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "rliable==1.2.0" "pandas<3"
"$VENV/bin/python" -c 'import rliable.library, rliable.metrics' >/dev/null
echo "rliable 1.2.0 ready in $VENV"
