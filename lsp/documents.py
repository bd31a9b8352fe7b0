"""Which open documents sylla serves, in which language, and their parsed analysis per version.

Editors send every JSON and XML file they open; only syllabi (JSON) and Science Birds trial
configs (XML whose root is ``<config_generation>`` or ``<evaluation>``) get diagnostics and
features, so that a ``package.json``, an assistant config or a ``pom.xml`` never gets a lint.
The decision is the project's one (``sylla.linter.languages.language_of``, which asks
``Config.is_syllabus`` for JSON: the same the CLI and the pre-commit hook use), made sticky per
open document: once a document has been linted in a language it stays in it until it is closed,
so an edit that breaks it for a moment (deleting ``"instructions"``, retyping the root element)
gets findings, not silence. Parsing a large file takes a while, so each request reuses the
analysis of the version it was asked about instead of parsing again, and a new version of a
syllabus is parsed from the previous one (``sylla.grammar.syllabus.incremental``): the instructions an
edit touches, or the top level around the instruction list, with the same result as a full parse.
"""

from __future__ import annotations

import operator
import os
import threading
import time
from bisect import bisect_left
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, TypeVar

from sylla.grammar.birds.parse import BirdsParse
from sylla.grammar.syllabus.model import Block, Instruction, PhaseMark, Syllabus
from sylla.grammar.syllabus.parse import ParseResult
from sylla.grammar.syllabus.schedule import PhaseRun, Schedule, ScheduledBlock, schedule
from sylla.linter.languages import FALLBACK, Language, language_of, reads_suffix, spec_for

from .positions import PositionMap

V = TypeVar("V")

JSON_LANGUAGES = frozenset({"json", "jsonc", "json5"})
JSON_SUFFIXES = (".json", ".jsonc", ".json5")
XML_LANGUAGES = frozenset({"xml"})
XML_SUFFIXES = (".xml",)


def _suffix(uri: str) -> str:
    return uri.lower().split("?", 1)[0]


def looks_like_json(uri: str, language_id: str | None) -> bool:
    if language_id and language_id.lower() in JSON_LANGUAGES:
        return True
    return _suffix(uri).endswith(JSON_SUFFIXES)


def looks_like_xml(uri: str, language_id: str | None) -> bool:
    if language_id and language_id.lower() in XML_LANGUAGES:
        return True
    return _suffix(uri).endswith(XML_SUFFIXES)


def served(uri: str, language_id: str | None) -> bool:
    """Whether the server looks at this document at all (its content then decides)."""
    return looks_like_json(uri, language_id) or looks_like_xml(uri, language_id)


