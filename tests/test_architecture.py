"""ARCHITECTURE.md's instructions are executable: a rule added by following the page is found.

The page once told a newcomer to register a rule in ``linter/rules/__init__.py`` while rules
were listed in ``linter/rules/<language>_rules.py``: following it registered nothing, and no
test noticed (issue 39). This test reads the "a lint rule" row of "Where a new piece goes",
writes a rule where its "write" cell says, registers it as its "register" cell says, in a copy
of the package, and asks the real ``sylla`` for the rule's page and for its finding.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
ROOMS = ("sylla", "kit", "grammar", "linter", "lsp", "metrics", "docs")

RULE = '''"""X999 every-block."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ..rule import Rule, rule_doc


class EveryBlock(Rule):
    __doc__ = rule_doc(
        "Reports every block (a rule written by following ARCHITECTURE.md).",
        "Each block is reported.",
        '{"$repeat": {"$episode": "Pong"}, "count": 1}',
        "[]",
        "Remove the block.",
    )
    code, name, severity = "X999", "every-block", Severity.WARNING

    def check(self, ctx):
        for block in ctx.model.blocks:
            yield ctx.finding(self, "a block, found by the rule the page taught", block.span)
'''


def rule_row() -> tuple[str, str]:
    """The "write" and "register" cells of the "a lint rule" row."""
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| a lint rule |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    return cells[1], cells[2]


def follow(root: Path) -> None:
    """Do what the row says, in the package copy at ``root``."""
    write, register = rule_row()
    module = re.search(r"`(linter/rules/<name>\.py)`", write)
    assert module, f"the write cell names no rule module: {write}"
    (root / module.group(1).replace("<name>", "every_block")).write_text(RULE, encoding="utf-8")
    targets = re.findall(r"`(linter/rules/[^`]+\.py)`", register)
    assert targets, f"the register cell names no file: {register}"
    for target in targets:
        path = root / target.replace("<language>", "syllabus")
        text = path.read_text(encoding="utf-8")
        text = text.replace("from __future__ import annotations\n",
                            "from __future__ import annotations\n\nfrom .every_block import EveryBlock\n", 1)
        if "`RULES`" in register:
            text, n = re.subn(r"(RULES: tuple\[type\[Rule\], \.\.\.\] = \(\n)", r"\1    EveryBlock,\n", text)
            assert n == 1, f"{target} has no RULES tuple to add the rule to"
        path.write_text(text, encoding="utf-8")


def test_a_rule_added_by_following_the_page_is_found(tmp_path: Path) -> None:
    for room in ROOMS:
        shutil.copytree(REPO / room, tmp_path / room, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    follow(tmp_path)
    syllabus = tmp_path / "s.json"
    syllabus.write_text('{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5}]}\n')
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    page = subprocess.run([sys.executable, "-m", "sylla", "rule", "X999"], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)
    assert page.returncode == 0 and "every-block" in page.stdout, page.stderr
    lint = subprocess.run([sys.executable, "-m", "sylla", "lint", str(syllabus)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, env=env)
    assert "X999 [every-block]" in lint.stdout, lint.stdout + lint.stderr


def test_the_copy_is_the_package_under_test(tmp_path: Path) -> None:
    # without the rule, the copy knows no X999: the finding above comes from following the page
    for room in ROOMS:
        shutil.copytree(REPO / room, tmp_path / room, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    page = subprocess.run([sys.executable, "-c", "import sylla, sys; print(sylla.__file__)"], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=env)
    assert page.stdout.strip().startswith(str(tmp_path)), page.stdout + page.stderr
