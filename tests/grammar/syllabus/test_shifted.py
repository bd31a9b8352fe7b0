"""``grammar.shifted.Shifted``: an incremental parse's instructions moved only when read.

What it must be: the same sequence as a full parse's tuple (values, spans, indices, paths,
inner positions), while an edit copies none of the instructions after it until they are read."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sylla.grammar.syllabus import shifted
from sylla.grammar.syllabus.incremental import reparse
from sylla.grammar.syllabus.model import Block, PhaseMark
from sylla.grammar.syllabus.parse import parse
from sylla.grammar.syllabus.shifted import Shifted, classes
from sylla.grammar.syllabus.synth import phase_pairs

from .test_incremental import TEXTS, assert_same
from .test_incremental_anywhere import keystroke


def _typed_at_start(text: str, typed: str = "  ") -> str:
    """``typed`` inside the first instruction's first string: every instruction after it moves."""
    at = text.index('"$phase"') + 1
    return text[:at] + typed + text[at:]


def _made(instructions: Shifted) -> int:
    return len(instructions) - instructions._missing


def test_an_edit_copies_no_instruction_after_it_until_read() -> None:
    text = phase_pairs(instructions=200)
    edited = _typed_at_start(text, "ab")
    result = reparse(parse(text), edited)
    instructions = result.model.instructions
    assert isinstance(instructions, Shifted)
    assert _made(instructions) == 0
    assert classes(instructions) == [type(i) for i in parse(edited).model.instructions]
    assert _made(instructions) == 0  # the classes came without a copy
    last = instructions[-1]
    assert _made(instructions) == 1 and instructions[-1] is last  # made once, then kept
    part = instructions[100:140]  # a slice makes just its own
    assert _made(instructions) == 41 and part[-1] is instructions[139]
    assert instructions._missing == instructions._memo.count(None)
    assert instructions == parse(edited).model.instructions


def test_a_shifted_sequence_reads_like_the_full_parse_tuple() -> None:
    text = phase_pairs(instructions=60)
    # a line added between two instructions: later ones move a line on and keep their places;
    # an instruction removed: later ones also move one place back (index and path)
    line = text.splitlines()[5]
    for edited in (text.replace(line, line + "\n", 1), text.replace(line + "\n", "", 1)):
        fast, full = reparse(parse(text), edited).model, parse(edited).model
        assert isinstance(fast.instructions, Shifted)
        want = full.instructions
        assert len(fast.instructions) == len(want)
        assert fast.instructions[3:9] == want[3:9] and fast.instructions[::7] == want[::7]
        assert [(i.index, i.path, i.span) for i in fast.instructions] == [(i.index, i.path, i.span) for i in want]
        for mine, theirs in zip(fast.instructions, want):
            if isinstance(mine, PhaseMark):
                assert mine.label_span == theirs.label_span
            if isinstance(mine, Block):
                assert (mine.task_span, mine.count_span) == (theirs.task_span, theirs.count_span)
        assert fast.instructions.index(want[-1]) == len(want) - 1 and want[-1] in fast.instructions
        assert tuple(fast.instructions) == want and fast.instructions == want and want == fast.instructions


def test_runs_stay_few_and_read_sequences_start_over() -> None:
    """Edits with nothing read between them add runs, up to ``MAX_RUNS``; a sequence read whole
    (as the lint reads it) is the one run of the next version's."""
    text = phase_pairs(instructions=300)
    result = parse(text)
    for n in range(2 * shifted.MAX_RUNS):
        counts = [m + len('"count": ') for m in range(len(text)) if text.startswith('"count": ', m)]
        at = counts[(n * 37) % len(counts)]
        text = text[:at] + "1" + text[at:]
        result = reparse(result, text)
        assert len(result.model.instructions._runs) <= shifted.MAX_RUNS
    assert result.model.instructions == parse(text).model.instructions
    text = _typed_at_start(text)
    result = reparse(result, text)
    assert len(result.model.instructions._runs) <= 3


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(TEXTS), st.integers(1, 12), st.data())
def test_a_session_read_only_here_and_there_equals_the_full_parse(text: str, steps: int, data: st.DataObject) -> None:
    """Keystrokes anywhere, each version parsed from the last with nothing or a few of its
    instructions read in between (runs built on runs, some copies made, most not): the
    last version equals its full parse, instruction for instruction."""
    result = parse(text)
    for _ in range(steps):
        text = data.draw(keystroke(text))
        result = reparse(result, text)
        instructions = result.model.instructions if result.model is not None else ()
        for i in data.draw(st.lists(st.integers(0, 10**6), max_size=3)):
            if instructions:
                instructions[i % len(instructions)]  # read for its effect: that one copy is made now
    assert_same(result, parse(text))
