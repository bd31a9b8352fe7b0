"""Start-up cost: commands import the heavy libraries only on the paths that use them (issue 24).

Each case runs ``sylla`` in a fresh interpreter and lists the modules it ended with; pandas
alone costs more than the whole of ``sylla lint`` on a small file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
HEAVY = ("pandas", "scipy", "matplotlib")

PROBE = """
import json, sys
from sylla.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
sys.stdout = sys.__stdout__
print(json.dumps(sorted(sys.modules)))
"""


def modules(*args: str) -> set[str]:
    """Every module (dotted names) a fresh ``sylla *args`` ended with."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True,
                          cwd=ROOT)
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def loaded(*args: str) -> set[str]:
    """The top-level packages a fresh ``sylla *args`` ended with."""
    return {m.split(".")[0] for m in modules(*args)}


@pytest.mark.parametrize("args", [
    ("lint", str(ROOT / "examples" / "cl-pong.json")),
    ("metrics", "--help"),
    ("--help",),
])
def test_no_heavy_library_for_lint_or_help(args):
    assert not loaded(*args) & set(HEAVY)


def test_help_and_the_parse_load_no_command_body():
    """A command's options (``sylla/commands/<name>_options.py``) are all that ``sylla --help``
    and the parse of a command load; what a command does (``sylla/commands/<name>.py``, its
    imports at the top) loads once its arguments have parsed, and only that command's."""
    from sylla.cli import COMMANDS

    bodies = {f"sylla.commands.{name}" for name in COMMANDS}
    assert not modules("--help") & bodies
    assert not modules("metrics", "--help") & bodies
    assert modules("rules") & bodies == {"sylla.commands.rules"}


def test_lint_of_a_syllabus_loads_no_lark():
    """Syllabi parse with sylla's own LALR tables; lark is for trial files and the list DSL,
    and telling a syllabus from a trial file must not load it (issue 24)."""
    assert "lark" not in loaded("lint", str(ROOT / "examples" / "cl-pong.json"))


@pytest.mark.parametrize("args", [
    ("metrics", "--log", str(FIX / "metrics" / "iscil" / "relearn"), "--format", "json"),
    ("metrics", "--log", str(FIX / "metrics" / "iscil" / "mixed"), "-P", "iscil_detail=true"),
])
def test_continual_imitation_metrics_need_neither_pandas_nor_scipy(args):
    assert not loaded(*args) & set(HEAVY + ("pyarrow",))


def test_a_small_l2logger_log_needs_neither_pandas_nor_pyarrow(tmp_path):
    """A 10-episode log is parsed with the standard library and measured on numpy block
    tables (`Columns`): the two imports were most of its run (issue 24)."""
    from sylla.metrics.synth import alternating_plan, write_l2logger

    log = write_l2logger(tmp_path / "ll10", alternating_plan(["a_v0", "b_v0", "c_v0"], 1, 1),
                         seed=1)
    assert not loaded("metrics", "--log", str(log), "--format", "json") & set(
        HEAVY + ("pyarrow",))


def test_the_probe_sees_pandas_where_it_is_used():
    """The check above can fail: a plain CSV log is read with pandas."""
    assert "pandas" in loaded("metrics", "--log", str(FIX / "metrics" / "rewards.csv"),
                              "--syllabus", str(ROOT / "examples" / "metrics" /
                                                "pong_breakout.json"), "--format", "json")


#: what a log without a syllabus never needs: the syllabus parser and model, the spill file's
#: tempfile (and its random, hashlib), configparser (entry points are read by hand)
NOT_WITHOUT_SYLLABUS = ("sylla.grammar.syllabus.parse", "sylla.grammar.syllabus.model", "lark", "tempfile",
                        "configparser")


def test_metrics_without_a_syllabus_load_no_syllabus_code(tmp_path):
    """A 10-episode l2logger log and a continual-imitation log, no --syllabus: the grammar and
    the spill machinery stay unloaded (issue 24: start-up is most of such a run)."""
    from sylla.metrics.synth import alternating_plan, write_l2logger

    log = write_l2logger(tmp_path / "ll10", alternating_plan(["a_v0", "b_v0", "c_v0"], 1, 1),
                         seed=1)
    for log_dir in (log, FIX / "metrics" / "iscil" / "relearn"):
        assert not modules("metrics", "--log", str(log_dir), "--format", "json") & set(
            NOT_WITHOUT_SYLLABUS), log_dir


