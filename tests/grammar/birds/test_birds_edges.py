"""Science Birds configs at the edges (issue 38), in process: detection by root element however
far in it is and whatever bytes hide it, numbers of any length, and the plan's unknowns. The
same cases go through the real ``sylla`` process in tests/cli/test_birds_edges.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from sylla.grammar.birds import parse
from sylla.grammar.birds.detect import birds_kind, claims, sniff_codec
from sylla.grammar.birds.explain import explain
from sylla.grammar.birds.numbers import INT_MAX, INT_MIN, clip, game_int, game_range, out_of_range
from sylla.grammar.birds.plan import plan
from sylla.linter.languages import language_of

BIRDS = Path(__file__).resolve().parents[2] / "fixtures" / "birds"
WORKED = (BIRDS / "worked-example.xml").read_text(encoding="utf-8")
META = WORKED.encode()
HUGE = "9" * 5000


# ---- detection ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        META.replace(b"<config_generation>", b"<!--" + b"x" * 200_000 + b"-->\n<config_generation>"),
        META.replace(b"<config_generation>", b"<!DOCTYPE config_generation [" + b" " * 100_000 + b"]>\n<config_generation>"),
        META.replace(b"<config_generation>", b"<?pi " + b"y" * 70_000 + b"?>" + b"\n" * 70_000 + b"<config_generation>"),
        WORKED.replace("<config_generation>", "<!--" + "é" * 40_000 + "-->\n<config_generation>").encode("utf-16"),
    ],
    ids=["comment", "doctype", "pi-and-blank-lines", "utf16-comment"],
)
def test_the_root_is_found_behind_any_length_of_prolog(data: bytes) -> None:
    assert birds_kind(data) == "meta" and claims(data)


@pytest.mark.parametrize(
    "data",
    [
        META.replace(b"<config_generation>", b"<config_gen\x00eration>"),  # the root's name cut
        META.replace(b"<config_generation>", b"<\x00config_generation>"),
        META.replace(b"<config_generation>", b"\x00<config_generation>"),  # between the declaration and the root
        META.replace(b"<config_generation>", b"<config_generation\x00>"),
        META.replace(b"<config_generation>", b"<config_generation\xff>"),  # a byte that is not UTF-8
    ],
)
def test_a_root_hidden_by_bytes_xml_cannot_hold_is_claimed(data: bytes) -> None:
    assert claims(data) and claims(data, "x.xml") and language_of("x.xml", data) == "birds"


def test_what_is_not_claimed() -> None:
    syllabus = b'{"instructions": [{"$phase": "1.train"}], "note": "<evaluation>"}'
    assert not claims(syllabus, "configMeta.xml")  # a syllabus named *.xml is a syllabus
    assert language_of("configMeta.xml", syllabus) == "syllabus"
    assert not claims(b'<?xml version="1.0"?>\n<project><!-- \x00 --></project>', "pom.xml")  # another root: another tool's
    for typing in (b"", b"  \n", b'<?xml version="1.0"?>', b"<", b"<proj", b"<!-- a note"):  # an editor buffer being typed
        assert not claims(typing, "new.xml"), typing
    assert not claims(b"\x89PNG\r\n\x1a\n\x00\x00", "image.png")
    assert claims(b"\x89PNG\r\n\x1a\n\x00\x00", "configMeta.xml")  # binary bytes named like a config


def test_a_prolog_that_cannot_be_read_is_claimed_when_a_config_root_follows() -> None:
    assert claims(META.replace(b"?>", b">", 1))  # a declaration that is never closed
    assert claims(b"garbage\n" + META, "configMeta.xml")
    # a doctype never closed, and a NUL in the root's name: found by the fuzz campaign, seed 9369
    assert claims(b'<?xml version="1.0"?>\n<!DOCTYPE config_generation [\n<config_gen\x00eration>')


def test_detection_and_decoding_agree_on_utf16_without_a_mark() -> None:
    data = WORKED.encode("utf-16-le")
    assert sniff_codec(data) == ("utf-16-le", b"") and birds_kind(data) == "meta"
    assert parse(data).model is not None
    assert sniff_codec(WORKED.encode("utf-16-be")) == ("utf-16-be", b"")
    assert sniff_codec(b"\xff\xfe\x00\x00<\x00\x00\x00") == ("utf-32-le", b"\xff\xfe\x00\x00")


@pytest.mark.parametrize("at", ["<trials>", "<config_generation>", 'version="1.0"', "</config_generation>"])
def test_a_nul_byte_is_reported_where_it_is(at: str) -> None:
    text = WORKED.replace(at, at[:3] + "\x00" + at[3:], 1)
    for data in (text.encode(), text):  # the file, and an editor buffer
        r = parse(data)
        (d,) = r.diagnostics
        assert d.kind == "xml-binary" and d.span.start == text.index("\x00") and "NUL" in d.message


# ---- numbers ----------------------------------------------------------------------------------------


def test_int_parse_range_without_converting_long_literals() -> None:
    assert (game_int(str(INT_MAX)), game_int(str(INT_MIN)), game_int(" +7 "), game_int("007")) == (INT_MAX, INT_MIN, 7, 7)
    assert game_int(str(INT_MAX + 1)) is None and game_int(str(INT_MIN - 1)) is None and game_int(HUGE) is None
    assert game_int("0" * 100_000 + "5") == 5  # leading zeros are not digits that count
    assert game_range("10-50") == (10, 50) and game_range(f"1-{HUGE}") is None
    assert out_of_range(HUGE) and out_of_range(f"-{HUGE}") and out_of_range(f"2-{HUGE}") and not out_of_range("two")
    assert clip(HUGE).endswith("(5000 characters)") and len(clip(HUGE)) < 60 and clip("short") == "short"


@pytest.mark.parametrize(
    "before,after",
    [
        ('amount="2"', f'amount="{HUGE}"'),
        ('step="1"', f'step="{HUGE}"'),
        ("<count>3</count>", f"<count>{HUGE}</count>"),
        ('<limit type="time">180</limit>', '<limit type="time">2147483648</limit>'),
        ('novelty_level="1"', f'novelty_level="-{HUGE}"'),
    ],
)
def test_a_number_out_of_range_is_one_diagnostic_at_its_value(before: str, after: str) -> None:
    text = WORKED.replace(before, after, 1)
    r = parse(text.encode())
    errors = [d for d in r.diagnostics if d.severity.value == "error"]
    assert [d.kind for d in errors] == ["xml-number-range"]  # the schema's own refusal is not said twice
    value = after[len(after.split(">")[0]) + 1 :] if after.startswith("<") else after.split('"')[1]
    assert errors[0].span.start == text.index(after) + after.index(value[:5])
    assert len(errors[0].message) < 250 and r.syntax_ok  # the XML is read: explain still shows what is known


# ---- the plan: unknown, never off, never 0 --------------------------------------------------------


def meta(text: str):
    return parse(text.encode()).model


def test_an_unreadable_amount_leaves_the_training_time_unknown_not_off() -> None:
    p = plan(meta(WORKED.replace('amount="2"', 'amount="two"', 1)).trials[0])
    assert p.training_time is None and "training time" in p.unknown
    assert p.total_n_testsets is None and [s.n_testsets for s in p.test_sets] == [None, None]
    assert not any("training time limit is off" in n for n in p.notes)
    assert p.test_sets_in_all is None


def test_an_off_per_level_time_is_off_whatever_the_amounts() -> None:
    text = WORKED.replace('<limit type="time">180</limit>', '<limit type="time">0</limit>', 1).replace('amount="2"', 'amount="two"', 1)
    p = plan(meta(text).trials[0])
    assert "training time" not in p.unknown
    # ceil(60000 / 200) = 300 from interactions alone, the time term off
    assert p.total_n_testsets == (300, 300) and "the training time limit is off, so the time term contributes 0 test sets" in p.notes


def test_an_off_checkpoint_makes_its_term_0_even_when_the_training_limit_is_unknown() -> None:
    text = WORKED.replace('<limit type="time">200</limit>', '<limit type="time">0</limit>', 1).replace('amount="2"', 'amount="two"', 1)
    p = plan(meta(text).trials[0])
    assert p.total_n_testsets == (300, 300)  # 0 (checkpoint time off) + ceil(60000 / 200)


def test_unknown_counts_and_their_totals() -> None:
    doc = explain(meta(WORKED.replace("<count>3</count>", "<count>three</count>", 1)))
    (t,) = doc["trials"]
    assert t["trials_generated"] is None and t["executions"] is None and "count" in t["unknown"]
    assert doc["totals"]["trials_generated"] is None and doc["totals"]["executions"] is None
    zero = explain(meta(WORKED.replace("<count>3</count>", "<count>0</count>", 1).replace("<repeats>2</repeats>", "<repeats>x</repeats>", 1)))
    assert zero["trials"][0]["executions"] == 0  # nothing generated runs nothing, whatever repeats says


def test_in_all_is_the_sum_of_the_sets() -> None:
    p = plan(meta(WORKED).trials[0])
    # ceil(302 x 50 / 100) + ceil(302 x 30 / 100) = 151 + 91
    assert p.test_sets_in_all == (151 + 91, 151 + 91)


def test_generated_config_executions_from_an_unreadable_count_are_unknown() -> None:
    from sylla.grammar.birds.explain import explain_generated, render_generated_text

    text = (BIRDS / "rules" / "good-config.xml").read_text(encoding="utf-8").replace('number_of_executions="1"', 'number_of_executions="once"', 1)
    doc = explain_generated(parse(text.encode()).model)
    assert doc["trials"][0]["number_of_executions"] is None and doc["totals"]["executions"] is None
    assert "unknown execution(s)" in render_generated_text(doc) and "xNone" not in render_generated_text(doc)


def test_an_amount_range_of_one_number_gives_it_and_a_reversed_one_is_unknown() -> None:
    same = plan(meta(WORKED.replace('amount="2"', 'amount="2-2"', 1)).trials[0])
    assert same.training_time == (180 * 2, 180 * 2)  # the draw from [2, 2) gives 2 (B818's page)
    reversed_ = plan(meta(WORKED.replace('amount="2"', 'amount="4-2"', 1)).trials[0])
    assert reversed_.training_time is None and "reversed range" in reversed_.unknown["training time"]
