"""Reporters: turn findings into text, JSON, SARIF 2.1.0 or GitHub workflow annotations.

Every reporter receives ``FileReport``s (the display path, the lint result) and writes the
output to a stream as it makes it (``writer``), or returns it as one string (``get``); lines
and columns are 1-based, columns in characters. A report is written finding by finding, so
its size never sits in memory whole (a minified file's thousands of findings, issue 38). Both
import only the reporter asked for: a lint prints one format (issue 24).
"""

from __future__ import annotations

import importlib

from sylla.kit.no_typing import TYPE_CHECKING

from .file_report import FileReport

if TYPE_CHECKING:
    from typing import Callable, TextIO

__all__ = ["FileReport", "get", "writer"]

_MODULES = {"text": ".text", "json": ".json_report", "sarif": ".sarif", "github": ".github"}


def get(name: str) -> Callable[[list[FileReport]], str]:
    render: Callable[[list[FileReport]], str] = importlib.import_module(_MODULES[name], __name__).render
    return render


def writer(name: str) -> Callable[[list[FileReport], "TextIO"], None]:
    write: Callable[[list[FileReport], TextIO], None] = importlib.import_module(_MODULES[name], __name__).write
    return write
