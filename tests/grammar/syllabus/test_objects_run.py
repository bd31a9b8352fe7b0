"""The driver's fast path for a run of whole-lexed instructions (``lalr._objects_run``) must give
exactly what the table gives token by token: the same values, tree, positions, problems and
non-JSON records, on real syllabi and on their one-character mutants (a comma dropped, a
brace cut, a comment or a trailing comma next to a run)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from sylla.grammar.syllabus import lalr
from sylla.grammar.syllabus.lalr import Node, Tok, parse_list, parse_range, tables

FIXTURES = Path(__file__).parents[2] / "fixtures"
EXAMPLES = Path(__file__).parents[3] / "examples"
SYLLABI = sorted(p for p in [*FIXTURES.glob("grammar/*.json*"), *EXAMPLES.glob("*.json*")] if p.is_file())


def _tree(item: Any) -> Any:
    if item is None:
        return None
    if item.__class__ is Tok:
        return ("tok", item.type, repr(item.value), item.start, item.end)
    assert item.__class__ is Node
    children = item.children
    if isinstance(children, dict):
        kids: Any = [(k, _tree(v), _tree(item.keys[k])) for k, v in children.items()]
    else:
        kids = [_tree(v) for v in children]
    return ("node", item.type, repr(item.value), item.start, item.end, kids)


def _outcome(raw: lalr.RawParse) -> Any:
    return (
        _tree(raw.root), raw.form, [(p.kind, p.message, p.span, p.related) for p in raw.problems],
        [(n.kind, n.span) for n in raw.non_json], raw.stopped, raw.events, raw.escaped,
    )


def _both(monkeypatch: pytest.MonkeyPatch, parse: Any) -> tuple[Any, Any, bool]:
    """The outcome with the fast path and without it, and whether the fast path ran."""
    ran: list[int] = []
    real = lalr._objects_run

    def counted(*args: Any) -> int:
        pos = real(*args)
        ran.append(pos > args[2])
        return pos

    with monkeypatch.context() as m:
        m.setattr(lalr, "_objects_run", counted)
        fast = _outcome(parse())
    with monkeypatch.context() as m:
        m.setitem(lalr._RUN_SHAPES, id(tables()), None)
        slow = _outcome(parse())
    return fast, slow, any(ran)


def _mutants(text: str, rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        i = rng.randrange(len(text))
        edit = rng.choice(["drop", "comma", "comment", "brace", "space"])
        if edit == "drop":
            out.append(text[:i] + text[i + 1 :])
        elif edit == "comma":
            out.append(text[:i] + "," + text[i:])
        elif edit == "comment":
            out.append(text[:i] + "/* c */" + text[i:])
        elif edit == "brace":
            out.append(text[:i] + rng.choice("{}[]") + text[i:])
        else:
            out.append(text[:i] + "\n " + text[i:])
    return out


@pytest.mark.parametrize("path", SYLLABI, ids=lambda p: p.name)
def test_fast_path_is_the_table(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    text = path.read_text(encoding="utf-8-sig")
    rng = random.Random(path.name)
    for version in [text, *_mutants(text, rng, 25)]:
        fast, slow, _ = _both(monkeypatch, lambda v=version: parse_range(v))
        assert fast == slow, path


def test_fast_path_runs_and_matches_in_a_list_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the instruction list of a real syllabus, as ``incremental`` parses it (``parse_list``),
    with a trailing comma, comments and a duplicate key inside a run."""
    body = (
        '{"$phase": "1.train"},\n  {"$repeat": {"$episode": "Pong"}, "count": 5},\n'
        '  {"$repeat": {"$episode": "Pong", "a": 1, "a": 2}, "count": 5} ,  {"$episode": "Breakout"},\n'
        '  {"$info": {}}, // note\n  {"$phase": "2.test"}, {"$episode": "Pong"},'
    )
    fast, slow, ran = _both(monkeypatch, lambda: parse_list(body, 0, len(body)))
    assert ran
    assert fast == slow
    assert any(p[0] == "duplicate-key" for p in fast[2])
    document = '{"instructions": [' + body + "]}"
    fast, slow, ran = _both(monkeypatch, lambda: parse_range(document))
    assert ran and fast == slow
    assert [k for k, _ in fast[3]] == [lalr.NonJsonKind.LINE_COMMENT, lalr.NonJsonKind.TRAILING_COMMA]
