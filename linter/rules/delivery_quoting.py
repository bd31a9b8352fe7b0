"""W912: A delivery CSV does not quote problem, input, correct, predicted and program with ASCII double quotes."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import NoteRule
from ._trials import trials_doc


class DeliveryQuoting(NoteRule):
    code, name, severity = "W912", "delivery-quoting", Severity.WARNING
    __doc__ = trials_doc(
        "A delivery CSV does not quote problem, input, correct, predicted and program with ASCII double quotes.",
        "The request marks these columns as quoted strings; typographic quotes (”) are read as `\"` and said once per file. "
        "The finding names the string columns left bare and the number columns quoted, not every column.",
        "Lists hold commas: unquoted, a row splits into the wrong number of fields; typographic quotes become part of the value.",
        '”c046”,1,1,2,[3,0],...', '"c046",1,1,2,"[3,0]",...', "Write the CSV with a CSV library (quote the string columns).", lang="csv")
