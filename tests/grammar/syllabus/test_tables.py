"""The LALR tables come from syllabus.lark through Lark and are cached between runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sylla.kit import cache

CODE = (
    "import sys; from sylla.grammar.syllabus.tables import tables, _cache_file; t = tables(); "
    "print(_cache_file()); print('lark' in sys.modules); print(len(t.actions))"
)


def _run(cache: Path) -> list[str]:
    env = {"XDG_CACHE_HOME": str(cache), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_tables_are_built_by_lark_once_then_loaded_from_the_cache(tmp_path: Path) -> None:
    path, imported_lark, states = _run(tmp_path)
    assert Path(path).parent == tmp_path / "sylla"
    assert imported_lark == "True"  # first run: Lark builds the LALR table
    data = cache.read_marshalled(Path(path))
    assert data["start_state"] in {int(k) for k in data["actions"]}
    path2, imported_again, states2 = _run(tmp_path)
    assert (path2, states2) == (path, states)
    assert imported_again == "False"  # later runs never import Lark


def test_a_broken_cache_file_is_rebuilt(tmp_path: Path) -> None:
    path, _, states = _run(tmp_path)
    for broken in (b"\xffnot marshal", ["not", "a", "table"], Path(path).read_bytes()[:200]):
        if isinstance(broken, bytes):
            Path(path).write_bytes(broken)
        else:  # well sealed, but no table
            cache.write_marshalled(Path(path), broken)
        _, imported, states2 = _run(tmp_path)
        assert imported == "True" and states2 == states
        assert cache.read_marshalled(Path(path))["start_state"] >= 0  # rewritten whole
