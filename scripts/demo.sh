#!/usr/bin/env bash
# Set up only what the demo needs (.venv with sylla[metrics,run]: no editors, npm or l2metrics
# baseline, which are scripts/test.sh's), then tell sylla's story in six steps, one screen
# each, on the bundled examples/ and what the steps write under out/demo/:
#   1. sylla new writes an ANT-B syllabus over two MiniGrid rooms (and sylla lint finds nothing
#      in it);
#   2. sylla lint finds the mistakes planted in examples/ant-b-mistakes.jsonc;
#   3. sylla lint --registry gymnasium finds its tasks among those sylla run can make, and sylla
#      run executes it with tabular Q-learning on real MiniGrid environments, writing an
#      l2logger run;
#   4. sylla metrics --syllabus computes the metrics and plots of that run, then stops at the
#      first divergence of a run that strays from its syllabus (examples/metrics/strays.csv);
#   5. sylla run runs two agents (random, tabular-q) with two seeds each, and sylla sweep gives
#      95 % intervals over them;
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
# (light: lark, jsonschema, pygls, ...) for steps 1 and 2, while the metrics and run extras
# (numpy, pandas, pyarrow, matplotlib, SciPy: most of the set-up time; Gymnasium, MiniGrid and
# l2logger) install in the background for steps 3 to 6. The background install adds only the
# extras' requirements (read from pyproject.toml), never sylla itself, so the `sylla` being run
# is not rewritten under it.
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
extras = tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]
print("\n".join(extras["metrics"] + extras["run"]))')
  [ ${#reqs[@]} -gt 0 ] || return 1
  .venv/bin/python -m pip install -q --no-compile "${reqs[@]}" || return
  # First imports compile what steps 3-6 use and build matplotlib's font cache: set-up work,
  # done here so the steps run at their usual pace.
  .venv/bin/python -c "import sylla.metrics.result, sylla.metrics.plots, sylla.metrics.sweep.task, matplotlib.pyplot, scipy.stats, sylla.runner.run, minigrid" || return
  sha256sum pyproject.toml >.venv/.sylla-demo.sha256
}
metrics_pid=""
# Skip pip (several seconds even when nothing changed) while pyproject.toml is as installed and
# both extras import (a .venv that an older demo set up has no Gymnasium).
if ! { sha256sum -c --status .venv/.sylla-demo.sha256 && .venv/bin/python -c "import sylla.metrics, gymnasium, minigrid, l2logger"; } 2>/dev/null; then
  quiet_step ".venv with sylla" "$logs/demo-venv.log" base_venv || exit 2
  mkdir -p "$logs"
  metrics_extra >"$logs/demo-metrics.log" 2>&1 &
  metrics_pid=$!
  echo "setup: sylla[metrics,run] (numpy, pandas, matplotlib, Gymnasium, MiniGrid, ...) installs in the background for steps 3-6"
fi
waited=0
wait_for_metrics() {
  [ -n "$metrics_pid" ] || return 0
  local start=$SECONDS
  printf '\nsetup: waiting for sylla[metrics,run] ... '
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

syllabus=$out/rooms.json
step 1 "sylla new writes an ANT-B syllabus over two MiniGrid rooms, right from the start"
expect 0 sylla new --type ANT-B --task Minigrid5x5 --task Minigrid6x6 --module minigridkit --pretest \
  --episodes 150 --test-episodes 20 -o "$syllabus"
cat "$syllabus"
expect 0 sylla lint --profile pretest "$syllabus"

step 2 "sylla lint finds the mistakes planted in another syllabus"
expect 1 sylla lint examples/ant-b-mistakes.jsonc

wait_for_metrics
step 3 "sylla run: tabular Q-learning on real MiniGrid rooms, logged with l2logger"
# --registry gymnasium: every task and parameter is one that sylla run can make (it needs the run
# extra, so it waits until here)
expect 0 sylla lint --profile pretest --registry gymnasium "$syllabus"
expect 0 sylla run "$syllabus" --agent tabular-q --seed 1 -o "$out/run" --no-progress
# l2logger writes one folder per block, one row per episode; block 2 is 1.train on Minigrid5x5
train=$out/run/worker-default/2-train/data-log.tsv
echo "$out/run holds run.json (syllabus digest, seed, agent, library versions) and l2logger's log;"
echo "the first and last episodes of 1.train (fewer steps, more reward: it learns):"
{ head -n 4 "$train"; echo "..."; tail -n 3 "$train"; } | cut -f 1,2,4,6,10,11

step 4 "sylla metrics maps the syllabus onto the run, computes and plots"
# -m keeps this to one screen: saturation, l2metrics' averages, maintenance and transfer, GEM
# (drop the -m options for every metric)
expect 0 sylla metrics --syllabus "$syllabus" "$out/run" --out "$out/metrics" --plots \
  -m saturation -m avg_perf -m perf_maintenance -m transfer -m gem
[ -f "$out/metrics/metrics.txt" ] && cat "$out/metrics/metrics.txt"
echo
echo "A run that strays from its syllabus (2.test ran Breakout before Pong) stops at the first divergence:"
expect 1 sylla metrics --syllabus examples/metrics/pong_breakout.json examples/metrics/strays.csv

step 5 "sylla run two agents with two seeds each, and sylla sweep gives 95 % bootstrap intervals"
# One ordinary run per agent and seed in runs/<agent>/seed-<n>/, on two worker processes; the
# agents are the sweep's groups and the seeds its replicates, with no extra flags
expect 0 sylla run "$syllabus" --agent random --agent tabular-q --seeds 0-1 -o "$out/runs" --jobs 2 --no-progress
expect 0 sylla sweep "$out/runs" -m transfer -m perf_maintenance -m avg_perf --out "$out/sweep" --no-progress

step 6 "sylla compare: IQM, optimality gap and P(improvement) with stratified intervals"
# Scores normalised to the random agent (its mean is 1 on every task); 10,000 resamples keep the
# step to a second or two (the default is 50,000)
expect 0 sylla compare "$out/sweep" -m avg_eval_perf --normalize random --reps 10000 --seed 1 \
  -o "$out/compare"

echo
echo "demo: 6 steps in $((SECONDS - started - waited)) s; outputs in $out/ (plots: $out/metrics/plots/, $out/compare/plots/)"
exit $status
