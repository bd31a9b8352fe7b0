"""docs/metrics.md's table of l2metrics options is the one the code generates.

The table once named flags l2metrics does not have (``-o`` for ``-x``, ``-M/-T/-A`` for
``-m/-t/-v``); now each parameter declares its l2metrics flag and the table is generated.
"""

from __future__ import annotations

import subprocess
import sys

from sylla.metrics.docs import DOCS_PATH, current, generate


def test_the_options_table_in_the_docs_is_fresh() -> None:
    assert current(DOCS_PATH.read_text(encoding="utf-8")) == generate(), \
        "run: python -m sylla.metrics.docs"


def test_every_flag_in_the_table_is_a_flag_of_l2metrics_3_1_0() -> None:
    # l2metrics 3.1.0's own parser (l2metrics/parser.py), as the flags' short/long pairs
    theirs = {"-l/--log-dir", "-R/--recursive", "-r/--variant-mode", "-s/--ste-store-mode",
              "-v/--ste-averaging-method", "-p/--perf-measure", "-a/--aggregation-method",
              "-m/--maintenance-method", "-t/--transfer-method", "-n/--normalization-method",
              "-g/--smoothing-method", "-G/--smooth-eval-data", "-w/--window-length",
              "-x/--clamp-outliers", "-d/--data-range-file", "-O/--output-dir", "-o/--output"}
    import re

    named = set(re.findall(r"`(-[a-zA-Z]/--[a-z-]+)", generate()))
    assert named and named <= theirs, named - theirs


def test_the_generator_runs_as_a_module_and_changes_nothing_when_fresh(tmp_path) -> None:
    before = DOCS_PATH.read_bytes()
    proc = subprocess.run([sys.executable, "-m", "sylla.metrics.docs"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert DOCS_PATH.read_bytes() == before
