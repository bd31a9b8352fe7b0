#!/usr/bin/env bash
# The run-sb3 extra for the sb3 tier (tests/runner/test_sb3.py): torch's CPU build first (2.13.0,
# which this machine keeps as a local file; a bare `torch` requirement would take a CUDA build
# of several GB), then stable-baselines3 through the extra. Idempotent: pip runs only when
# pyproject.toml or this script changed since it last succeeded, or the packages are gone
# (re-resolving both takes 7 s and more on every run of scripts/test.sh otherwise), as
# scripts/setup.sh's stamp does for .venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
stamp=.venv/.sylla-sb3.sha256
if sha256sum -c --status "$stamp" 2>/dev/null && .venv/bin/python -c \
  "import importlib.metadata as m, sys; m.version('stable-baselines3'); sys.exit(not m.version('torch').startswith('2.13.0'))" 2>/dev/null; then
  exit 0
fi
.venv/bin/python -m pip install -q "torch==2.13.0"
.venv/bin/python -m pip install -q -e ".[run-sb3]"
sha256sum pyproject.toml scripts/setup.d/60-sb3.sh >"$stamp"