@dataclass
class Analysis:
    """One version of one document: the parse, its schedule and a position map.

    ``result`` is the parse in ``language`` (a syllabus ``ParseResult``, a ``BirdsParse``, ...);
    ``model`` and everything built on it are the syllabus model only, and ``birds`` the Science
    Birds parse only, each by the parse's type, so a feature handed another language's analysis
    finds nothing rather than the wrong thing."""

    uri: str
    version: int | None
    text: str
    encoding: str
    result: Any
    language: Language = FALLBACK
    _views: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    _views_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)
    _check_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False, compare=False)

    def checked(self, between: Callable[[], None] | None = None) -> Any:
        """The parse with the checks its first parse left for later made (``LanguageSpec.checked``:
        a just-opened syllabus's schema check, which the features never wait for): what the
        lint reads. Made once per version; it then stands as ``result`` (the same model), so
        that the next version is parsed from a checked parse and carries its checks over."""
        with self._check_lock:
            done = spec_for(self.language).checked(self.result, between)
            self.result = done
            return done

    def has_view(self, name: str) -> bool:
        """Whether ``view(name, ...)`` is already built: a request can then answer on the
        event loop, without handing the work to a thread and waiting for it to be scheduled
        (on a busy machine each such hand-over costs milliseconds to tens of milliseconds)."""
        return name in self._views

    def view(self, name: str, build: Callable[["Analysis"], V]) -> V:
        """``build(self)``, computed once per version: the editor asks for symbols, folds and
        hints after every change, often twice for the same version."""
        with self._views_lock:
            if name not in self._views:
                self._views[name] = build(self)
            return self._views[name]

    @property
    def model(self) -> Syllabus | None:
        return self.result.model if isinstance(self.result, ParseResult) else None

    @property
    def birds(self) -> BirdsParse | None:
        """The Science Birds parse, for a Science Birds config."""
        return self.result if isinstance(self.result, BirdsParse) else None

    @cached_property
    def positions(self) -> PositionMap:
        """Offsets of the parse <-> positions in the client's buffer, which may begin with a
        byte-order mark that the parse dropped (its column still counts on line 0)."""
        bom = self.text.startswith("\ufeff") and not self.result.text.startswith("\ufeff")
        return PositionMap(self.result.lines, self.encoding, bom=bom)

    @cached_property
    def schedule(self) -> Schedule | None:
        return schedule(self.model) if self.model is not None else None

    @property
    def has_schedule(self) -> bool:
        """Whether ``schedule`` is built (see ``has_view``)."""
        return "schedule" in self.__dict__

    @cached_property
    def phase_ends(self) -> dict[int, int]:
        """Instruction index of each phase mark -> where the last instruction before the next
        phase ends: one pass, where a scan per phase costs a tenth of a second at 500 KB."""
        ends: dict[int, int] = {}
        current: int | None = None
        for instruction in self.model.instructions if self.model is not None else ():
            if isinstance(instruction, PhaseMark):
                current = instruction.index
            if current is not None:
                ends[current] = instruction.span.end
        return ends

    def instruction_at(self, offset: int) -> Instruction | None:
        """The instruction whose span holds ``offset`` (instructions are in text order)."""
        if self.model is None:
            return None
        items = self.model.instructions
        lo, hi = 0, len(items)
        while lo < hi:
            mid = (lo + hi) // 2
            if items[mid].span.end <= offset:
                lo = mid + 1
            else:
                hi = mid
        if lo < len(items) and items[lo].span.start <= offset < items[lo].span.end:
            return items[lo]
        return None

    def phase_run(self, phase: PhaseMark) -> PhaseRun | None:
        if self.schedule is None:
            return None
        for run in self.schedule.phases:
            if run.phase.index == phase.index:
                return run
        return None

    def scheduled(self, block: Block) -> ScheduledBlock | None:
        """The scheduled block of ``block``: a bisection, since the schedule keeps the
        instructions' order (a dict of all 5,000 blocks would cost the first hover of every
        version a pass over them)."""
        if self.schedule is None:
            return None
        blocks = self.schedule.blocks
        i = bisect_left(blocks, block.index, key=_block_index)
        return blocks[i] if i < len(blocks) and blocks[i].block.index == block.index else None


