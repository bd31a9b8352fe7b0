#!/usr/bin/env bash
# Set up only what the demo needs (.venv with sylla[metrics]: no editors, npm or l2metrics
# baseline, which are scripts/test.sh's), then tell sylla's story in six steps, one screen
# each, on the bundled examples/ and what the steps write under out/demo/:
#   1. sylla new writes an ANT-B syllabus (and sylla lint finds nothing in it);
#   2. sylla lint finds the mistakes planted in examples/ant-b-mistakes.jsonc;
#   3. sylla simulate produces a run under the syllabus of step 1;
#   4. sylla metrics --syllabus computes the metrics and plots of that run, then stops at the
#      first divergence of a run that strays from its syllabus (examples/metrics/strays.csv);
#   5. sylla sweep over three simulated seeds of two agents gives 95 % intervals;
#   6. sylla compare ranks the two agents of that sweep the rliable way (IQM, optimality gap,
#      probability of improvement with stratified bootstrap intervals) and plots them.
# Exit 0 when every step did what it shows (findings and the divergence are expected: exit 1
# there is the demo working); 2 when set-up fails; else the first unexpected exit code.
# `bash scripts/demo.sh --pause` waits for Enter between steps.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
PY=${PYTHON:-python3}
pause=0
[ "${1:-}" = "--pause" ] && pause=1

