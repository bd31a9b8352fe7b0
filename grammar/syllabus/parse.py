"""``parse(text, path)``: syllabus text in, the model and the core's diagnostics out.

The stages run in one direction: decode bytes, lex and parse (recovering from every syntax
error), validate against the JSON Schema (only when the syntax is clean, so that a missing
comma does not also produce a page of schema noise), and build the typed model. Nothing
raises for bad input: every problem is a ``Diagnostic`` with a span.
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
from sylla.kit.record import field, record


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

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def syntax_ok(self) -> bool:
        return not any(d.kind != "schema" and d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def lines(self) -> LineIndex:
        return self.model.lines if self.model and self.model.lines else LineIndex(self.text)


def parse(data: str | bytes, path: str | None = None) -> ParseResult:
    decoded = decode(data)
    if decoded.text is None:
        return ParseResult(None, decoded.problems, "", path)
    with paused_gc():
        return _parse(decoded.text, decoded, path)


def _parse(text: str, decoded: "Decoded", path: str | None) -> ParseResult:
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
    if syntax_clean:
        problems.extend(validate(value, form, source, text))
    model = build(text, path, form, value, source, non_json, lines)
    problems.sort(key=lambda d: (d.span.start, d.span.end))
    return ParseResult(model, problems, text, path, None if raw.events is None else (raw.events[0], raw.events[1]))
