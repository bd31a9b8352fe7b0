#!/usr/bin/env bash
# Set up everything sylla needs on a fresh machine (idempotent): a virtual environment with
# sylla and its test tools, then each step in scripts/setup.d/ (system packages, npm, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
.venv/bin/python -m pip install -q -e ".[test]"
for step in scripts/setup.d/*.sh; do
  [ -e "$step" ] || continue
  bash "$step"
done
