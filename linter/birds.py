"""``BIRDS``: the Science Birds descriptor for the lint engine (configMeta.xml, config.xml).

The core (``sylla.grammar.birds``) decodes, reads and validates the XML; its diagnostics become
findings under the B80x rules; the B81x (configMeta.xml) and B83x (config.xml) rules check the
model. What this language adds to the engine's steps: an encoding-declaration mismatch (B803)
keeps the severity the core gave it; a schema error on a value that a more specific rule
already reports (``True`` where ``true`` belongs, a misspelt limit type) is dropped, so each
problem is reported once, by the rule that can explain and fix it; a fixed config is written
back in the encoding and with the byte-order mark the game wrote, and an editor buffer is parsed
as the bytes its file would be saved as. ``sylla fmt`` leaves configs as they are.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Sequence

from sylla.grammar.birds.decode import MAX_BYTES, decode, encode_like
from sylla.grammar.birds.parse import BirdsParse, parse
from sylla.grammar.core import Diagnostic, Severity

from .birds_context import BirdsContext
from .language import LanguageSpec

if TYPE_CHECKING:
    from .config import Config
    from .finding import Finding
    from .rule import Rule

#: the core diagnostics whose finding keeps the diagnostic's own severity
CORE_SEVERITY = frozenset({"B803"})
#: the schema rule, whose findings give way to a more specific finding on the same value
SCHEMA = "B804"


class BirdsSpec(LanguageSpec[BirdsParse, BirdsContext]):
    name = "birds"
    unformatted = "Science Birds XML"

    def parse(self, data: str | bytes, path: str | None) -> BirdsParse:
        return parse(data, path)

    def parse_buffer(self, text: str, path: str | None) -> BirdsParse:
        """The buffer parsed as the bytes its file would be saved as (``as_saved``), when they
        decode to the buffer's text; else the text."""
        saved = as_saved(text, path)
        if saved is not None:
            result = parse(saved, path)
            if result.text == text.lstrip("\ufeff"):
                return result
        return parse(text, path)

    def context(self, parsed: BirdsParse, config: "Config", path: str | None) -> BirdsContext | None:
        return BirdsContext(parsed, parsed.model, config, path) if parsed.model is not None else None

    def explain(self, parsed: BirdsParse, name: str) -> tuple[Any, str]:
        """configMeta.xml: the trials it generates and their time; config.xml: its trials."""
        from sylla.grammar.birds.explain import explain, explain_generated, render_generated_text, render_text  # noqa: PLC0415 - lazy: the explain layout loads only for sylla explain

        model = parsed.model
        assert model is not None
        if model.kind == "meta":
            doc = explain(model)
            return doc, render_text(doc)
        generated = explain_generated(model)
        return generated, render_generated_text(generated)

    def core_severity(self, rule: "Rule", diag: Diagnostic) -> Severity:
        return diag.severity if rule.code in CORE_SEVERITY else rule.severity

    def prune(self, findings: Sequence["Finding"]) -> Sequence["Finding"]:
        specific = [f.span for f in findings if f.code != SCHEMA]
        return [
            f for f in findings
            if f.code != SCHEMA or not any(s.start <= f.span.start and f.span.end <= s.end for s in specific)
        ]

    def encode(self, original: bytes, text: str) -> bytes:
        """In the encoding the file was read in (the game writes UTF-16 declarations on ASCII
        files; a fix must leave the bytes in the shape it wrote them)."""

        return encode_like(decode(original), text)


BIRDS = BirdsSpec()


def as_saved(text: str, path: str | None) -> bytes | None:
    """The buffer as its file would be saved: in the encoding (and with the BOM) the file on
    disk has now; None for a buffer without a readable file.

    A Science Birds config's encoding problem (``encoding="utf-16"`` declared on ASCII bytes,
    B803) is a fact about bytes, which an editor buffer no longer has. Editors save a file in
    the encoding they opened it in, so parsing these bytes (they decode to the buffer's text,
    every span stays the same) lets the editor report what ``sylla lint`` reports for the file,
    before and after unsaved edits alike."""
    if path is None:
        return None
    try:
        if os.path.getsize(path) > MAX_BYTES:
            return None
        with open(path, "rb") as fh:
            decoded = decode(fh.read())
    except OSError:
        return None
    if decoded.text is None:
        return None
    try:
        return encode_like(decoded, text.lstrip("\ufeff"))
    except UnicodeError:
        return None
