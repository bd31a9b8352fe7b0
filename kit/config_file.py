"""Where sylla's configuration is, and the line of a key in it.

The config is ``sylla.toml``, or ``[tool.sylla]`` in ``pyproject.toml``, found by walking up from a
file or folder. The linter reads its keys (``sylla.linter.config``); the task registry reads its
``tasks`` table (``sylla.runner.tasks``), which sits below the linter: both find the file here.
"""

from __future__ import annotations

import re
from pathlib import Path


def find_config_file(start: str | Path | None) -> tuple[Path, str] | None:
    """The nearest sylla.toml, or pyproject.toml with [tool.sylla], walking up from ``start``
    (a file or folder); returns the file and the table path (``""`` or ``"tool.sylla"``)."""
    here = Path(start) if start is not None else Path.cwd()
    try:
        here = here.resolve()
    except OSError:
        return None
    if here.is_file() or not here.exists():
        here = here.parent
    for folder in (here, *here.parents):
        candidate = folder / "sylla.toml"
        if candidate.is_file():
            return candidate, ""
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if re.search(r"^\s*\[\s*tool\s*\.\s*sylla\s*[\].]", text, re.M):
                return candidate, "tool.sylla"
    return None


def key_line(text: str, table: str, key: str) -> int:
    """The 1-based line where ``key`` is set in ``[table]`` (or as ``[table.key]``), else 1.

    tomllib keeps no positions, so this scans the text: good enough to point a person at it.
    """
    header = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
    current = ""
    names = {table + "." + key if table else key}
    assign = re.compile(r'^\s*(?:"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+))\s*[=.]')
    for number, line in enumerate(text.splitlines(), 1):
        m = header.match(line)
        if m:
            current = re.sub(r"\s*\.\s*", ".", m.group(1).replace('"', ""))
            if current in names:
                return number
            continue
        if current == table:
            a = assign.match(line)
            if a and (a.group(1) or a.group(2) or a.group(3)) == key:
                return number
    return 1
