"""Reading Science Birds trial configs: the reference samples, the real shape the game writes,
encodings, positions, schema errors in plain words, and hostile XML."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Callable, TypeVar

import pytest

from sylla.grammar.birds import birds_kind, parse
from sylla.grammar.birds.decode import MAX_BYTES
from sylla.grammar.birds.model import GeneratedConfig, MetaConfig

T = TypeVar("T")

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "birds"


def read(name: str):
    return parse((FIX / name).read_bytes(), name)


def at(result, span) -> tuple[int, int]:
    return result.lines.line_col(span.start)


def test_sample_unordered_sets() -> None:
    r = read("sample-unordered.xml")
    assert isinstance(r.model, MetaConfig)
    # the reference sample declares utf-16 on ASCII bytes, as the game writes: one note, nothing else
    assert [(d.kind, d.severity.value) for d in r.diagnostics] == [("xml-encoding-mismatch", "info")]
    (t,) = r.model.trials
    (train,) = t.training.sets
    (test,) = t.test.sets
    assert (train.novelty_level.int, train.novelty_type.int, train.amount_range) == (1, 1, (100, 100))
    assert (test.novelty_level.int, test.novelty_type.int, test.amount_range) == (1, 1, (10, 10))
    assert t.training.limits.get("allow_level_selection").value.text == "true"  # unordered set
    assert t.test.ordered.text == "false"


def test_sample_sequence_with_two_test_sequences() -> None:
    r = read("sample-sequence.xml")
    (t,) = r.model.trials
    assert t.training.limits.get("allow_level_selection").value.text == "false"  # a sequence
    assert [(s.novelty_level.int, s.novelty_type.int, s.amount.int) for s in t.test.sets] == [(0, 1, 10), (1, 1, 10)]
    assert all(s.allow_level_selection.text == "false" for s in t.test.sets)
    assert t.test.ordered.text == "true"


def test_real_shape_utf16_declaration_on_ascii_blank_lines_odd_indentation_empty_test() -> None:
    data = (FIX / "real-shape.xml").read_bytes()
    assert data.isascii() and b'encoding="utf-16"' in data and b"\r\n\r\n" in data and b"\t" in data
    r = parse(data, "real-shape.xml")
    assert r.decoded.encoding == "utf-8" and r.decoded.ascii
    (warning,) = r.diagnostics
    assert warning.kind == "xml-encoding-mismatch" and at(r, warning.span) == (1, 31)
    assert 'encoding="utf-16"' in warning.message and "ASCII" in warning.message
    (t,) = r.model.trials
    first, second = t.training.sets
    # line 23 is "\t   <game_level_set   novelty_level=\"1\"": tab, 3 spaces, tag, 3 spaces
    assert at(r, second.element.span) == (23, 5)
    assert at(r, second.novelty_level.span) == (23, 38)
    # the attribute continues on line 24 after 13 spaces: novelty_type="1" -> value at column 28
    assert at(r, second.novelty_type.span) == (24, 28)
    assert first.amount_range == (2, 2) and second.amount_range == (10, 49)  # 10-50 draws from [10, 50)
    assert t.test is not None and t.test.sets == () and t.test.has_sets_element


def test_self_closing_empty_test_is_read() -> None:
    text = (FIX / "real-shape.xml").read_text().replace(
        '<test ordered="true">\n        <game_level_sets></game_level_sets>\n      </test>', '<test ordered="true"/>'
    )
    assert '<test ordered="true"/>' in text
    r = parse(text)
    t = r.model.trials[0]
    assert t.test.sets == () and not t.test.has_sets_element and t.test.ordered.text == "true"
    assert [d.kind for d in r.diagnostics] == []  # a str (editor buffer): no bytes, no encoding check


def test_every_attribute_and_text_has_a_position() -> None:
    r = read("rules/good-meta.xml")
    text = r.text
    for el in r.root.iter():
        assert text[el.name_span.start : el.name_span.end] == el.tag
        assert text[el.span.start] == "<" and text[el.span.end - 1] == ">"
        for a in el.attrs:
            assert text[a.name_span.start : a.name_span.end] == a.name
            assert text[a.value_span.start : a.value_span.end] == a.value
        if el.text_span is not None:
            assert text[el.text_span.start : el.text_span.end] == el.text
    count = r.model.trials[0].count
    assert (at(r, count.span), count.int) == ((6, 14), 2)


def test_utf16_with_bom_and_a_matching_declaration_is_clean() -> None:
    text = (FIX / "rules" / "good-meta.xml").read_text().replace('encoding="utf-8"', 'encoding="utf-16"')
    r = parse(text.encode("utf-16"), "x.xml")
    assert r.decoded.encoding.startswith("utf-16") and r.diagnostics == []
    assert r.model.trials[0].count.int == 2


def test_utf16_bytes_declared_utf8_is_a_mismatch() -> None:
    text = (FIX / "rules" / "good-meta.xml").read_text()
    r = parse(text.encode("utf-16"), "x.xml")
    assert [d.kind for d in r.diagnostics] == ["xml-encoding-mismatch"]
    assert "UTF-16" in r.diagnostics[0].message


def test_non_ascii_positions_are_in_characters() -> None:
    data = '<config_generation>\n<!-- é -->  <trials><trial notify_novelty="véry"><count>1</count></trial></trials></config_generation>'.encode()
    r = parse(data)
    notify = r.model.trials[0].notify_novelty
    assert r.text[notify.span.start : notify.span.end] == "véry"


def test_an_xsi_schema_hint_is_allowed() -> None:
    text = (FIX / "rules" / "good-meta.xml").read_text().replace(
        "<config_generation>",
        '<config_generation xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="config_generation.xsd">',
    )
    assert parse(text).diagnostics == []


def test_generated_model() -> None:
    r = read("rules/good-config.xml")
    assert isinstance(r.model, GeneratedConfig) and r.diagnostics == []
    t0, t1 = r.model.trials
    assert (t0.id.int, t0.number_of_executions.int, len(t0.training_sets), len(t0.test_sets)) == (0, 1, 1, 1)
    assert len(t0.training_sets[0].levels) == 2 and t1.test_sets == ()


def test_kind_is_decided_by_root_element_not_name() -> None:
    assert birds_kind((FIX / "sample-sequence.xml").read_bytes()) == "meta"
    assert birds_kind(b'<?xml version="1.0"?>\n<!-- generated -->\n<!DOCTYPE evaluation>\n<evaluation/>') == "generated"
    assert birds_kind(b"<project><config_generation/></project>") is None
    assert birds_kind(b'{"instructions": []}') is None
    assert birds_kind("<config_generation/>".encode("utf-16")) == "meta"
    r = parse(b"<project/>", "configMeta.xml")
    assert r.model is None and r.diagnostics[0].kind == "xml-not-birds"


@pytest.mark.parametrize(
    "xml,words",
    [
        # count must be an integer: the message names the element and the value's type
        ("<count>two</count>", "<count>two</count>: must be a whole number"),
        ('<trial notify_novelty="maybe">', 'notify_novelty="maybe" on <trial>: must be one of "true", "false", "both"'),
        ('<game_level_set novelty_level="1" novelty_typ="1"', '<game_level_set> has no attribute "novelty_typ" (did you mean "novelty_type"?)'),
    ],
)
def test_schema_errors_in_plain_words(xml: str, words: str) -> None:
    text = (FIX / "rules" / "good-meta.xml").read_text()
    originals = {"<count>": "<count>2</count>", "<trial": '<trial notify_novelty="both">', "<game_level_set": '<game_level_set novelty_level="1" novelty_type="1"'}
    original = next(v for k, v in originals.items() if xml.startswith(k))
    r = parse(text.replace(original, xml, 1))
    schema = [d for d in r.diagnostics if d.kind == "xml-schema"]
    assert any(d.message.startswith(words) for d in schema), [d.message for d in schema]
    # the span is on the node the message is about
    d = next(d for d in schema if d.message.startswith(words))
    assert r.text[d.span.start : d.span.end] in ("two", "maybe", "novelty_typ")


def test_schema_reports_misplaced_and_missing_elements() -> None:
    text = (FIX / "rules" / "good-meta.xml").read_text()
    swapped = text.replace("<count>2</count>\n      <repeats>1</repeats>", "<repeats>1</repeats>\n      <count>2</count>")
    r = parse(swapped)
    (d,) = [d for d in r.diagnostics if d.kind == "xml-schema"]
    assert d.message == "unexpected <repeats>: <trial> expects <count> here" and at(r, d.span) == (6, 8)


# ---- hostile input: a clear error with a position, never a hang, a crash or an expansion ----


def _traced(fn: Callable[[bytes], T], data: bytes) -> tuple[T, int]:
    """``fn(data)`` and the peak of the memory it allocated (tracemalloc): the work done, which
    a time limit would measure by the machine's speed."""
    tracemalloc.start()
    try:
        return fn(data), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_billion_laughs_is_refused_fast() -> None:
    bomb = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    for i in range(1, 10):
        bomb += f' <!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
    bomb += "]>\n<config_generation>&lol9;</config_generation>\n"
    r, peak = _traced(parse, bomb.encode())
    assert peak < 1 << 20  # nothing expanded: lol9 is 10^9 lols, 3 GB
    (d,) = r.diagnostics
    assert d.kind == "xml-entity" and r.model is None
    assert at(r, d.span) == (3, 2) and "does not expand entities" in d.message


