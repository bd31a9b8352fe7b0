"""``reparse``: the parse of an edited text from the previous parse equals a full parse.

The property runs on the real syllabi of the suite (fixtures and examples, mutated by the
fuzzer so that schema errors, comments and layouts vary) and edits them the way an editor
does: characters typed, deleted or replaced inside one instruction (the fast path), or
anywhere (the fall-back). Equal means everything a consumer can read: the model (value,
instructions, spans, non-JSON constructs, top-level keys), every diagnostic, the positions
the source map finds inside each instruction, and the line index. A second edit is made on
top of the incremental result, since that is how an editing session goes."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from fuzzing.syllabus import mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus import incremental
from sylla.grammar.syllabus.incremental import changed_region, reparse
from sylla.grammar.syllabus.lalr import Node, Tok
from sylla.grammar.syllabus.model import Block, PhaseMark
from sylla.grammar.syllabus.parse import ParseResult, parse
from sylla.grammar.syllabus.synth import phase_pairs

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[3]
#: tests/fixtures/rules (the RuleTester's one-change bad/ok pairs) are near-copies of these: not seeds
SEEDS = sorted(p for p in REPO.glob("tests/fixtures/**/*.json*") if not p.is_relative_to(REPO / "tests/fixtures/rules")) + sorted(
    REPO.glob("examples/**/*.json*"))
TEXTS = [
    text for text in [p.read_bytes().decode("utf-8", errors="replace") for p in SEEDS] + [phase_pairs(instructions=40)]
    if (model := parse(text).model) is not None and len(model.instructions) >= 2  # syllabi, not metrics files
]
#: what people type into JSON, and the characters that have broken parsers before
TYPED = st.lists(
    st.sampled_from(list('{}[],:"0123456789 \n\t/*ab$.-\\e') + ["é", "\u2028", "\r\n", "//", "/*", "*/", "<--"]), max_size=4
).map("".join)
#: what keeps an instruction well-formed more often than not: digits and letters in a value
SAFE = st.text(st.sampled_from(list("0123456789 abe.-_/")), max_size=5)


def _tree(item: Any) -> Any:
    if item is None:
        return None
    if item.__class__ is Tok:
        return ("tok", item.type, item.value, item.start, item.end)
    assert item.__class__ is Node
    children = item.children
    if isinstance(children, dict):
        return ("obj", item.start, item.end, item.value, [(k, _tree(v), _tree(item.keys[k])) for k, v in children.items()])
    return ("arr", item.start, item.end, item.value, [_tree(v) for v in children])


def _positions(result: ParseResult) -> list[Any]:
    """Every position a consumer reads through the model's properties (source map inside)."""
    out: list[Any] = []
    model = result.model
    if model is None:
        return out
    for ins in model.instructions:
        if isinstance(ins, PhaseMark):
            out.append((ins.index, ins.label_span, ins.enable_updates_span))
        elif isinstance(ins, Block):
            params = sorted((k, ins.param_span(k)) for k in ins.own_params)
            out.append((ins.index, ins.leaf_span, ins.task_span, ins.count_span, params))
    return out


def assert_same(fast: ParseResult, full: ParseResult) -> None:
    assert fast == full
    assert fast.diagnostics == full.diagnostics
    if full.model is None:
        return
    assert fast.model is not None and fast.model.source_map is not None and full.model.source_map is not None
    assert fast.model.text == full.model.text
    assert _tree(fast.model.source_map.root) == _tree(full.model.source_map.root)
    assert fast.model.lines.starts == full.model.lines.starts
    assert _positions(fast) == _positions(full)
    assert [i.span for i in fast.model.instructions] == [i.span for i in full.model.instructions]


@st.composite
def edited(draw: st.DrawFn) -> tuple[str, str]:
    """A real syllabus (perhaps mutated) and the same text after one edit: inside an
    instruction (mostly) or anywhere."""
    text = draw(st.sampled_from(TEXTS))
    if not draw(st.integers(0, 3)):
        text = mutate(text, random.Random(draw(st.integers(0, 2**32 - 1))), draw(st.integers(1, 2)))
    model = parse(text).model
    spans = [i.span for i in model.instructions if i.span.end - i.span.start > 2] if model else []
    if spans and draw(st.integers(0, 4)):
        span = draw(st.sampled_from(spans))
        start = draw(st.integers(span.start + 1, span.end - 1))
        end = draw(st.integers(start, min(span.end - 1, start + 6)))
        if draw(st.booleans()):
            return text, text[:start] + draw(SAFE if end > start else SAFE.filter(bool)) + text[end:]
    else:
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 6)))
    return text, text[:start] + draw(TYPED if end > start else TYPED.filter(bool)) + text[end:]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(edited(), TYPED, st.data())
