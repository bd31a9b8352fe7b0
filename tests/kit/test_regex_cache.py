"""The lexer's compiled regex program is cached between runs (issue 24 item 2) and is always
the one ``re.compile`` gives: ``Pattern`` equality compares the programs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sylla.grammar.syllabus.tables import tables
from sylla.kit import cache
from sylla.kit.regex_cache import compile_cached

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("SYLLA_NO_CACHE", raising=False)
    return tmp_path / "sylla"


def _lexer_pattern() -> str:
    return tables().fast_regex.pattern


def _stored(cache_dir: Path) -> list[Path]:
    return sorted(cache_dir.glob("regex-*.sealed"))


def test_the_program_is_stored_then_read_and_equals_re_compile(cache_dir: Path) -> None:
    pattern = _lexer_pattern()
    first = compile_cached(pattern)
    [path] = _stored(cache_dir)
    assert cache.read_marshalled(path)["pattern"] == pattern
    second = compile_cached(pattern)
    assert first == second == re.compile(pattern)
    assert second is not first  # built from the stored program, not re's in-process cache
    text = (ROOT / "examples" / "with-findings.jsonc").read_text(encoding="utf-8")
    tokens = lambda rx: [(m.lastgroup, m.span()) for m in rx.finditer(text)]
    assert tokens(second) == tokens(re.compile(pattern))


def test_a_damaged_program_falls_back_to_re_compile(cache_dir: Path) -> None:
    pattern = _lexer_pattern()
    compile_cached(pattern)
    [path] = _stored(cache_dir)
    program = cache.read_marshalled(path)
    program["code"] = program["code"][: len(program["code"]) // 2]  # cut: the matcher refuses it
    cache.write_marshalled(path, program)
    assert compile_cached(pattern) == re.compile(pattern)
    path.write_bytes(b"\xffnot marshal")
    assert compile_cached(pattern) == re.compile(pattern)
    path.write_bytes(path.read_bytes()[:100])  # truncated
    assert compile_cached(pattern) == re.compile(pattern)
    cache.read_marshalled(path)  # rewritten whole


def test_a_program_stored_for_another_pattern_is_not_used(cache_dir: Path) -> None:
    compile_cached("a+")
    [path] = _stored(cache_dir)
    other = cache.read_marshalled(path)
    other["pattern"] = "b+"  # as if two patterns shared a digest
    cache.write_marshalled(path, other)
    assert compile_cached("a+") == re.compile("a+")
    assert cache.read_marshalled(path)["pattern"] == "a+"


def test_without_the_cache_nothing_is_stored(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYLLA_NO_CACHE", "1")
    assert compile_cached("x(y)z") == re.compile("x(y)z")
    assert not _stored(cache_dir)
