#!/usr/bin/env bash
# Set up, then run sylla's main job on the bundled examples: explain each syllabus, lint them
# all (one has findings to show), and compute metrics with plots on the bundled log.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 2
. .venv/bin/activate
status=0

# Exit code 1 means "the input has findings or errors" (examples/with-findings.jsonc has them
# on purpose): the demo shows them. Only 2 and above (usage, I/O, a crash) fail the demo.
show() {
  "$@"
  local rc=$?
  [ "$rc" -ge 2 ] && status=$rc
  return 0
}

for f in examples/*.json examples/*.jsonc; do
  [ -e "$f" ] || continue
  echo "== sylla explain $f"
  show sylla explain "$f"
  echo
done

echo "== sylla lint examples/"
show sylla lint examples/
echo

out=out/metrics
echo "== sylla metrics (writing $out/metrics.txt and plots to $out/plots/)"
sylla metrics --syllabus examples/metrics/pong_breakout.json --log examples/metrics/rewards.csv \
  --ste examples/metrics/ste \
  --out "$out" --plots || status=$?
[ -f "$out/metrics.txt" ] && cat "$out/metrics.txt"
exit $status
