"""The language server knows languages in one place (issue 39): ``lsp/languages.py``'s table of
``Editor``s. Every other module of ``lsp/`` asks the document's ``Editor`` or its language's
descriptor (``LanguageSpec``: how a buffer is parsed and reparsed, which file endings the
language has) and never names a language; no module compares a value with a language's name."""

from __future__ import annotations

import ast
from pathlib import Path

from sylla.linter.rules import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
LSP = sorted((ROOT / "lsp").glob("**/*.py"))
#: every language the project has a folder or a descriptor for (listdsl is the trials' DSL)
NAMES = set(LANGUAGES) | {"listdsl"}
TABLE = ROOT / "lsp" / "languages.py"


def _named(path: Path) -> list[tuple[int, str]]:
    """Where a string constant that is a language's name appears."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in NAMES]


def _compared(path: Path) -> list[tuple[int, str]]:
    """Where a language's name is compared with something (``==``, ``!=``, ``in``, ``match``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for n in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(n, ast.Compare):
            parts = [n.left, *n.comparators]
        elif isinstance(n, ast.match_case):
            parts = [n.pattern]
        for part in parts:
            out.extend((c.lineno, c.value) for c in ast.walk(part) if isinstance(c, ast.Constant) and c.value in NAMES)
    return out


def test_the_guard_sees_every_module_of_lsp() -> None:
    assert {p.name for p in LSP} >= {"server.py", "documents.py", "diagnostics.py", "languages.py"}
    assert NAMES >= {"syllabus", "birds", "trials", "delivery", "listdsl"}


def test_no_module_of_lsp_branches_on_a_language_name() -> None:
    found = {str(p.relative_to(ROOT)): hits for p in LSP if (hits := _compared(p))}
    assert not found, f"branches on a language's name: {found}; ask the Editor (lsp/languages.py) or the descriptor"


def test_only_the_editor_table_names_languages() -> None:
    found = {str(p.relative_to(ROOT)): hits for p in LSP if p != TABLE and (hits := _named(p))}
    assert not found, f"names a language outside lsp/languages.py: {found}"


def test_the_guard_catches_a_branch(tmp_path: Path) -> None:
    """The checks above find what they look for (so their passing says something)."""
    sample = tmp_path / "sample.py"
    sample.write_text('def f(language):\n    return 1 if language == "birds" else 2\n', encoding="utf-8")
    assert _compared(sample) == [(2, "birds")] and _named(sample) == [(2, "birds")]
    sample.write_text('def f(language):\n    match language:\n        case "syllabus":\n            return 1\n', encoding="utf-8")
    assert _compared(sample) == [(3, "syllabus")]
