"""The languages sylla lints, told apart by content: one row per language. One entry point for every caller.

Each row (``LANGUAGES``) is a language's detection by content and the module of its
descriptor (``language.LanguageSpec``: parse, rule context, the engine's hooks). Detection is
asked of every file in a folder walk and of every document an editor opens, so it must not load
a parser (issue 24); the descriptor module is imported when a file of the language is linted.
Rows are asked in order: Science Birds configs (XML, by root element), wave-3 trial files (JSON
with ``id``, ``program``, ``data``), then syllabi (``Config.is_syllabus``).

- ``language_of(path, data, config) -> Language | None``: whether and how to lint a file found
  in a folder walk (a file that is none gets no finding at all);
- ``spec_for(language) -> LanguageSpec``: the language's descriptor;
- ``lint_text(data, path=None, config=None, language=None) -> LintResult``: lint a file or an
  editor buffer in its language (given, or by content); the result has one shape for every
  language (``findings``, ``parse.lines``, ``text``), so reporters and the language server
  need no second code path;
- ``encode_fixed(original, text, language=None) -> bytes``: the bytes to write after
  ``--fix``, in the encoding and with the byte-order mark the file had.
"""

from __future__ import annotations

import importlib

from sylla.grammar.birds.detect import claims
from sylla.grammar.no_typing import TYPE_CHECKING
from sylla.grammar.record import record

from .config import Config
from .engine import run
from .rules import Language

if TYPE_CHECKING:
    from typing import Any, Callable

    from .engine import LintResult
    from .language import LanguageSpec

__all__ = ["LANGUAGES", "Language", "encode_fixed", "language_of", "lint_text", "spec_for", "wants_file"]


def is_birds(data: bytes | str, path: str | None = None) -> bool:
    """A Science Birds config: by its root element, or an XML file (``*.xml``, or text that
    starts like XML) whose root cannot be read for bytes XML cannot hold (``detect.claims``)."""
    return claims(data, path)


def is_trials(data: bytes | str) -> bool:
    """A wave-3 trial file (``{"id": "cPPP", "program": ..., "data": [...]}``), by content."""
    from sylla.grammar.trials.detect import is_trial_file  # noqa: PLC0415 - lazy: start-up, the detector loads only when a JSON file is asked about

    return is_trial_file(data)


def is_syllabus(data: bytes | str, path: str | None, config: Config) -> bool:
    return config.is_syllabus(path, data)


@record(frozen=True)
class Row:
    """One language: its detection by content, the module and name of its descriptor, and
    which file endings a folder walk opens to ask the detection."""

    name: Language
    detect: Callable[[bytes | str, str | None, Config], bool]
    spec: str  # "module:NAME", relative to this package
    suffixes: tuple[str, ...]


#: every language, in the order detection asks them
LANGUAGES: tuple[Row, ...] = (
    Row("birds", lambda data, path, config: is_birds(data, path), ".birds:BIRDS", (".xml",)),
    Row("trials", lambda data, path, config: is_trials(data), ".trials:TRIALS", (".json",)),
    Row("syllabus", is_syllabus, ".syllabus:SYLLABUS", (".json", ".jsonc")),
)
_ROWS = {row.name: row for row in LANGUAGES}
#: the language of a text that no other row claims: the syllabus core then says what is wrong with it
FALLBACK: Language = "syllabus"


def spec_for(language: Language) -> "LanguageSpec[Any, Any]":
    """The descriptor of ``language`` (its module imports on first use)."""
    module, _, name = _ROWS[language].spec.partition(":")
    spec: LanguageSpec[Any, Any] = getattr(importlib.import_module(module, __package__), name)
    return spec


def language_of(path: str | None, data: bytes | str, config: Config | None = None) -> Language | None:
    """The language of a file, or None when sylla has nothing to say about it."""
    config = config or Config()
    for row in LANGUAGES:
        if row.detect(data, path, config):
            return row.name
    return None


def content_language(data: bytes | str, path: str | None = None) -> Language:
    """The language whose detection claims ``data`` (at ``path``, whose ending a broken file's
    detection may ask) first, else ``FALLBACK``: what a text given to be linted is read as,
    whatever the config's ``syllabi`` globs say."""
    defaults = Config()
    for row in LANGUAGES:
        if row.name != FALLBACK and row.detect(data, path, defaults):
            return row.name
    return FALLBACK


def lint_text(
    data: bytes | str, path: str | None = None, config: Config | None = None, *, parsed: object | None = None,
    language: Language | None = None,
) -> "LintResult[Any]":
    """Lint ``data`` in ``language``, or (None) in the language its content is in; a text that is
    in none is linted as a syllabus (``content_language``).

    ``parsed`` is the text's parse in that language when the caller already has it: the
    language server shares one parse per version between the lint and its features, and
    passes the language the document is served in, so an open config whose root element is
    being retyped keeps being linted as XML."""
    return run(spec_for(language or content_language(data, path)), data, path, config, parsed=parsed)


def encode_fixed(original: bytes, text: str, language: Language | None = None) -> bytes:
    """``text`` encoded as ``original`` was, as its language writes it (``LanguageSpec.encode``)."""
    return spec_for(language or content_language(original)).encode(original, text)


def wants_file(name: str) -> bool:
    """Whether a folder walk should open this file to ask what it is."""
    return name.lower().endswith(tuple(s for row in LANGUAGES for s in row.suffixes))
