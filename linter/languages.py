"""The languages sylla lints, told apart by content: syllabi (JSON), Science Birds trial
configs (XML, by root element) and wave-3 trial files (JSON with ``id``, ``program``, ``data``). One entry point for every caller.

- ``language_of(path, data, config) -> "syllabus" | "birds" | None``: whether and how to lint a
  file found in a folder walk (a file that is neither gets no finding at all);
- ``lint_text(data, path=None, config=None) -> LintResult``: lint a file or an editor buffer in
  whichever language its content is; the result has one shape for both (``findings``,
  ``parse.lines``, ``text``), so reporters and the language server need no second code path;
- ``encode_fixed(original, text) -> bytes``: the bytes to write after ``--fix``, in the encoding
  and with the byte-order mark the file had.

The decision "is this XML a Science Birds config" is ``sylla.grammar.birds.birds_kind`` (root
element, never the file name); "is this JSON a syllabus" stays ``Config.is_syllabus``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from sylla.grammar.birds.detect import birds_kind

from .config import Config
from .engine import lint
from .write import encode_like

if TYPE_CHECKING:
    from .engine import LintResult

Language = Literal["syllabus", "birds", "trials"]

#: folder walks open only files with these endings to look for a Science Birds root element
BIRDS_SUFFIXES = (".xml",)


def is_birds(data: bytes | str) -> bool:
    return birds_kind(data) is not None


def is_trials(data: bytes | str) -> bool:
    """A wave-3 trial file (``{"id": "cPPP", "program": ..., "data": [...]}``), by content."""
    from sylla.grammar.trials.detect import is_trial_file  # noqa: PLC0415 - lazy: start-up, lark loads only when used

    return is_trial_file(data)


def language_of(path: str | None, data: bytes | str, config: "Config | None" = None) -> Language | None:
    """The language of a file, or None when sylla has nothing to say about it."""
    if is_birds(data):
        return "birds"
    if is_trials(data):
        return "trials"
    return "syllabus" if (config or Config()).is_syllabus(path, data) else None


def lint_text(
    data: bytes | str, path: str | None = None, config: "Config | None" = None, *, parsed: object | None = None
) -> "LintResult":
    """Lint ``data`` as a Science Birds config when its root element says so, else as a syllabus.

    ``parsed`` is the text's parse in its language (a ``BirdsParse`` or a syllabus
    ``ParseResult``) when the caller already has it: the language server shares one parse per
    version between the lint and hover. Its type, not the content, then says the language, so
    an open config whose root element is being retyped keeps being linted as XML."""
    if parsed is not None:
        from sylla.grammar.birds.parse import BirdsParse  # noqa: PLC0415 - lazy: start-up, the Science Birds parser loads only for a config or a caller that parsed one

        birds = isinstance(parsed, BirdsParse)
    else:
        birds = is_birds(data)
    if birds:
        from .birds import lint_birds  # noqa: PLC0415 - lazy: start-up, the Science Birds model and rules load only for a config

        return lint_birds(data, path, config, parsed=parsed)
    if is_trials(data):
        from .trials import lint_trials  # noqa: PLC0415 - lazy: start-up, lark loads only when used

        return lint_trials(data, path, config)
    return lint(data, path, config, parsed=parsed)  # type: ignore[arg-type]  # parsed is a syllabus ParseResult here: a BirdsParse went to lint_birds above


def encode_fixed(original: bytes, text: str) -> bytes:
    """``text`` encoded as ``original`` was (see ``sylla.linter.write.encode_like``)."""
    return encode_like(original, text)


def wants_file(name: str) -> bool:
    """Whether a folder walk should open this file to look for a Science Birds root element."""
    return name.lower().endswith(BIRDS_SUFFIXES)
