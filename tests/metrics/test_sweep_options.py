"""The sweep's modules need each other one way, type-level imports included (issue 39 item 3).

`sylla.metrics.sweep.cache` named the run options' type through a ``TYPE_CHECKING`` import of the
per-run task, which imports the cache: a loop the import-graph test cannot see, as it leaves
type-only imports out. The options live in ``sweep/options.py``, below both."""

from __future__ import annotations

import ast

from test_import_graph import REPO, cycles

SWEEP = REPO / "metrics" / "sweep"


def _targets(path_name: str, tree: ast.AST) -> set[str]:
    """The sweep modules ``tree`` imports, ``TYPE_CHECKING`` blocks included."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
            found.update(n.split(".")[0] for n in names if (SWEEP / f"{n.split('.')[0]}.py").is_file())
    return found - {path_name}


def type_level_graph() -> dict[str, set[str]]:
    return {p.stem: _targets(p.stem, ast.parse(p.read_text(encoding="utf-8")))
            for p in SWEEP.glob("*.py")}


def test_no_loop_among_the_sweep_modules_even_at_type_level() -> None:
    assert not cycles(type_level_graph())


def test_the_check_sees_a_type_level_loop() -> None:
    """The check above can fail: the loop the cache and the task had."""
    assert cycles({"cache": {"task"}, "task": {"cache"}})
