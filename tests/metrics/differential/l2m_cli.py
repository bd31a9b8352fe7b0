"""Run l2metrics 3.1.0's command line many times in one process (in ``.venv-l2m``).

A batch of the differential suite runs l2metrics' command line about forty times (storing STE
runs, the recursive run of every option set, the single-run files of every log). A process per
call spent two CPU seconds importing l2metrics (pandas, matplotlib, scipy) each time, most of
the suite's cost; this process imports it once and calls ``l2metrics.__main__.run``, which is
what ``python -m l2metrics`` runs: the same parser, data-range loading, report and files. Its
logging is configured as ``__main__`` configures it (INFO, through ``tqdm.write``), and each
call sees its own ``$L2DATA`` and working folder, which l2metrics reads on every call.

Jobs arrive one JSON object a line on standard input; each answer is one JSON line on the
original standard output. File descriptor 1 is then pointed at standard error, so what LAPACK
or a C extension prints cannot mix with the answers.

- ``{"cli": ARGV, "l2data": DIR, "cwd": DIR}``: ``python -m l2metrics ARGV`` as its process
  would run; answers ``{"returncode", "stdout", "stderr"}`` (an exception ``__main__`` catches
  is logged, exit 0; any other is its traceback, exit 1, as the interpreter gives).
- ``{"files": [ARGV, ...], "l2data": DIR, "cwd": DIR}``: the single-run mode once per argument
  list, going on after a failure; answers ``{"results": [{"ok", "error"}, ...]}``, one per list
  (a log whose files are not written is an l2metrics failure, named in the answer).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import traceback
from typing import Any

import matplotlib.pyplot as plt
from l2metrics import __main__ as l2m_main
from tqdm import tqdm


def configure_logging() -> None:
    """The handler ``python -m l2metrics`` installs (l2metrics/__main__.py, its ``__main__`` block)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(fmt="%(asctime)s | %(levelname)-7s | %(name)s | %(message)s",
                                           datefmt="%Y-%m-%d %H:%M:%S"))
    handler.setStream(tqdm)  # its write is tqdm.write, as in l2metrics
    handler.terminator = ""
    logging.basicConfig(level=logging.INFO, handlers=[handler])


def command_line(argv: list[str]) -> dict[str, Any]:
    """``python -m l2metrics ARGV``: what it prints and its exit status."""
    sys.argv = ["l2metrics", *argv]
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            l2m_main.run()
        except (KeyError, ValueError) as exc:  # what ``__main__`` catches and logs
            l2m_main.logger.exception(exc)
        except SystemExit as exc:  # argparse's refusal
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        except Exception:  # noqa: BLE001 - uncaught in the real process: traceback, exit 1
            traceback.print_exc()
            code = 1
    return {"returncode": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def single_runs(jobs: list[list[str]]) -> list[dict[str, Any]]:
    """The single-run mode once per argument list; why each that stopped did."""
    results = []
    for argv in jobs:
        sys.argv = ["l2metrics", *argv]
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                l2m_main.run()
        except (KeyError, ValueError) as exc:  # what ``python -m l2metrics`` catches and logs
            results.append({"ok": False, "error": f"{type(exc).__name__}: {exc}"[:300]})
            continue
        except Exception as exc:  # noqa: BLE001 - the real CLI would stop with a traceback
            tail = traceback.format_exc().strip().splitlines()[-1]
            results.append({"ok": False, "error": f"{type(exc).__name__}: {tail}"[:300]})
            continue
        finally:
            plt.close("all")
        results.append({"ok": True, "error": None})
    return results


def main() -> int:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    configure_logging()
    for line in sys.stdin:
        job = json.loads(line)
        os.environ["L2DATA"] = job["l2data"]
        os.chdir(job["cwd"])
        if "cli" in job:
            answer = command_line(job["cli"])
            plt.close("all")
        else:
            answer = {"results": single_runs(job["files"])}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
