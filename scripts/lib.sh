# Sourced by scripts/setup.sh and scripts/demo.sh: run a set-up step quietly.
#
# `quiet_step LABEL LOG COMMAND...` prints one line for the step ("setup: LABEL ... ok (3 s)"),
# sends everything the command writes (apt's progress, npm's and pip's chatter) to LOG, and on
# failure names LOG and shows its last lines, so the terminal stays readable and nothing is lost.
quiet_step() {
  local label=$1 log=$2
  shift 2
  mkdir -p "$(dirname "$log")"
  printf 'setup: %s ... ' "$label"
  local start=$SECONDS rc=0
  "$@" >"$log" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "ok ($((SECONDS - start)) s)"
    return 0
  fi
  echo "FAILED (exit $rc); the full output is in $log"
  tail -n 15 "$log" | sed 's/^/  | /' >&2
  return "$rc"
}
