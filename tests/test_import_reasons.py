"""A function-level import says why it is not at the top, and the reason is true.

An import inside a function hides a module's dependencies from its reader, so each one
carries its reason after ``# noqa: PLC0415 -``. Reasons rot: five in ``lsp/`` said
"lsprotocol loads only when used" in modules that import lsprotocol at the top (issue 39).
The claims a machine can check are checked here, in a fresh interpreter per module:

- "<libraries> loads only when used": importing the module loads none of them;
- no reason cites an import cycle: the import graph holds function-level imports too and
  ``tests/test_import_graph.py`` forbids cycles, so such a reason is false by construction.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_import_graph import REPO, modules

pytestmark = pytest.mark.slow

REASON = re.compile(r"#\s*noqa:[\w\s,]*PLC0415[\w\s,]*[-#]\s*(?P<reason>.+)$")


def function_imports() -> list[tuple[str, Path, int, str, list[str]]]:
    """(module, file, line, reason, the modules it imports) of every import inside a function
    of the package; the reason is read from any line of the statement."""
    found = []
    for name, path in sorted(modules().items()):
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    span = lines[node.lineno - 1:(node.end_lineno or node.lineno)]
                    match = next((m for m in map(REASON.search, span) if m), None)
                    found.append((name, path, node.lineno, match.group("reason") if match else "", targets(node, package)))
    return found


def targets(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    """The modules an import statement is there to load: ``import a.b`` loads ``a.b``; ``from
    a import b`` loads ``a.b`` when that is a module (``a`` is then only its parent, loaded
    with it), else ``a``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = package.split(".")
        anchor = anchor[: len(anchor) - node.level + 1]
        base = ".".join([*anchor, base] if base else anchor)
    submodules = [f"{base}.{alias.name}" for alias in node.names if _is_module(f"{base}.{alias.name}")]
    return submodules or [base]


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent that is no package
        return False


def test_every_function_level_import_gives_a_reason() -> None:
    missing = [f"{path}:{line}" for _, path, line, reason, _ in function_imports() if not reason.strip()]
    assert not missing, "function-level imports without '# noqa: PLC0415 - reason':\n" + "\n".join(missing)


def test_no_reason_cites_an_import_cycle() -> None:
    cited = [f"{path}:{line}: {reason}" for _, path, line, reason, _ in function_imports() if "cycle" in reason]
    assert not cited, "a function-level import still makes the cycle it cites:\n" + "\n".join(cited)


LOADS_ONLY = re.compile(r"lazy: start-up, (?P<libs>[\w., /]+?) loads? only when")


def lazy_claims() -> dict[str, dict[str, str]]:
    """module -> {module claimed not loaded: where}, for each import whose reason says it is
    lazy: importing the module must load neither what that import loads nor the libraries
    the reason names ("lazy: start-up, pandas loads only when used")."""
    out: dict[str, dict[str, str]] = {}
    for name, path, line, reason, loaded in function_imports():
        if not reason.startswith("lazy"):
            continue
        named = LOADS_ONLY.search(reason)
        libs = [lib.strip() for lib in re.split(r"[,/]", named.group("libs"))] if named else []
        for target in [*loaded, *(lib for lib in libs if lib)]:
            out.setdefault(name, {}).setdefault(target, f"{path.relative_to(REPO)}:{line}")
    return out


#: imports each module in a child forked from one interpreter that has imported only ``os``
#: and ``sys`` (a fresh interpreter per module took 4 minutes on a loaded machine) and prints which
#: of its claimed-lazy modules are loaded as a result
DRIVER = """
import os, sys
for line in sys.stdin.read().splitlines():
    module, *targets = line.split()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            __import__(module)
            found = [t for t in targets if t in sys.modules]
        except BaseException as exc:
            found = ["<import-failed:%s>" % type(exc).__name__]
        os.write(w, " ".join([module, *found]).encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as fh:
        print(fh.read())
    os.waitpid(pid, 0)
"""


def test_the_claims_are_read() -> None:
    found = lazy_claims()
    assert len(found) >= 20 and any("pandas" in targets for targets in found.values())


def test_an_import_said_to_be_lazy_is_not_loaded_by_importing_its_module() -> None:
    claims = lazy_claims()
    request = "".join(f"{m} {' '.join(sorted(t))}\n" for m, t in sorted(claims.items()))
    p = subprocess.run([sys.executable, "-c", DRIVER], input=request,
                       capture_output=True, text=True, timeout=600, cwd=REPO)
    assert p.returncode == 0, p.stderr
    false = []
    for line in p.stdout.splitlines():
        module, *found = line.split()
        false += [f"{claims[module].get(t, module)}: importing {module} already loads {t}" for t in found]
    assert not false, "'lazy' reasons that are not true:\n" + "\n".join(sorted(false))
