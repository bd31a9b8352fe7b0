#!/usr/bin/env bash
# Install the VS Code extension's npm dependencies (idempotent): `npm ci` in vscode-extension/
# when node_modules is missing or package-lock.json changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/../../vscode-extension"

if ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing Debian's nodejs and npm for the VS Code extension"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq nodejs npm >/dev/null
fi

stamp=node_modules/.sylla-package-lock.sha256
wanted=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
  exit 0
fi

echo "setup: npm ci in vscode-extension/"
npm ci --no-audit --no-fund --loglevel=error
echo "$wanted" >"$stamp"
