"""What one input language gives the lint engine: a ``LanguageSpec``.

sylla lints several languages (syllabus JSON, Science Birds XML, wave-3 trial files) with one
engine (``engine.run``): parse, turn the core's diagnostics into findings, run the language's
rules on its rule context, filter, set severities, sort. What differs between languages is
small and lives in one descriptor per language, a subclass of ``LanguageSpec``:

- ``name``: the language, which is also what each of its rules declares (``Rule.language``);
- ``parse(data, path)``: the core's parse (text, line index, model, diagnostics);
- ``context(parsed, config, path)``: what the rules see (None: no model to check);
- ``explain(parsed, name)``: what ``sylla explain`` shows of a file that parsed (a document for
  ``--format json`` and its text);
- the optional hooks below (rules held back while the structure has a typo, a diagnostic's own
  severity, findings dropped in favour of more specific ones, suppression comments, the order of
  findings, what the lint inferred (a syllabus's type), the bytes a fixed text is written as,
  whether ``sylla fmt`` formats the language, and how an editor buffer is parsed and reparsed).

Each descriptor lives in ``linter/<language>.py``, beside its language's rule context. ``linter/languages.py`` lists the languages: each row is the language's
detection by content (cheap: every file of a folder walk is asked, and the answer must not load
a parser, issue 24) and the module of its descriptor, imported when a file of it is linted.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from sylla.grammar.core import Diagnostic, LineIndex, Severity
from sylla.kit.no_typing import TYPE_CHECKING

from .rules import Language
from .write import encode_utf8_like

if TYPE_CHECKING:
    from typing import Any, Callable, ClassVar, Generic, Protocol, Sequence, TypeVar

    from .config import Config  # the rules import config's selectors check; the engine only passes it on
    from .finding import Finding
    from .rule import Rule
    from .suppress import Suppressions
else:  # subscriptable bases, without importing typing (start-up, issue 24)
    from sylla.kit.no_typing import Generic, Protocol, TypeVar


class Parsed(Protocol):
    """What reporters and the fix loop read of any parse: the text, its line index, and
    whether the syntax is clean enough for fixes (a delivery's CSV file has these too)."""

    @property
    def text(self) -> str: ...

    @property
    def lines(self) -> LineIndex: ...

    @property
    def syntax_ok(self) -> bool: ...


class CoreParse(Parsed, Protocol):
    """A parse the engine lints: also the core's diagnostics and the typed model."""

    @property
    def diagnostics(self) -> list[Diagnostic]: ...

    @property
    def model(self) -> Any: ...


P = TypeVar("P", bound=CoreParse)
C = TypeVar("C")


class LanguageSpec(ABC, Generic[P, C]):
    """One language as the engine sees it; subclasses set ``name`` and the three abstract
    functions (a descriptor that forgets one cannot be created)."""

    name: ClassVar[Language]

    @abstractmethod
    def parse(self, data: str | bytes, path: str | None) -> P:
        """The core's parse of the file's bytes or text."""

    @abstractmethod
    def context(self, parsed: P, config: "Config", path: str | None) -> C | None:
        """What the rules see; None when there is no model (no rule can run)."""

    @abstractmethod
    def explain(self, parsed: P, name: str) -> tuple[Any, str]:
        """The ``sylla explain`` document of a file whose syntax is clean, and its text."""

    # -- hooks: the defaults are what a plain language needs ------------------------------------
    def held_back(self, ctx: C) -> Callable[["Rule"], bool] | None:
        """Which rules wait this time (the syllabus: structural rules while the structure has a
        typo, so that only the typo is reported); None: none."""
        return None

    def core_severity(self, rule: "Rule", diag: Diagnostic) -> Severity:
        """The severity of the finding a core diagnostic becomes: its rule's."""
        return rule.severity

    def prune(self, findings: Sequence["Finding"]) -> Sequence["Finding"]:
        """Drop findings that a more specific one already says (before the config's filters)."""
        return findings

    def suppressions(self, parsed: P) -> "Suppressions | None":
        """The suppression comments of the text, if the language has them."""
        return None

    def order(self, findings: Sequence["Finding"]) -> list["Finding"]:
        """The findings as reported: by span (start, then end), then code."""
        return sorted(findings, key=lambda f: (f.span.start, f.span.end, f.code))

    def inferred(self, ctx: C | None) -> object | None:
        """What the lint learned of the file beyond its findings, carried on the result
        (``LintResult.inferred``; a syllabus: the type it was linted as); None: nothing."""
        return None

    #: what ``sylla fmt`` calls a file of this language that it leaves as it is (it has no
    #: printer); None: the language's files are JSON, which the printer formats
    unformatted: ClassVar[str | None] = None

    # -- the editor: a buffer is parsed once per version -----------------------------------------
    def parse_buffer(self, text: str, path: str | None) -> P:
        """The parse of an editor buffer (its text, the file at ``path`` on disk): the text's."""
        return self.parse(text, path)

    def reparse(self, previous: P, text: str, path: str | None) -> P | None:
        """A new version of a buffer parsed from the previous version's parse, with the same
        result as a full parse; None: the language parses each version whole. A parse whose
        checks were left for later (``parse_unchecked``) gives one whose checks are too."""
        return None

    def parse_unchecked(self, text: str, path: str | None) -> P:
        """The parse of an editor buffer with the checks only findings need left for
        ``checked``: what the editor's outline, hover and completion answer from while the
        lint makes them (a syllabus: its schema check). By default, ``parse_buffer``'s."""
        return self.parse_buffer(text, path)

    def checked(self, parsed: P, between: Callable[[], None] | None = None) -> P:
        """``parsed`` with the checks ``parse_unchecked`` left for later made: the parse
        ``parse_buffer`` gives, which the lint reads; ``between`` is called between steps of
        them (the editor's requests go first there)."""
        return parsed

    def encode(self, original: bytes, text: str) -> bytes:
        """The bytes to write for a fixed ``text`` of a file whose bytes were ``original``:
        UTF-8, with the byte-order mark the file had."""
        return encode_utf8_like(original, text)
