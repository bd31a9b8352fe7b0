#!/usr/bin/env bash
# The separate l2metrics 3.1.0 venv (.venv-l2m) that the metrics parity tests and
# bench/metrics_vs_l2metrics.py run as a baseline. It is never mixed into .venv: l2metrics pins
# old libraries. Idempotent: does nothing when l2metrics 3.1.0 is already importable there.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
VENV=.venv-l2m
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c \
  'import importlib.metadata as m, sys; sys.exit(m.version("l2metrics") != "3.1.0")' 2>/dev/null; then
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q "l2metrics==3.1.0"
"$VENV/bin/python" -c 'import l2metrics.report' >/dev/null
echo "l2metrics 3.1.0 ready in $VENV"
