"""The task registry (``sylla.runner.tasks``) sits below the linter, which asks it for the R7xx
rules: it imports only the kit and itself, and it is the only part of the runner that the lower
rooms (kit, grammar, linter) import. The rest of the runner is a top room beside the commands."""

from __future__ import annotations

import subprocess
import sys

from tests.test_import_graph import graph

TASKS = "sylla.runner.tasks"
LOWER = ("sylla.kit", "sylla.grammar", "sylla.linter")


def _within(module: str, room: str) -> bool:
    return module == room or module.startswith(room + ".")


def test_the_task_registry_imports_only_the_kit() -> None:
    edges = graph()
    bad = [f"{m} imports {t}" for m, targets in edges.items() if _within(m, TASKS)
           for t in targets if not (_within(t, TASKS) or _within(t, "sylla.kit") or t in ("sylla", "sylla.runner"))]
    assert not bad, "\n".join(bad)


def test_the_lower_rooms_import_no_other_part_of_the_runner() -> None:
    edges = graph()
    bad = [f"{m} imports {t}" for m, targets in edges.items() if any(_within(m, room) for room in LOWER)
           for t in targets if _within(t, "sylla.runner") and not _within(t, TASKS)]
    assert not bad, "\n".join(bad)


def test_the_registry_loads_no_gymnasium_and_no_runner_on_import() -> None:
    code = ("import sys\nimport sylla.linter.task_registry\n"
            "print(sorted(m for m in ('gymnasium', 'minigrid', 'numpy', 'sylla.runner.run', 'sylla.runner.plan') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_a_lint_with_the_gymnasium_registry_loads_it_and_one_without_does_not() -> None:
    """The probe can fail: the same lint with --registry gymnasium loads the registry and
    gymnasium (the check in tests/cli/test_imports.py that a plain lint does not is then real)."""
    from tests.cli.test_imports import modules

    from .support import FIX

    loaded = modules("lint", "--registry", "gymnasium", str(FIX / "unknown-names.json"))
    assert {"sylla.runner.tasks.registry", "sylla.linter.task_registry", "gymnasium", "minigrid"} <= loaded
