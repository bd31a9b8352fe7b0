"""The languages sylla lints, told apart by content: one row per language. One entry point for every caller.

Each row (``LANGUAGES``) is a language's detection by content and the module of its
descriptor (``language.LanguageSpec``: parse, rule context, the engine's hooks). Detection is
asked of every file in a folder walk and of every document an editor opens, so it must not load
a parser (issue 24); the descriptor module is imported when a file of the language is linted.
Rows are asked in order: Science Birds configs (XML, by root element), wave-3 trial files (JSON
with ``id``, ``program``, ``data``), then syllabi (``Config.is_syllabus``).

- ``language_of(path, data, config) -> Language | None``: whether and how to lint a file found
  in a folder walk (a file that is none gets no finding at all; a binary file, which no
  detection can read, is linted in the language its name or first character names, so that
  its decoder says what is wrong with it: a binary file is never passed unread, issue 38);
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
from sylla.grammar.syllabus.detect import is_binary, sniff_text
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record

from .config import Config
from .engine import run
from .rules import Language

if TYPE_CHECKING:
    from typing import Any, Callable

    from .engine import LintResult
    from .language import LanguageSpec

__all__ = ["LANGUAGES", "Language", "encode_fixed", "language_of", "lint_text", "reads_suffix", "spec_for", "wants_file"]


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
    """One language: its detection by content (None: the command line names it), the module
    and name of its descriptor, and which file endings a folder walk opens to ask the detection."""

    name: Language
    detect: Callable[[bytes | str, str | None, Config], bool] | None
    spec: str  # "module:NAME", relative to this package
    suffixes: tuple[str, ...]
    #: the first character (after a byte-order mark and blanks) of a file of the language: what
    #: a binary file that no detection claims is sniffed by (``binary_language``); empty for a
    #: language whose detection decides binary files itself (a Science Birds config's reads the
    #: bytes that stop its root, and leaves other XML alone)
    opens: tuple[str, ...] = ()


#: every language, in the order detection asks them
LANGUAGES: tuple[Row, ...] = (
    Row("birds", lambda data, path, config: is_birds(data, path), ".birds:BIRDS", (".xml",)),
    Row("trials", lambda data, path, config: is_trials(data), ".trials:TRIALS", (".json",), ("{",)),
    Row("syllabus", is_syllabus, ".syllabus:SYLLABUS", (".json", ".jsonc"), ("{", "[")),
    # never by content: the folder given with ``sylla lint DIR --trials json/`` (its CSV files look like any CSV)
    Row("delivery", None, ".delivery:DELIVERY", ()),
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
        if row.detect is not None and row.detect(data, path, config):
            return row.name
    return binary_language(path, data)


def reads_suffix(language: Language, suffix: str) -> bool:
    """Whether files of ``language`` end in ``suffix`` (``.xml``): an editor that says what a
    document is (its language id) leaves only the languages of that kind of file to content."""
    return suffix in _ROWS[language].suffixes


def binary_language(path: str | None, data: bytes | str) -> Language | None:
    """The language a binary file (``is_binary``: a NUL byte) that no detection claims is
    linted in, or None when it is not binary or names none.

    Tools skip such a file as binary, and a lint that skips it passes it: the pre-commit hook
    said "All checks passed" on a syllabus holding a NUL byte, while the editor reported the
    NUL (issue 38). So a binary file whose name ends like a language's files, or whose first
    character opens one, is linted in that language, whose decoder then reports it; when
    several languages fit, the fallback language, whose core says what is wrong with any text.
    A binary file of any other name and start (an image, an archive) is still skipped, and so
    is one a language's own detection has decided (``Row.opens`` empty: XML is a Science Birds
    config's detection's to claim)."""
    if not is_binary(data):
        return None
    name = (path or "").lower()
    rows = [row for row in LANGUAGES if row.opens]  # the others' detection decided already
    fits = [row.name for row in rows if name.endswith(row.suffixes)]
    if not fits:
        first = sniff_text(data[:4096]).lstrip("\ufeff \t\r\n\x00")[:1]
        fits = [row.name for row in rows if first and first in row.opens]
    if not fits:
        return None
    return FALLBACK if FALLBACK in fits else fits[0]


def content_language(data: bytes | str, path: str | None = None) -> Language:
    """The language whose detection claims ``data`` (at ``path``, whose ending a broken file's
    detection may ask) first, else ``FALLBACK``: what a text given to be linted is read as,
    whatever the config's ``syllabi`` globs say (a binary file no detection claims: the
    language its name or first character names, ``binary_language``)."""
    defaults = Config()
    for row in LANGUAGES:
        if row.name != FALLBACK and row.detect is not None and row.detect(data, path, defaults):
            return row.name
    return binary_language(path, data) or FALLBACK


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