def test_the_probe_sees_the_syllabus_code_when_a_syllabus_is_given():
    """The check above can fail: with --syllabus, the parser and the model load."""
    assert {"sylla.grammar.syllabus.parse", "sylla.grammar.syllabus.model"} <= modules(
        "metrics", "--log", str(FIX / "metrics" / "rewards.csv"), "--syllabus",
        str(ROOT / "examples" / "metrics" / "pong_breakout.json"), "--format", "json")


BIRDS_MODEL = "sylla.grammar.birds.model"
TRIAL_PARSER = "sylla.grammar.trials.parse"


def test_lint_of_a_syllabus_loads_neither_birds_model_nor_trial_parser():
    """A syllabus lint imports only the syllabus rules: telling it from a Science Birds config
    or a wave-3 trial file must not load their models, parsers or rule modules (issue 24)."""
    mods = modules("lint", str(ROOT / "examples" / "cl-pong.json"))
    assert "sylla.linter.engine" in mods
    assert not {BIRDS_MODEL, TRIAL_PARSER, "sylla.linter.rules.birds_rules",
                "sylla.linter.rules.trials_rules"} & mods


def test_the_probe_sees_the_birds_model_and_trial_parser_where_they_are_used():
    """The check above can fail: a Science Birds config loads its model, a trial file its parser."""
    assert BIRDS_MODEL in modules("lint", str(FIX / "birds" / "worked-example.xml"))
    trial = next((FIX / "trials" / "json").glob("*.json"))
    assert TRIAL_PARSER in modules("lint", str(trial))


#: what `sylla lint` on one small syllabus never needs (issue 24 item 2): argparse's shutil
#: (and zlib, bz2, lzma), the help's textwrap, the suggestions' difflib, the writer's tempfile
#: (and random), the fix loop, the formatter, the incremental parser, the schema validator
#: (its cache of valid instructions answers), lark (the cached LALR tables answer), entry points,
#: dataclasses and the inspect it imports (with ast, dis, tokenize): the model and the linter's
#: classes are records (kit/record.py), which cost a third of the process as dataclasses;
#: threading (the engine's per-thread hook is ``_thread._local``); typing (annotations are
#: strings, and what the lint path needs of it at run time is in kit/no_typing.py)
NOT_FOR_A_SMALL_LINT = ("shutil", "textwrap", "difflib", "tempfile", "random", "sylla.linter.fixes",
                        "sylla.grammar.syllabus.fmt", "sylla.grammar.syllabus.incremental", "jsonschema", "lark",
                        "importlib.metadata", "configparser", "sylla.linter.reporters.sarif",
                        "dataclasses", "inspect", "ast", "dis", "tokenize", "copy", "weakref", "threading",
                        "typing", "collections.abc",
                        # the task registry and gymnasium load only with --registry (issue 37)
                        "sylla.runner", "sylla.linter.task_registry", "gymnasium", "minigrid")
#: sylla's own modules a small lint loads (91 when this was set; 38 of them are rule modules;
#: 93 since the language descriptors, linter/language.py and linter/syllabus.py, issue 28;
#: 94 with kit/record.py; 97 with kit/no_typing.py, kit/code_cache.py and
#: kit/sorted_lines.py, 0.3M instructions each, which took typing (12M), compiling the
#: records' __init__ (11M) and a set of the known-valid digests (16M) off the path): a new one on
#: this path is a start-up cost, so raising the budget is a decision, not an accident; 98 with
#: linter/rules/absurd_count.py, the H506 rule (issue 38: a count no run can reach is warned about);
#: 100 with the packages kit/ and grammar/syllabus/ (issue 39: the runtime kit and the syllabus
#: language in rooms of their own; two docstring-only __init__ modules); 101 with linter/codes.py
#: (issue 39: the rule codes as data, so the config no longer imports the rule registry); 102
#: with kit/config_file.py (issue 37: finding the config moved below the linter, so that the
#: task registry, which the linter asks, reads the same config without importing the linter)
SYLLA_MODULES_FOR_A_SMALL_LINT = 102
#: every module a small lint loads, the interpreter's own and site's (an editable install's
#: finder) included (182 when this was set, with 94 of sylla's; 179 without typing and its
#: four modules, with 97 of sylla's; 180 with 98 of sylla's; 182 with 100; 183 with 101; 184
#: with 102): a standard library module on this path costs start-up too
MODULES_FOR_A_SMALL_LINT = 184