def test_an_incremental_parse_equals_the_full_parse(pair: tuple[str, str], typed: str, data: st.DataObject) -> None:
    old, new = pair
    first = reparse(parse(old), new)
    assert_same(first, parse(new))
    # a second edit, on top of the (perhaps incremental) result, near the first
    start, _, new_end = changed_region(old, new)
    at = data.draw(st.integers(max(0, start - 3), min(len(new), new_end + 3)))
    newer = new[:at] + typed + new[at + data.draw(st.integers(0, 2)) :]
    assert_same(reparse(first, newer), parse(newer))


def _count_edit(text: str, line: str, new: str) -> str:
    at = text.index(line) + line.index("10")
    return text[:at] + new + text[at + 2 :]


def test_edits_inside_an_instruction_take_the_fast_path() -> None:
    """The property above would pass if ``reparse`` always parsed in full: here the fast path
    must answer (and still equal the full parse)."""
    text = phase_pairs(instructions=400)
    line = '{"$repeat": {"$episode": "Pong"}, "count": 10}'
    old = parse(text)
    for new in (
        _count_edit(text, line, "20"),  # same length
        _count_edit(text, line, "2000"),  # longer: everything after moves
        _count_edit(text, line, "\"x\""),  # a schema error (count must be an integer)
        text.replace('"Pong"}, "count": 10}', '"Pong", "bot/paddle/width": 0.3 /* wider */}, "count": 10}', 1),
    ):
        fast = incremental._reparse(old, new)
        assert fast is not None, new[:200]
        assert_same(fast, parse(new))
    schema_error = incremental._reparse(old, _count_edit(text, line, "\"x\""))
    assert schema_error is not None and [d.keyword for d in schema_error.diagnostics] == ["type"]


def test_edits_the_one_instruction_path_leaves_to_the_others() -> None:
    """Edits outside one instruction, or that break it, are not for the one-instruction path;
    the list and top-level paths (``test_incremental_anywhere.py``) take them, equal to a full parse."""
    text = phase_pairs(instructions=40)
    old = parse(text)
    model, root = old.model, old.model.source_map.root
    array = root.children["instructions"]
    line = '{"$repeat": {"$episode": "Pong"}, "count": 10}'
    for new in (
        _count_edit(text, line, "1x0"),  # a syntax error inside the instruction
        text.replace(line + ",", line + ",,", 1),  # between instructions
        text.replace(line, line[:-1], 1),  # the instruction's own closing brace
        text.replace('"name": "generated"', '"name": "edited"'),  # a top-level key
        text.replace(line, '{"$phase": "9.train"}, ' + line, 1),  # one instruction more
    ):
        start, old_end, new_end = changed_region(text, new)
        assert incremental._one_instruction(old, new, model, root, array, array.children, start, old_end, new_end) is None
        fast = incremental._reparse(old, new)
        assert fast is not None
        assert_same(fast, parse(new))


def test_edits_no_incremental_path_takes() -> None:
    """What could change the document around the list is parsed in full."""
    text = phase_pairs(instructions=40)
    old = parse(text)
    line = '{"$repeat": {"$episode": "Pong"}, "count": 10}'
    for new in (
        text.replace(line + ",", line + "],", 1),  # closes the list early: the repair reaches outside it
        _count_edit(text, line, "1 0"),  # repaired as "1}, 0", then the "}" closes the list
        text.replace('"instructions": [', '"instructions": ', 1),  # the list's own bracket
        text.replace('"instructions"', '"instruction"', 1),  # the list is no longer the instructions
        "\ufeff" + text,  # a byte-order mark
    ):
        assert incremental._reparse(old, new) is None, new[-60:]
        assert_same(reparse(old, new), parse(new))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), SAFE, st.booleans()), min_size=2, max_size=12))
