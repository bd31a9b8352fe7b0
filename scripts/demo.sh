#!/usr/bin/env bash
# Set up, then run sylla's main job on the bundled examples.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. .venv/bin/activate
status=0
for f in examples/*.json examples/*.jsonc; do
  [ -e "$f" ] || continue
  echo "== sylla explain $f"
  sylla explain "$f" || status=$?
done
exit $status
