"""W918: predicted is not the row's program run on its input."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import RowRule
from ._trials import trials_doc


class DeliveryPredicted(RowRule):
    code, name, severity = "W918", "delivery-predicted", Severity.ERROR
    __doc__ = trials_doc(
        "predicted is not the row's program run on its input.",
        "Running `program` on `input` with the DSL's definitions gives `predicted`.",
        "A prediction that the program does not make means program and prediction come from different hypotheses.",
        '..."[3,0]","[7,3,0]","[3,0]",0,"(lambda (cons 7 $0))"', '..."[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0))"',
        "Write the prediction of the program you report.", lang="csv")