class Documents:
    """The analysis cache of open syllabi and Science Birds configs, keyed by URI and version."""

    def __init__(self) -> None:
        self._cache: dict[str, Analysis] = {}
        self._lock = threading.Lock()
        self._languages: dict[str, Language] = {}
        self._pending: dict[str, tuple[int | None, str, Future[Analysis], Language]] = {}

    def language(self, uri: str, text: str, config: Any, *, xml: bool = False) -> Language | None:
        """The language to serve this document in, or None to leave it alone: once linted in
        one, that one (until closed); otherwise ``language_of`` with the file's config (the
        defaults when the config cannot be read). An XML document is only ever in a language
        whose files are XML (a Science Birds config), whatever its text looks like to the
        syllabus sniffer."""
        known = self._languages.get(uri)
        if known is not None:
            return known
        found = language_of(_path_of(uri), text, config)
        if xml and found is not None and not reads_suffix(found, ".xml"):
            return None
        return found

    def linted_as(self, uri: str, language: Language) -> None:
        """Remember that ``uri`` was linted in ``language`` (see ``language``)."""
        self._languages[uri] = language

    def analyse(self, uri: str, version: int | None, text: str, encoding: str, language: Language = FALLBACK) -> Analysis:
        """The analysis of exactly this text (thread-safe).

        Parses at most once per version: the lint and every feature request for the same
        version share one parse, and a caller that arrives while that parse runs waits for it
        instead of starting a second one (on a 500 KB syllabus a parse takes a third of a
        second, and two at once also fight over the GIL). A new version that arrives while an
        earlier one is parsed waits for that parse too, and is parsed from it: the first edit
        typed while a just-opened 500 KB syllabus is parsed was parsed whole, beside the open's
        parse (its schema checks of thousands of distinct instructions, 0.9 s of CPU in a
        fresh server), and its outline came after both.
        """
        earlier: Future[Analysis] | None = None
        with self._lock:
            cached = self._cache.get(uri)
            if (
                cached is not None and cached.version == version and cached.language == language
                and (cached.text is text or cached.text == text)
            ):
                if cached.encoding == encoding:
                    return cached
                return Analysis(uri, version, text, encoding, cached.result, language)
            pending = self._pending.get(uri)
            if (
                pending is not None and pending[0] == version and pending[3] == language
                and (pending[1] is text or pending[1] == text)
            ):
                future, owner = pending[2], False
            else:
                if pending is not None and pending[3] == language:
                    earlier = pending[2]
                future, owner = Future(), True
                self._pending[uri] = (version, text, future, language)
        if not owner:
            shared: Analysis = future.result()
            return shared if shared.encoding == encoding else Analysis(uri, version, text, encoding, shared.result, language)
        try:
            if HOLD_PARSE:
                _held(version)
            if earlier is not None:
                try:
                    cached = earlier.result()
                except Exception:  # noqa: BLE001 - its owner reports it; this version parses without it
                    pass
            previous = cached if cached is not None and cached.language == language else None
            analysis = Analysis(uri, version, text, encoding, _parse(language, text, _path_of(uri), previous), language)
        except BaseException as exc:
            with self._lock:
                if self._pending.get(uri, (None, None, None, None))[2] is future:
                    del self._pending[uri]
            future.set_exception(exc)
            raise
        with self._lock:
            if self._pending.get(uri, (None, None, None, None))[2] is future:
                del self._pending[uri]
                self._cache[uri] = analysis  # else a newer version is being parsed: keep out of its way
        future.set_result(analysis)
        return analysis

    def ready(self, uri: str, version: int | None, text: str, language: Language) -> bool:
        """Whether the analysis of exactly this version is already parsed."""
        with self._lock:
            cached = self._cache.get(uri)
        return (
            cached is not None and cached.version == version and cached.language == language
            and (cached.text is text or cached.text == text)
        )

    def cached(self, uri: str, version: int | None, text: str, encoding: str, language: Language) -> Analysis | None:
        """The analysis of exactly this version if it is parsed (what ``analyse`` would return
        at once), else None; never parses."""
        with self._lock:
            cached = self._cache.get(uri)
        if not (
            cached is not None and cached.version == version and cached.language == language
            and (cached.text is text or cached.text == text)
        ):
            return None
        return cached if cached.encoding == encoding else Analysis(uri, version, text, encoding, cached.result, language)

    def latest(self, uri: str) -> Analysis | None:
        """The most recent completed analysis of ``uri``, whatever its version."""
        with self._lock:
            return self._cache.get(uri)

    def forget(self, uri: str) -> None:
        with self._lock:
            self._cache.pop(uri, None)
            self._pending.pop(uri, None)
        self._languages.pop(uri, None)


_block_index = operator.attrgetter("block.index")

#: A test hook, never set outside the tests: a folder in which the parse of version V of a
#: document waits until a file named V, or a later version's number, exists. Tests of what
#: is answered or published while a parse runs (tests/lsp/test_stale.py, the burst of edits in
#: test_robustness.py) hold the parse with it, so that their requests find it running however
#: fast the parse is and however busy the machine, and release it by writing the file. Unset,
#: it costs one test of a module constant per parse.
HOLD_PARSE = os.environ.get("SYLLA_TEST_HOLD_PARSE", "")


def _held(version: int | None) -> None:
    """Wait (in the parsing thread) until the test releases ``version``'s parse."""
    while not any(name.isdigit() and int(name) >= (version or 0) for name in os.listdir(HOLD_PARSE)):
        time.sleep(0.005)


def _parse(language: Language, text: str, path: str | None, previous: Analysis | None = None) -> Any:
    """Parse one version as its language parses an editor buffer, with the checks only the
    lint needs left for ``Analysis.checked`` (a syllabus: its schema check, nine tenths of the
    first parse of 500 KB); from the previous version's parse when the language can (a
    syllabus: the same result as a full parse, in a tenth of the time at 500 KB)."""
    spec = spec_for(language)
    if previous is not None:
        result = spec.reparse(previous.result, text, path)
        if result is not None:
            return result
    return spec.parse_unchecked(text, path)


def _path_of(uri: str) -> str | None:
    from pygls.uris import to_fs_path  # noqa: PLC0415 - lazy: start-up, pygls loads only when used

    return to_fs_path(uri)
