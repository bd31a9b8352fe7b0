#!/usr/bin/env bash
# Set up, then run every test (Python, language server, Neovim, pre-commit, VS Code extension).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q
