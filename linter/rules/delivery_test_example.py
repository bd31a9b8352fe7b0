"""W916: A row's input and correct are not that trial's test example."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import RowRule
from ._trials import trials_doc


class DeliveryTestExample(RowRule):
    code, name, severity = "W916", "delivery-test-example", Severity.ERROR
    __doc__ = trials_doc(
        "A row's input and correct are not that trial's test example.",
        "Trial N of ordering K of problem P tests on example N of `cPPP_K.json`: `input` and `correct` are its `i` and `o`.",
        "A row on another example means the model ran another ordering (or shuffled it), which the request forbids.",
        '"c046",1,1,2,"[9]","[7,9]",...', '"c046",1,1,2,"[3,0]","[7,3,0]",...', "Run the orderings as given.", lang="csv")
