#!/usr/bin/env bash
# Set up everything the tests need (scripts/setup.sh: .venv with sylla[test], the l2metrics
# baseline, Neovim, the extension's npm packages, code-server), then run every test (Python,
# language server, Neovim, pre-commit, VS Code extension).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q