def test_a_small_lint_loads_only_what_it_needs():
    """Start-up of `sylla lint` on one small file (issue 24 item 2): no module from the list
    above, and no more of sylla's own modules than the budget."""
    mods = modules("lint", str(ROOT / "examples" / "cl-pong.json"))
    assert "sylla.linter.engine" in mods
    assert not mods & set(NOT_FOR_A_SMALL_LINT)
    own = sorted(m for m in mods if m == "sylla" or m.startswith("sylla."))
    assert len(own) <= SYLLA_MODULES_FOR_A_SMALL_LINT, own
    assert len(mods) <= MODULES_FOR_A_SMALL_LINT, sorted(mods - set(own))


def test_the_probe_sees_the_fix_path_modules_where_they_are_used():
    """The check above can fail: --diff loads the fix loop and difflib."""
    mods = modules("lint", "--diff", str(ROOT / "examples" / "with-findings.jsonc"))
    assert {"sylla.linter.fixes", "difflib"} <= mods


def test_the_probe_sees_inspect_where_it_is_used():
    """The check above can fail for inspect too: a rule's page reads its docstring with it."""
    assert "inspect" in modules("rule", "P301")


FREEZE_PROBE = """
import gc, io, sys, contextlib
from sylla.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    if sys.argv[1] == "console":
        sys.argv = ["sylla", "lint", sys.argv[2]]
        main()
    else:
        main(["lint", sys.argv[2]])
print(gc.get_freeze_count())
"""


@pytest.mark.parametrize("how", ["console", "in-process"])
def test_only_the_console_script_freezes_its_objects_before_exit(how):
    """The console script ends its process when main returns: it freezes what it made, so the
    collection at exit does not walk it (issue 24); a caller that passes argv keeps collecting."""
    proc = subprocess.run([sys.executable, "-c", FREEZE_PROBE, how, str(ROOT / "examples" / "cl-pong.json")],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    frozen = int(proc.stdout.strip().splitlines()[-1])
    assert (frozen > 0) == (how == "console"), frozen


BLAS_PROBE = """
import contextlib, ctypes, glob, io, os, sys
from sylla.cli import main
args = ["metrics", "--log", sys.argv[2], "--no-progress"]
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    if sys.argv[1] == "console":
        sys.argv = ["sylla", *args]
        main()
    else:
        main(args)
import numpy
found = glob.glob(os.path.join(os.path.dirname(numpy.__file__) + ".libs", "libscipy_openblas*.so*"))
if not found:
    print("no-openblas")
else:
    lib = ctypes.CDLL(found[0])
    count = getattr(lib, "scipy_openblas_get_num_threads64_", None) or lib.openblas_get_num_threads
    print(count())
"""


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="with one core OpenBLAS runs one thread anyway")
@pytest.mark.parametrize("how", ["console", "in-process"])
def test_only_the_console_script_runs_one_blas_thread(how):
    """The console script asks OpenBLAS for one thread before numpy loads it (sylla's own
    threads use the cores; OpenBLAS's spun beside them); a caller that passes argv keeps the
    BLAS threads it had. Read from the OpenBLAS numpy loaded, after a real computation."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    proc = subprocess.run([sys.executable, "-c", BLAS_PROBE, how,
                           str(FIX / "metrics" / "l2logger_v11")],
                          capture_output=True, text=True, cwd=ROOT, check=True, env=env)
    threads = proc.stdout.strip().splitlines()[-1]
    if threads == "no-openblas":
        pytest.skip("this numpy does not bundle OpenBLAS (the probe reads its thread count)")
    assert (int(threads) == 1) == (how == "console"), threads


def test_a_log_file_not_named_as_a_syllabus_loads_no_syllabus_detector():
    """``sylla metrics`` checks that a log given as a file is not a syllabus; a file whose
    name a syllabus cannot have (a continual-imitation run's ``training_log.log``, a CSV) is
    answered by its name, without the detector and the grammar core behind it (issue 40: 4-6
    ms of a 0.18 s run). A ``.json`` file still loads it, and is told to be a syllabus."""
    log = FIX / "metrics" / "iscil" / "relearn" / "training_log.log"
    for given in (log, FIX / "metrics" / "rewards.csv"):
        assert "sylla.grammar.syllabus.detect" not in modules("metrics", "--log", str(given))
    assert "sylla.grammar.syllabus.detect" in modules(
        "metrics", "--log", str(FIX / "metrics" / "two_tasks.json"))
