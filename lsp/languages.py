"""What the language server answers for each language: one ``Editor`` per language.

The server (``server.py``) wires LSP messages to features without knowing the languages: it
asks the ``Editor`` of the document's language (``editor_for(analysis.language)``) for hover,
completion, folding, symbols, inlay hints and formatting, and a language without a feature has
None there, so the request gets no answer. Diagnostics and code actions are every language's
(they come from the linter's findings and fixes, ``diagnostics.py``, ``code_actions.py``).

A new language that the linter knows (``sylla.linter.languages``) is served with diagnostics
and fixes as soon as it has a row here; its features go in ``lsp/<language>_features.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from lsprotocol import types

from sylla.grammar.core import Span
from sylla.linter.languages import Language

from . import birds_features
from .completion import Context as CompletionContext
from .completion import complete
from .documents import Analysis
from .formatting import format_document
from .hover import hover
from .outline import folding_ranges, inlay_hints
from .positions import PositionMap
from .pygls_compat import Wire


@dataclass(frozen=True)
class CompletionRequest:
    """A completion request in plain values: the text, the cursor, what the client renders,
    and the task registry's names (read only for a language whose ``Editor.registry`` says so)."""

    text: str
    position: types.Position
    encoding: str
    snippets: bool
    markdown: bool
    registry: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Editor:
    """The editor features of one language; None: the request gets no answer."""

    name: Language
    #: hover over an offset of the parsed version
    hover: Callable[[Analysis, int], types.Hover | None] | None = None
    #: whether a hover may be answered on the event loop (its costly part is built already)
    hover_ready: Callable[[Analysis], bool] = lambda analysis: False
    complete: Callable[[CompletionRequest], types.CompletionList] | None = None
    #: completion reads only the text around the cursor: answered on the event loop
    complete_on_loop: bool = False
    #: completion offers the configured task registry's names (waits for the settings)
    registry: bool = False
    #: the outline (document symbols), written by the server once per version (``server.outline``)
    symbols: bool = False
    #: the folds of a parsed version, as the server sends them (``Wire``: JSON as it is)
    folding: Callable[[Analysis], Any] | None = None
    inlay_hints: Callable[[Analysis, Span], list[types.InlayHint]] | None = None
    format: Callable[[str, PositionMap], list[types.TextEdit] | None] | None = None
    #: while a new version parses, folds, hints and hover answer from the previous one (``stale``)
    stale: bool = False


def _complete_syllabus(request: CompletionRequest) -> types.CompletionList:
    positions = PositionMap(request.text, request.encoding)
    return complete(CompletionContext(
        text=request.text, offset=positions.offset(request.position), positions=positions,
        snippets=request.snippets, markdown=request.markdown, registry=request.registry,
    ))


def _complete_birds(request: CompletionRequest) -> types.CompletionList:
    return birds_features.complete(request.text, request.position, request.encoding, request.snippets, request.markdown)


def _fold_syllabus(analysis: Analysis) -> Wire:
    return Wire(analysis.view("folding", folding_ranges))


def _fold_birds(analysis: Analysis) -> list[types.FoldingRange]:
    return analysis.view("folding", birds_features.folding_ranges)


EDITORS: dict[Language, Editor] = {
    "syllabus": Editor(
        "syllabus", hover=hover, hover_ready=lambda analysis: analysis.has_schedule, complete=_complete_syllabus,
        complete_on_loop=True, registry=True, symbols=True, folding=_fold_syllabus, inlay_hints=inlay_hints,
        format=format_document, stale=True,
    ),
    "birds": Editor("birds", hover=birds_features.hover, complete=_complete_birds, folding=_fold_birds),
    "trials": Editor("trials"),  # diagnostics and fixes only
}


def editor_for(language: Language) -> Editor:
    return EDITORS[language]
