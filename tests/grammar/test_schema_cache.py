"""The cache of instructions known to be valid: it saves the jsonschema import on later
runs and never hides an error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

GOOD = '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": 5}]}'
BAD = '{"instructions": [{"$phase": "1.train"}, {"$repeat": {"$episode": "Pong"}, "count": -5}]}'
CODE = (
    "import sys, json, sylla; r = sylla.parse(sys.stdin.read()); "
    "print(json.dumps([[d.message for d in r.diagnostics], 'jsonschema' in sys.modules]))"
)


def _parse(text: str, cache: Path, **env: str) -> tuple[list[str], bool]:
    proc = subprocess.run(
        [sys.executable, "-c", CODE],
        input=text,
        capture_output=True,
        text=True,
        env={"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin", **env},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    messages, imported = json.loads(proc.stdout)
    return messages, imported


def test_valid_parts_are_remembered_and_errors_are_not(tmp_path: Path) -> None:
    assert _parse(GOOD, tmp_path) == ([], True)
    assert _parse(GOOD, tmp_path) == ([], False)  # everything known valid: no jsonschema
    # the same phase instruction is known; the changed count is not, and is still reported
    assert _parse(BAD, tmp_path) == (["count must be a positive integer, got -5"], True)
    assert _parse(BAD, tmp_path) == (["count must be a positive integer, got -5"], True)


def test_no_cache_setting_turns_it_off(tmp_path: Path) -> None:
    assert _parse(GOOD, tmp_path, SYLLA_NO_CACHE="1") == ([], True)
    assert _parse(GOOD, tmp_path, SYLLA_NO_CACHE="1") == ([], True)
    assert not (tmp_path / "sylla").exists()


def test_a_schema_change_starts_a_new_cache_file(tmp_path: Path) -> None:
    _parse(GOOD, tmp_path)
    files = sorted(p.name for p in (tmp_path / "sylla").glob("valid-*.txt"))
    assert len(files) == 1  # named by the schema's digest
