#!/usr/bin/env bash
# Set up everything the tests need (scripts/setup.sh: .venv with sylla[test], the l2metrics
# baseline, Neovim, the extension's npm packages, code-server), then run every test (Python,
# language server, Neovim, pre-commit, VS Code extension).
#
# `--fast` sets up only .venv and runs the fast tier: every test without a tier marker
# (editor, parity, dask, packaging, precommit, slow; see CONTRIBUTING.md), on two pytest-xdist
# workers. The full run uses every core: one pytest-xdist worker each, a test module's tests on
# one worker (modules share a server, a built wheel or a cluster among their tests), the modules
# with a tier marker first and in that order (tests/conftest.py, --no-loadscope-reorder); the npm
# build and the .vsix that the editor tests share are made once per run, under a lock
# (tests/vscode/vscode_support.py). Further arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fast" ]; then
  shift
  bash scripts/setup.sh --venv-only
  exec .venv/bin/python -m pytest -q -n 2 --dist loadfile \
    -m "not (editor or parity or dask or packaging or precommit or slow)" "$@"
fi
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q -n auto --dist loadfile --no-loadscope-reorder "$@"
