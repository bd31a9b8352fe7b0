"""A record's generated ``__init__`` is compiled once and kept across runs (``code_cache``):
a later process builds its records without compiling, a damaged file is ignored, and
``SYLLA_NO_CACHE`` keeps nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: parses a syllabus, then says how many sources this process compiled and that the records work
CODE = (
    "import builtins, json, sys\n"
    "compiled = []\n"
    "real = builtins.compile\n"
    "builtins.compile = lambda source, *a, **k: (compiled.append(source), real(source, *a, **k))[1]\n"
    "import sylla\n"
    "r = sylla.parse('{\"instructions\": [{\"$phase\": \"1.train\"}]}')\n"
    "assert r.model.phases[0].label == '1.train', r\n"
    # importlib compiles a module without bytecode from its bytes: only str sources are ours
    "print(json.dumps(sum(isinstance(s, str) and s.startswith('def __init__(') for s in compiled)))\n"
)


def _compiles(cache: Path, **env: str) -> int:
    proc = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=60,
                          env={"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin", **env})
    assert proc.returncode == 0, proc.stderr
    count: int = json.loads(proc.stdout)
    return count


def test_a_later_run_compiles_no_record_init(tmp_path: Path) -> None:
    first = _compiles(tmp_path)
    assert first > 3  # Span, Syllabus, ParseResult, ... each compiled once
    [stored] = (tmp_path / "sylla").glob("code-*.sealed")
    assert _compiles(tmp_path) == 0
    stored.write_bytes(b"\xffnot marshal")  # damaged: compiled again, and written again
    assert _compiles(tmp_path) == first
    assert _compiles(tmp_path) == 0


def test_no_cache_setting_keeps_nothing(tmp_path: Path) -> None:
    first = _compiles(tmp_path, SYLLA_NO_CACHE="1")
    assert _compiles(tmp_path, SYLLA_NO_CACHE="1") == first > 0
    assert not (tmp_path / "sylla").exists()
