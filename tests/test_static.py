"""The package as static tools read it: ruff and mypy, configured in pyproject.toml, run here
so that the one test command keeps them in check (issue 28). A finding fails the test with
the tool's own output: file:line:col and rule.

ruff and mypy are at 0 on the package (ruff on the tests and benches too): mypy went from 174
errors in 42 files when the check was switched on (most of them pandas frames typed as
``DataFrame | Columns``) to 119 in 38, then to 0 with issue 28's typing work. Every ``# noqa``
and ``# type: ignore`` says why, after its codes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

#: a suppression comment (noqa or type-ignore) names its codes, then says why after a dash
#: or a second hash, as in CONTRIBUTING.md
_SUPPRESSION = re.compile(r"#\s*(noqa|type:\s*ignore)\b")
_WITH_REASON = re.compile(
    r"#\s*noqa(:\s*[A-Z0-9]+(,\s*[A-Z0-9]+)*)?\s+([-\u2013\u2014]|#)\s*\S"
    r"|#\s*type:\s*ignore(\[[a-z0-9, -]+\])?\s+([-\u2013\u2014]|#)\s*\S"
)


def _tool(name: str) -> str:
    found = str(BIN / name) if (BIN / name).exists() else shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def test_ruff_reports_nothing() -> None:
    proc = subprocess.run([_tool("ruff"), "check", "--no-cache", "."], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_reports_nothing() -> None:
    # what to check comes from [tool.mypy] in pyproject.toml
    proc = subprocess.run([_tool("mypy")], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0 and "Success" in proc.stdout, proc.stdout + proc.stderr


def test_every_suppression_says_why() -> None:
    bare = []
    for folder in ("kit", "grammar", "linter", "lsp", "metrics", "sylla"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if path.is_symlink() or any(p.is_symlink() for p in path.relative_to(REPO).parents if p != Path(".")):
                continue  # sylla/grammar etc. are links to the folders read above
            with path.open("rb") as f:
                for token in tokenize.tokenize(f.readline):
                    if token.type == tokenize.COMMENT and _SUPPRESSION.search(token.string) and not _WITH_REASON.search(token.string):
                        bare.append(f"{path.relative_to(REPO)}:{token.start[0]}: {token.line.strip()}")
    assert not bare, "a # noqa or # type: ignore without its reason:\n" + "\n".join(bare)