def test_an_editing_session_stays_equal_and_keeps_few_old_texts(edits: list[tuple[int, int, str, bool]]) -> None:
    """Edits one after the other in different instructions, each parsed from the last
    result: every step equals the full parse, and the model never reads from more than
    ``_MAX_SOURCE_MAPS`` older versions' source maps (older texts are not kept alive)."""
    text = phase_pairs(instructions=60)
    result = parse(text)
    for pick, where, typed, same_length in edits:
        spans = [i.span for i in result.model.instructions] if result.model else []
        if not spans:
            break
        span = spans[pick % len(spans)]
        at = span.start + 1 + where % max(1, span.end - span.start - 2)
        cut = len(typed) if same_length else where % 3
        text = text[:at] + typed + text[min(at + cut, span.end - 1) :] if at < span.end - 1 else text
        result = reparse(result, text)
        assert_same(result, parse(text))
        if result.model is not None:
            maps = {i.source for i in result.model.instructions if isinstance(i, (Block, PhaseMark))}
            assert len(maps) <= 5  # four older versions' maps at most, and the new one


def test_same_length_edits_reuse_instructions_and_older_maps_stay_few() -> None:
    """Ten same-length edits in ten instructions: the untouched instructions are the very
    objects of the previous model (no copying), and old source maps are dropped at the limit."""
    text = phase_pairs(instructions=200)
    result = parse(text)
    seen = []
    for n in range(10):
        at = [m for m in range(len(text)) if text.startswith('"count": ', m)][n * 7] + len('"count": ')
        text = text[:at] + str(n % 9 + 1) + text[at + 1 :]  # 1000 -> 2000: same length, still valid
        previous = result.model
        result = reparse(result, text)
        assert_same(result, parse(text))
        kept = sum(a is b for a, b in zip(previous.instructions, result.model.instructions))
        seen.append(len({i.source for i in result.model.instructions if isinstance(i, (Block, PhaseMark))}))
        assert kept == len(previous.instructions) - 1 or seen[-1] == 1  # all reused, or all moved to the new map
    assert 3 <= max(seen) <= 5 and 1 in seen[2:], seen  # older maps were kept, then dropped


def test_fixing_a_syntax_error_validates_only_the_instructions_edited_meanwhile(monkeypatch) -> None:
    """Clean, then a comma deleted (no schema diagnostics while the syntax is broken), an
    instruction edited, the comma typed back: every step equals the full parse, and the last
    one takes the schema diagnostics of the untouched instructions from the last clean
    version instead of validating the whole document again."""
    from sylla.grammar.syllabus import incremental

    lines = phase_pairs(instructions=80).split("\n")
    repeats = [n for n, line in enumerate(lines) if '"count": ' in line]
    for n in (repeats[3], repeats[30], repeats[-3]):  # schema errors before, between and after the edits
        lines[n] = re.sub(r'"count": [0-9]+', '"count": "x"', lines[n])
    text = "\n".join(lines)
    first = parse(text)
    assert sum(d.kind == "schema" for d in first.diagnostics) >= 3
    comma = text.index(",\n", text.index(lines[repeats[10]]))
    broken = text[:comma] + text[comma + 1 :]
    at = re.compile(r'"count": [0-9]').search(broken, comma).end()
    edited = broken[:at] + "7" + broken[at:]  # a count near the missing comma
    monkeypatch.setattr(incremental, "validate", lambda *a: pytest.fail("the whole document was validated again"))
    steps = [broken, edited, edited[:comma] + "," + edited[comma:]]
    result = first
    for step in steps:
        result = reparse(result, step)
        assert_same(result, parse(step))
    assert result.syntax_ok and sum(d.kind == "schema" for d in result.diagnostics) == 3


@pytest.mark.parametrize("where", ["count_of_block_0", "task_of_block_1", "unquoted_after_a_key"])
def test_a_number_the_c_decoder_refuses_is_handled_alike_in_full_and_incremental_parses(where: str) -> None:
    """Whether a container is lexed whole (and handed to the C decoder) depends on its own text
    only: a number past the decoder's exact range (100 digits, an exponent of 100), or text that
    looks like such an exponent, anywhere else must not change how the rest of the file is
    parsed, or an edit elsewhere would parse differently from the whole file (issue 38's
    hostile numbers first did: the whole text switched to token-by-token lexing)."""
    text = phase_pairs(instructions=12)
    line = '{"$repeat": {"$episode": "Pong"}, "count": 10}'
    at = text.index(line)
    if where == "count_of_block_0":
        odd = line.replace("10", "9" * 120)
    elif where == "task_of_block_1":
        odd = line.replace('"Pong"', '"Pong' + "7" * 120 + '"')
    else:
        odd = line.replace('"count": 10', '"count"e5000')
    new = text[:at] + odd + text[at + len(line):]
    # typed into one instruction, and taken out again
    assert_same(reparse(parse(text), new), parse(new))
    assert_same(reparse(parse(new), text), parse(text))
