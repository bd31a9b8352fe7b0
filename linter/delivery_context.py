"""What a W910-W923 rule sees of a wave-3 delivery folder (``sylla lint DIR --trials json/``).

A delivery is read whole, once (``DeliveryModel``: the folder as ``grammar.trials.delivery``
reads it, with the trial files that tell each file's numbering and score its rows). Each of its
files is a document of the delivery language (``DeliveryFile``: its text and line index, the
shared model), linted by the one engine in turn; its rules see one file at a time
(``DeliveryContext``) and report what concerns that file. A missing deliverable is a document
with no text, where the finding that it is missing stands.

Apart from the descriptor (``delivery.py``) so that the rules import their context from below
the engine and the registry (issue 28: no cycles).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sylla.grammar.core import Diagnostic, LineIndex, Severity, Span
from sylla.grammar.trials.delivery import Delivery, Note, Table, read_delivery
from sylla.grammar.trials.scoring import Scorer, load_trials

from .document_context import DocumentContext
from .finding import Finding

if TYPE_CHECKING:
    from .rule import Rule

#: the deliverables whose absence is W910, in the order the request lists them
TABLES = ("predictions.csv", "bests.csv", "samples.csv")
DESCRIPTION = "description.md"


class DeliveryFile:
    """One file of a delivery, in the shape the engine and reporters read of any parse; the
    line index is built only when something asks for a position (a clean 200,000-row file
    needs none)."""

    syntax_ok = True

    def __init__(self, model: "DeliveryModel", path: str, text: str) -> None:
        self.model = model
        self.path = path
        self.text = text
        self.diagnostics: list[Diagnostic] = []  # the delivery's reading records deviations as notes, which rules report
        self._lines: LineIndex | None = None

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines


@dataclass
class DeliveryModel:
    """The delivery folder as read, the trial files it is checked against, and its documents."""

    folder: str
    delivery: Delivery
    scorer: Scorer
    trials: dict[tuple[int, int], Any]
    trial_errors: list[str]
    #: path -> the document of that file: every file the delivery has or lacks, and every part of split samples
    documents: dict[str, DeliveryFile] = field(default_factory=dict)
    #: computations that several rules share, by key (a table's row checks)
    memo: dict[Any, Any] = field(default_factory=dict)

    @property
    def problems(self) -> list[int]:
        """The problems a complete delivery covers: those of the trial files, else all 100."""
        return sorted({p for p, _ in self.trials}) or list(range(1, 101))

    def tables(self) -> list[tuple[str, Table | None]]:
        """The three CSV deliverables by the request's names, None when missing."""
        d = self.delivery
        return [("predictions.csv", d.predictions), ("bests.csv", d.bests), ("samples.csv", d.samples)]

    def table_at(self, path: str | None) -> Table | None:
        """The table whose own file is ``path`` (for split samples: the first part)."""
        return next((t for _, t in self.tables() if t is not None and t.path == path), None)

    def path_of(self, name: str) -> str:
        """Where a deliverable of the request's name is, or would be."""
        return os.path.join(self.folder, name)

    def notes(self, path: str | None) -> list[Note]:
        """The reading's notes about the file at ``path``, in the order they were made."""
        return [note for _, table in self.tables() if table is not None
                for note in table.notes if (note.path if note.path and note.path != table.path else table.path) == path]


def read_model(folder: str, trials_folder: str | None) -> DeliveryModel:
    """Read a delivery folder (and the trial files, when given) into its documents."""
    trials, errors = load_trials(trials_folder) if trials_folder else ({}, [])
    scorer = Scorer(trials)
    model = DeliveryModel(folder, read_delivery(folder, scorer.shown_examples), scorer, trials, errors)
    docs = model.documents

    def add(path: str, text: str) -> None:
        if path not in docs:
            docs[path] = DeliveryFile(model, path, text)

    for name, table in model.tables():
        if table is None:
            add(model.path_of(name), "")
            continue
        add(table.path, table.text)
        for note in table.notes:
            if note.path and note.path != table.path:
                add(note.path, table.texts.get(note.path, ""))
    description = model.path_of(DESCRIPTION)
    docs[description] = DeliveryFile(model, description, model.delivery.description or "")
    return model


@dataclass
class DeliveryContext(DocumentContext[DeliveryFile, DeliveryModel]):
    """One file of the delivery: the rules report what concerns this file only."""

    @property
    def table(self) -> Table | None:
        """The table whose own file this is, if any."""
        return self.model.table_at(self.path)

    def is_file(self, name: str) -> bool:
        """Whether this document is the deliverable ``name`` (present or missing)."""
        return self.path == self.model.path_of(name)

    def at(self, rule: "Rule", message: str, line: int = 0, column: int = 1, severity: str | None = None) -> Finding:
        """A finding from ``column`` of ``line`` (1-based) to the line's end; line 0: the file
        as a whole, at its start. ``severity``: this finding's own, else the rule's."""
        lines = self.lines
        start = lines.offset(line, column) if line else 0
        end = lines.offset(line, len(lines.line_text(line)) + 1) if line else start
        return Finding(rule.code, rule.name, Severity(severity) if severity else rule.severity, message, Span(start, end))
