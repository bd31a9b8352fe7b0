#!/usr/bin/env bash
# Install Neovim (idempotent) for the language server's real-editor test
# (tests/lsp/test_neovim.py): if `nvim` is missing, install Debian's `neovim` package.
# The setup runs as root in CI; elsewhere sudo is used when it is available.
set -euo pipefail

if command -v nvim >/dev/null 2>&1; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "setup: nvim is missing and we are not root; install the 'neovim' package to run tests/lsp/test_neovim.py" >&2
    exit 0
  fi
fi

echo "setup: apt-get install neovim"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends neovim
