#!/usr/bin/env bash
# The run-sb3 extra for the sb3 tier (tests/runner/test_sb3.py): torch's CPU build first (2.13.0,
# which this machine keeps as a local file; a bare `torch` requirement would take a CUDA build
# of several GB), then stable-baselines3 through the extra.
set -euo pipefail
cd "$(dirname "$0")/../.."
.venv/bin/python -m pip install -q "torch==2.13.0"
.venv/bin/python -m pip install -q -e ".[run-sb3]"
