"""W917: accuracy is not 1 exactly when predicted equals correct."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import RowRule
from ._trials import trials_doc


class DeliveryAccuracy(RowRule):
    code, name, severity = "W917", "delivery-accuracy", Severity.ERROR
    __doc__ = trials_doc(
        "accuracy is not 1 exactly when predicted equals correct.",
        "`accuracy` is `int(predicted == correct)` (lists compared without spaces).",
        "Accuracy is the learning curve itself.",
        '..."[7,3,0]","[7,3,0]",0,...', '..."[7,3,0]","[7,3,0]",1,...', "Compute accuracy from the two columns.", lang="csv")