# Set-up in two parts, so that sylla speaks within seconds on a fresh clone: sylla itself
# (light: lark, jsonschema, pygls, ...) for steps 1 and 2, while the metrics extra (numpy,
# pandas, pyarrow, matplotlib, SciPy: most of the set-up time) installs in the background for
# steps 3 to 6. The background install adds only the extra's requirements (read from
# pyproject.toml), never sylla itself, so the `sylla` being run is not rewritten under it.
logs=out/setup
# --no-compile: pip's byte-compiling of every module of pandas, SciPy, matplotlib, ... takes
# half the install time (measured: 39 s vs 77 s, 53 s vs 108 s); Python compiles what the demo
# imports on first use instead.
# The venv starts without pip when the outer pip can install into it (pip >= 22.3's --python):
# ensurepip costs as much as sylla's own install; it runs in the background with the extra.
base_venv() {
  [ -x .venv/bin/python ] || "$PY" -m venv --without-pip .venv || return
  if .venv/bin/python -m pip --version >/dev/null 2>&1; then
    .venv/bin/python -m pip install -q --no-compile -e .
  elif "$PY" -m pip --python .venv/bin/python --version >/dev/null 2>&1; then
    "$PY" -m pip --python .venv/bin/python install -q --no-compile -e .
  else
    .venv/bin/python -m ensurepip && .venv/bin/python -m pip install -q --no-compile -e .
  fi
}
metrics_extra() {
  local reqs=()
  .venv/bin/python -m pip --version >/dev/null 2>&1 || .venv/bin/python -m ensurepip || return
  mapfile -t reqs < <(.venv/bin/python -c 'import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["metrics"]))')
  [ ${#reqs[@]} -gt 0 ] || return 1
  .venv/bin/python -m pip install -q --no-compile "${reqs[@]}" || return
  # First imports compile what steps 3-6 use and build matplotlib's font cache: set-up work,
  # done here so the steps run at their usual pace.
  .venv/bin/python -c "import sylla.metrics.result, sylla.metrics.plots, sylla.metrics.sweep.task, matplotlib.pyplot, scipy.stats" || return
  sha256sum pyproject.toml >.venv/.sylla-demo.sha256
}
metrics_pid=""
# Skip pip (several seconds even when nothing changed) while pyproject.toml is as installed.
if ! { sha256sum -c --status .venv/.sylla-demo.sha256 && .venv/bin/python -c "import sylla.metrics"; } 2>/dev/null; then
  quiet_step ".venv with sylla" "$logs/demo-venv.log" base_venv || exit 2
  mkdir -p "$logs"
  metrics_extra >"$logs/demo-metrics.log" 2>&1 &
  metrics_pid=$!
  echo "setup: sylla[metrics] (numpy, pandas, matplotlib, ...) installs in the background for steps 3-6"
fi
waited=0
wait_for_metrics() {
  [ -n "$metrics_pid" ] || return 0
  local start=$SECONDS
  printf '\nsetup: waiting for sylla[metrics] ... '
  if wait "$metrics_pid"; then
    waited=$((SECONDS - start))
    echo "ok (${waited} s more)"
  else
    echo "FAILED; the full output is in $logs/demo-metrics.log"
    tail -n 15 "$logs/demo-metrics.log" | sed 's/^/  | /' >&2
    exit 2
  fi
}
PATH=$PWD/.venv/bin:$PATH

out=out/demo
rm -rf "$out"
mkdir -p "$out"
status=0
started=$SECONDS
bold=""; plain=""
if [ -t 1 ]; then bold=$'\033[1m'; plain=$'\033[0m'; fi

step() {
  if [ "$pause" = 1 ] && [ "$1" != 1 ]; then read -r -p "(Enter for step $1) " _; fi
  printf '\n%s── step %s/6: %s ──%s\n' "$bold" "$1" "$2" "$plain"
}

# `expect CODE COMMAND...`: show the command, run it, and fail the demo if it exits otherwise.
expect() {
  local want=$1
  shift
  printf '%s$ %s%s\n' "$bold" "$*" "$plain"
  "$@"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "demo: expected exit $want from '$*', got $rc" >&2
    if [ "$status" -eq 0 ]; then status=$((rc == 0 ? 1 : rc)); fi
  fi
  return 0
}

syllabus=$out/transfer.json
step 1 "sylla new writes an ANT-B syllabus that is right from the start"
expect 0 sylla new --type ANT-B --task Pong --task Breakout --pretest --episodes 1000 --test-episodes 50 -o "$syllabus"
cat "$syllabus"
expect 0 sylla lint --profile pretest "$syllabus"

step 2 "sylla lint finds the mistakes planted in another syllabus"
expect 1 sylla lint examples/ant-b-mistakes.jsonc

wait_for_metrics
step 3 "sylla simulate produces the run a plausible learner would log"
expect 0 sylla simulate "$syllabus" -o "$out/run.csv" --seed 1
head -n 4 "$out/run.csv"
echo "..."

step 4 "sylla metrics maps the syllabus onto the run, computes and plots"
# -m keeps this to one screen: saturation, l2metrics' averages, maintenance and transfer, GEM
# (drop the -m options for every metric)
expect 0 sylla metrics --syllabus "$syllabus" "$out/run.csv" --out "$out/metrics" --plots \
  -m saturation -m avg_perf -m perf_maintenance -m transfer -m gem
[ -f "$out/metrics/metrics.txt" ] && cat "$out/metrics/metrics.txt"
echo
echo "A run that strays from its syllabus (2.test ran Breakout before Pong) stops at the first divergence:"
expect 1 sylla metrics --syllabus examples/metrics/pong_breakout.json examples/metrics/strays.csv

step 5 "sylla sweep: three seeds of two agents, with 95 % bootstrap intervals"
# Two simulated agents: "steady" (the defaults) and "forgetful" (forgets 40 % of a task while
# training another, little forward transfer); each folder holds its runs and their syllabus.
for agent in steady forgetful; do
  mkdir -p "$out/runs/$agent"
  cp "$syllabus" "$out/runs/$agent/"
done
# The six `sylla simulate` commands run through sylla.cli.main in one Python process: each
# process of its own would pay numpy's and pandas' import again, most of this step's time.
python - "$syllabus" "$out/runs" >"$out/simulate.log" 2>&1 <<'PY' || { echo "demo: sylla simulate failed; see $out/simulate.log" >&2; status=1; }
import sys
from sylla.cli import main

syllabus, root = sys.argv[1:]
for agent, options in (("steady", []), ("forgetful", ["--forgetting", "0.4", "--transfer", "0.02"])):
    for seed in ("1", "2", "3"):
        if main(["simulate", syllabus, "-o", f"{root}/{agent}/seed{seed}.csv", "--seed", seed, *options]):
            sys.exit(1)
PY
echo "sylla simulate wrote $(ls "$out"/runs/*/seed*.csv | wc -l) runs: $out/runs/steady/seed{1,2,3}.csv (defaults)" \
  "and $out/runs/forgetful/seed{1,2,3}.csv (--forgetting 0.4 --transfer 0.02)"
expect 0 sylla sweep "$out/runs" --group-by "{agent}/seed{seed}" --compare agent \
  -m transfer -m perf_maintenance -m avg_perf --out "$out/sweep" --no-progress

step 6 "sylla compare: IQM, optimality gap and P(improvement) with stratified intervals"
# Scores normalised to the "steady" agent (its mean is 1 on every task); 10,000 resamples keep
# the step to a second or two (the default is 50,000)
expect 0 sylla compare "$out/sweep" -m avg_eval_perf --normalize steady --reps 10000 --seed 1 \
  -o "$out/compare"

echo
echo "demo: 6 steps in $((SECONDS - started - waited)) s; outputs in $out/ (plots: $out/metrics/plots/, $out/compare/plots/)"
exit $status
