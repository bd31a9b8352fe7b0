"""W913: run, order or trial is numbered from 0, or its numbering cannot be told."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import NoteRule
from ._trials import trials_doc


class DeliveryNumbering(NoteRule):
    code, name, severity = "W913", "delivery-numbering", Severity.WARNING
    __doc__ = trials_doc(
        "run, order or trial is numbered from 0, or its numbering cannot be told.",
        "`run`, `order` and `trial` are 1-based (runs 1..5, orderings 1..5, trials 1..11). A column is read as numbered "
        "from 0, shifted and said once, when some row allows only that (a 0; with the trial files, an input that is its "
        "test example only then) and no row allows only the request's numbering (a 5, 5 or 11). With rows of both kinds "
        "the numbering cannot be told: an error that names both, and the column is read as written and not checked "
        "against the trial files. Never decided by the lowest and highest values, which one stray row swings.",
        "Trial 0 would be read as a trial before the first; curves would be shifted by one trial, and a file read on a "
        "guessed numbering moves every row.",
        '"c046",1,1,0,...', '"c046",1,1,1,...', "Add 1 when writing.", lang="csv")
