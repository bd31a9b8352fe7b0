"""Run l2metrics 3.1.0's command line on one log after another in one process (in ``.venv-l2m``).

The differential suite compares sylla's ``--format l2metrics`` files with the files l2metrics
writes for a single run (``python -m l2metrics -l LOG``: ``<name>_metrics.json`` and
``<name>_regime.tsv``, which its recursive mode does not write per run). A process per log
would spend two seconds importing l2metrics each time, so this script imports it once and calls
its command line, ``l2metrics.__main__.run``, for each argument list, as ``python -m l2metrics``
does: the same parser, data-range loading, report and ``save_metrics``; like ``__main__`` it
logs a ``KeyError`` or ``ValueError`` and goes on. A log whose files are not written is an
l2metrics failure, named in the output.

Usage: ``python l2m_files.py RESULTS < jobs.json``, where the input is a list of argument lists
(each as l2metrics' command line takes it, without the program name); writes one
``{"ok": bool, "error": text}`` per job, in order, to the file ``RESULTS`` (not to standard
output, which l2metrics prints its table on, and LAPACK its complaints about a degenerate fit).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import traceback

from l2metrics import __main__ as l2m_main


def main() -> int:
    jobs = json.load(sys.stdin)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    results = []
    target = sys.argv[1]
    for argv in jobs:
        sys.argv = ["l2metrics", *argv]
        try:
            with contextlib.redirect_stdout(sys.stderr):
                l2m_main.run()
        except (KeyError, ValueError) as exc:  # what ``python -m l2metrics`` catches and logs
            results.append({"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]})
            continue
        except Exception as exc:  # noqa: BLE001 - the real CLI would stop with a traceback
            tail = traceback.format_exc().strip().splitlines()[-1]
            results.append({"ok": False, "error": f"{type(exc).__name__}: {tail}"[:300]})
            continue
        results.append({"ok": True, "error": None})
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(results, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
