"""``from module import *`` works for every sylla module that declares ``__all__`` (issue 39).

``__all__`` must list names as strings: ``metrics/plugins/l2m.py`` listed the classes
themselves, typed ``list[Any]`` so that mypy let it pass, and ``import *`` raised a TypeError.
Every module whose source assigns ``__all__`` is imported and star-imported here, so the whole
family is checked, not the one module."""

from __future__ import annotations

import ast
import importlib

import pytest
from test_import_graph import modules

DECLARING = sorted(name for name, path in modules().items()
                   if any(isinstance(node, ast.Assign | ast.AnnAssign)
                          and any(isinstance(t, ast.Name) and t.id == "__all__"
                                  for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))
                          for node in ast.parse(path.read_text(encoding="utf-8")).body))


def test_the_scan_finds_the_declaring_modules() -> None:
    assert "sylla.metrics.plugins.l2m" in DECLARING and "sylla.linter" in DECLARING


@pytest.mark.parametrize("name", DECLARING)
def test_star_import_gives_every_listed_name(name: str) -> None:
    module = importlib.import_module(name)
    listed = module.__all__
    assert all(isinstance(entry, str) for entry in listed), [e for e in listed if not isinstance(e, str)]
    namespace: dict[str, object] = {}
    exec(f"from {name} import *", namespace)
    assert set(listed) <= set(namespace)
