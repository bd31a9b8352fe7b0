"""Which open documents are syllabi, and their parsed analysis per version.

Editors send every JSON file they open; only syllabi (JSON/JSONC with ``instructions`` or a
``$phase``) get diagnostics and features, so that a ``package.json`` never gets a lint.
Parsing a large syllabus takes a while, so each request reuses the analysis of the version it
was asked about instead of parsing again.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import cached_property

from sylla.grammar.model import Block, Instruction, PhaseMark, Syllabus
from sylla.grammar.parse import ParseResult, parse
from sylla.grammar.schedule import Schedule, ScheduledBlock, schedule

from .positions import PositionMap

JSON_LANGUAGES = frozenset({"json", "jsonc", "json5"})
JSON_SUFFIXES = (".json", ".jsonc", ".json5")
_SYLLABUS_MARK = re.compile(r'"(?:instructions|\$phase)"\s*:')


def looks_like_json(uri: str, language_id: str | None) -> bool:
    if language_id and language_id.lower() in JSON_LANGUAGES:
        return True
    return uri.lower().split("?", 1)[0].endswith(JSON_SUFFIXES)


def is_syllabus_text(text: str) -> bool:
    """A syllabus names ``instructions`` or has a ``$phase``: cheap enough for every edit."""
    return _SYLLABUS_MARK.search(text) is not None


@dataclass
class Analysis:
    """One version of one document: the parse, its schedule and a position map."""

    uri: str
    version: int | None
    text: str
    encoding: str
    result: ParseResult

    @property
    def model(self) -> Syllabus | None:
        return self.result.model

    @cached_property
    def positions(self) -> PositionMap:
        return PositionMap(self.result.lines, self.encoding)

    @cached_property
    def schedule(self) -> Schedule | None:
        return schedule(self.model) if self.model is not None else None

    @cached_property
    def scheduled_by_block(self) -> dict[int, ScheduledBlock]:
        """Instruction index of each block -> its scheduled block."""
        if self.schedule is None:
            return {}
        return {sb.block.index: sb for sb in self.schedule.blocks}

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

    def phase_run(self, phase: PhaseMark):  # noqa: ANN201 - PhaseRun | None
        if self.schedule is None:
            return None
        for run in self.schedule.phases:
            if run.phase.index == phase.index:
                return run
        return None

    def scheduled(self, block: Block) -> ScheduledBlock | None:
        return self.scheduled_by_block.get(block.index)


class Documents:
    """The analysis cache of open syllabi, keyed by URI and version."""

    def __init__(self) -> None:
        self._cache: dict[str, Analysis] = {}
        self._lock = threading.Lock()

    def analyse(self, uri: str, version: int | None, text: str, encoding: str) -> Analysis:
        """The analysis of exactly this text (thread-safe; parses at most once per version)."""
        with self._lock:
            cached = self._cache.get(uri)
        if (
            cached is not None
            and cached.version == version
            and cached.encoding == encoding
            and (cached.text is text or cached.text == text)
        ):
            return cached
        analysis = Analysis(uri, version, text, encoding, parse(text, _path_of(uri)))
        with self._lock:
            self._cache[uri] = analysis
        return analysis

    def forget(self, uri: str) -> None:
        with self._lock:
            self._cache.pop(uri, None)


def _path_of(uri: str) -> str | None:
    from pygls.uris import to_fs_path

    return to_fs_path(uri)