def test_external_entity_is_refused_and_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xml = f'<?xml version="1.0"?>\n<!DOCTYPE e [<!ENTITY x SYSTEM "{secret.as_uri()}">]>\n<evaluation>&x;</evaluation>'
    r = parse(xml.encode())
    (d,) = r.diagnostics
    assert d.kind == "xml-entity" and "external entity" in d.message and "TOP-SECRET" not in d.message
    assert r.model is None


def test_truncated_xml_points_at_the_end() -> None:
    data = (FIX / "rules" / "good-meta.xml").read_bytes()[:600]
    r = parse(data)
    (d,) = r.diagnostics
    assert d.kind == "xml-syntax" and "truncated" in d.message
    assert d.span.start >= len(data.decode().rstrip()) - 40  # at (or just before) where the bytes stop


@pytest.mark.parametrize(
    "data,kind",
    [
        (bytes(range(256)) * 4, "xml-binary"),  # NUL bytes
        (b"\x89PNG\r\n\x1a\n" + bytes(range(128, 256)) * 8, "xml-encoding"),  # not text at all
        (b"<config_generation>\xff\xfe</config_generation>", "xml-encoding"),  # invalid UTF-8 inside
        (b"GIF89a just text, no markup", "xml-syntax"),
    ],
)
def test_binary_garbage_is_a_clear_error(data: bytes, kind: str) -> None:
    r = parse(data, "garbage.xml")
    assert r.model is None and [d.kind for d in r.diagnostics] == [kind]


def test_deep_nesting_is_refused_not_recursed() -> None:
    depth = 100_000
    r = parse(b"<evaluation>" + b"<a>" * depth + b"</a>" * depth + b"</evaluation>")
    (d,) = r.diagnostics
    assert d.kind == "xml-syntax" and "nested more than 64 levels" in d.message
    assert d.span.start == len("<evaluation>") + 63 * len("<a>")  # the 65th start tag


def test_file_over_the_size_limit_is_refused_without_parsing() -> None:
    data = b"<evaluation>" + b" " * MAX_BYTES + b"</evaluation>"
    r, peak = _traced(parse, data)
    assert peak < 1 << 20  # nothing decoded or parsed: a file just under the limit takes 5x its size
    (d,) = r.diagnostics
    assert d.kind == "xml-too-large" and "32 MB" in d.message
