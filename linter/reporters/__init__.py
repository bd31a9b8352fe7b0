"""Reporters: turn findings into text, JSON, SARIF 2.1.0 or GitHub workflow annotations.

Every reporter receives ``FileReport``s (the display path, the lint result) and returns the
output as one string; lines and columns are 1-based, columns in characters.
"""

from __future__ import annotations

from typing import Callable

from . import github, json_report, sarif, text
from .file_report import FileReport

__all__ = ["FileReport", "get"]


def get(name: str) -> Callable[[list[FileReport]], str]:
    return {"text": text.render, "json": json_report.render, "sarif": sarif.render, "github": github.render}[name]
