"""``parse(text, path)``: syllabus text in, the model and the core's diagnostics out.

The stages run in one direction: decode bytes, lex and parse (recovering from every syntax
error), validate against the JSON Schema (only when the syntax is clean, so that a missing
comma does not also produce a page of schema noise), and build the typed model. Nothing
raises for bad input: every problem is a ``Diagnostic`` with a span.

The schema check may be left for later (``parse(..., schema=False)``, then ``checked``): the
model does not depend on it, and on a just-opened 500 KB syllabus it is nine tenths of the
parse (jsonschema on each of thousands of distinct instructions), which an editor's outline,
hover and completion do not need. ``checked`` returns exactly what ``parse`` would have.
"""

from __future__ import annotations

from sylla.grammar.core import Diagnostic, LineIndex, Severity, Span
from sylla.grammar.syllabus.build import build
from sylla.grammar.syllabus.decode import Decoded, decode
from sylla.grammar.syllabus.lalr import parse_range
from sylla.grammar.syllabus.model import NonJson, NonJsonKind, Syllabus
from sylla.grammar.syllabus.schema import validate
from sylla.grammar.syllabus.source_map import SourceMap
from sylla.kit.gc_pause import paused_gc
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import field, record, replace

if TYPE_CHECKING:
    from typing import Callable


@record()
class ParseResult:
    """The model (None when nothing usable could be read) and the diagnostics, in order."""

    model: Syllabus | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    text: str = ""
    path: str | None = None
    #: ``(first start, last end)`` of every syntax error the parser met and repaired, reported
    #: or not (``RawParse.events``): an incremental parse must parse that stretch again
    events: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    #: with syntax errors (and so no schema diagnostics of its own): the schema diagnostics of
    #: the instructions of the last version without any, moved to this one, and the range of
    #: this version's instructions ``(lo, hi)`` edited since. An incremental parse that fixes
    #: the errors validates only those again: all 10,000 of a 500 KB syllabus took 20-40 ms
    schema_memo: "tuple[tuple[Diagnostic, ...], int, int] | None" = field(default=None, compare=False, repr=False)
    #: the schema check is still to be made (``parse(..., schema=False)``): ``diagnostics``
    #: hold every other problem, and ``checked`` adds the schema's
    schema_pending: bool = field(default=False, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def syntax_ok(self) -> bool:
        return not any(d.kind != "schema" and d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def lines(self) -> LineIndex:
        return self.model.lines if self.model and self.model.lines else LineIndex(self.text)


def parse(data: str | bytes, path: str | None = None, *, schema: bool = True) -> ParseResult:
    """The parse of ``data``; ``schema=False`` leaves the schema check for ``checked``."""
    decoded = decode(data)
    if decoded.text is None:
        return ParseResult(None, decoded.problems, "", path)
    with paused_gc():
        return _parse(decoded.text, decoded, path, schema)


def checked(result: ParseResult, between: "Callable[[], None] | None" = None) -> ParseResult:
    """``result`` with its schema check made, if it was left for later: what ``parse`` gives
    the same text. ``between`` is called between instructions (``schema.validate``)."""
    if not result.schema_pending:
        return result
    model = result.model
    if model is None or model.source_map is None or not result.syntax_ok:
        return replace(result, schema_pending=False)  # no schema check with syntax errors
    found = validate(model.value, model.form, model.source_map, result.text, between)
    # the same order as ``_parse``: the other problems (sorted already; the sort is stable)
    # before the schema's at the same span
    problems = sorted(result.diagnostics + found, key=_place)
    return replace(result, diagnostics=problems, schema_pending=False)


def unchecked(result: ParseResult) -> ParseResult:
    """``result`` without its schema diagnostics, its check left for later (``checked``): a
    version parsed from one whose check was left for later has only part of them, and a
    version with syntax errors, none, but no memo of them either (``schema_memo``)."""
    if result.model is None:
        return result  # no model: no schema check in a full parse either
    others = [d for d in result.diagnostics if d.kind != "schema"]
    return replace(result, diagnostics=others, schema_memo=None, schema_pending=True)


def _place(d: Diagnostic) -> tuple[int, int]:
    return d.span.start, d.span.end


def _parse(text: str, decoded: "Decoded", path: str | None, schema: bool = True) -> ParseResult:
    raw = parse_range(text)
    problems = decoded.problems + raw.problems
    non_json: list[NonJson] = decoded.non_json + raw.non_json
    lines = LineIndex(text)
    if raw.root is None:
        if not raw.problems:
            problems.append(
                Diagnostic("empty", 'the file is empty: a syllabus is a JSON object with an "instructions" list', Span(0, 0))
            )
        return ParseResult(None, problems, text, path)
    form = raw.form
    if form == "scalar":
        problems.append(
            Diagnostic("not-a-syllabus", 'a syllabus is a JSON object with an "instructions" list, not a single value', Span(raw.root.start, raw.root.end))
        )
        return ParseResult(None, problems, text, path)
    if form == "fragment":
        non_json.append(NonJson(NonJsonKind.FRAGMENT, Span(raw.root.start, raw.root.end)))
    source = SourceMap(text, raw.root)
    value = raw.root.value
    syntax_clean = not any(p.severity is Severity.ERROR for p in problems)
    if syntax_clean and schema:
        problems.extend(validate(value, form, source, text))
    model = build(text, path, form, value, source, non_json, lines)
    problems.sort(key=_place)
    events = None if raw.events is None else (raw.events[0], raw.events[1])
    return ParseResult(model, problems, text, path, events, schema_pending=not schema)
