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


def test_one_run_over_many_files_writes_the_cache_once_at_exit(tmp_path: Path) -> None:
    """A lint of hundreds of files used to rewrite (and re-read) the whole cache file after
    every file; now it is read once and written once, when the process ends."""
    docs = [GOOD.replace('"count": 5', f'"count": {k + 1}') for k in range(40)]
    code = (
        "import sys, json, sylla, pathlib; docs = json.loads(sys.stdin.read()); seen = []\n"
        "for d in docs:\n"
        "    assert not sylla.parse(d).diagnostics\n"
        "    seen.append(any(pathlib.Path(sys.argv[1]).glob('sylla/valid-*.txt')))\n"
        "print(json.dumps(seen))"
    )
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path)], input=json.dumps(docs),
                          capture_output=True, text=True, timeout=60,
                          env={"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [False] * len(docs)  # nothing written during the run
    (file,) = (tmp_path / "sylla").glob("valid-*.txt")
    assert len(file.read_text().split()) == len(docs) + 2  # 40 repeats, 1 phase, 1 top level
    for doc in docs[::13]:  # and a later run knows them all
        assert _parse(doc, tmp_path) == ([], False)
