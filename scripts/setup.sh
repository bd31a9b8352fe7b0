#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine (idempotent): a virtual environment with
# sylla and its test tools, then each step in scripts/setup.d/ (the l2metrics baseline venv,
# system packages, npm, code-server). Each step prints one line; its output goes to
# out/setup/<step>.log, which is named when the step fails. scripts/demo.sh needs none of the
# setup.d steps and installs only sylla[metrics]. `--venv-only` makes just .venv (the fast test
# tier needs no editor, oracle or browser).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
PY=${PYTHON:-python3}
logs=out/setup
# what .venv's install depends on: pip runs again only when one of these changed since it last
# succeeded (re-resolving .[test] takes 10-40 s even when nothing changed), as demo.sh's stamp does
stamp=.venv/.sylla-test.sha256
installed() {
  sha256sum -c --status "$stamp" 2>/dev/null && .venv/bin/python -c \
    "import sys, sylla, pytest, xdist; sys.exit(not sylla.__file__.startswith(sys.argv[1]))" "$PWD/" 2>/dev/null
}
venv() {
  if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
  fi
  # scripts/demo.sh may have made .venv without pip (it installs pip later, in the background)
  .venv/bin/python -m pip --version >/dev/null 2>&1 || .venv/bin/python -m ensurepip
  .venv/bin/python -m pip install -q -e ".[test]"
  sha256sum pyproject.toml >.venv/.sylla-demo.sha256  # [test] holds [metrics]: demo.sh skips pip
  sha256sum pyproject.toml scripts/setup.sh scripts/lib.sh >"$stamp"
}
if installed; then
  echo "setup: .venv with sylla[test] ... as installed (pyproject.toml and set-up unchanged)"
else
  quiet_step ".venv with sylla[test]" "$logs/venv.log" venv
fi
[ "${1:-}" = "--venv-only" ] && exit 0
for step in scripts/setup.d/*.sh; do
  [ -e "$step" ] || continue
  name=$(basename "$step" .sh)
  quiet_step "$name" "$logs/$name.log" bash "$step"
done
