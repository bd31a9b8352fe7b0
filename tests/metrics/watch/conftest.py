"""Shared helpers: the batch command's answer for a log, to compare the live state with."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parents[2] / "fixtures" / "metrics"
WATCH = FIXTURES / "watch"
SYLLABUS = WATCH / "pong_breakout.json"


def batch(log: Path, *extra: str) -> tuple[dict | None, str | None]:
    """``sylla metrics LOG --format json EXTRA``: the document, or the error line it prints."""
    from sylla.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["metrics", str(log), "--format", "json", "--no-progress", *extra])
    if code == 0:
        return json.loads(out.getvalue()), None
    lines = [line for line in err.getvalue().splitlines() if line.startswith("sylla: ")]
    return None, lines[-1][len("sylla: "):] if lines else err.getvalue()


@pytest.fixture
def syllabus() -> Path:
    return SYLLABUS
