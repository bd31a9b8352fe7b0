"""Reporters: turn findings into text, JSON, SARIF 2.1.0 or GitHub workflow annotations.

Every reporter receives ``FileReport``s (the display path, the lint result) and returns the
output as one string; lines and columns are 1-based, columns in characters. ``get`` imports
only the reporter asked for: a lint prints one format (issue 24).
"""

from __future__ import annotations

import importlib

from sylla.grammar.no_typing import TYPE_CHECKING

from .file_report import FileReport

if TYPE_CHECKING:
    from typing import Callable

__all__ = ["FileReport", "get"]

_MODULES = {"text": ".text", "json": ".json_report", "sarif": ".sarif", "github": ".github"}


def get(name: str) -> Callable[[list[FileReport]], str]:
    render: Callable[[list[FileReport]], str] = importlib.import_module(_MODULES[name], __name__).render
    return render
