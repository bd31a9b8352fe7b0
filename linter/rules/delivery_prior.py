"""W920: nlp is not the request's negative log prior of the program."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import RowRule
from ._trials import trials_doc


class DeliveryPrior(RowRule):
    code, name, severity = "W920", "delivery-prior", Severity.ERROR
    __doc__ = trials_doc(
        "nlp is not the request's negative log prior of the program.",
        "nlp follows the generator of docs/trials.md: weights 1.0 for symbols with arguments and 10.0 for terminals "
        "among the type-fitting choices, lambdas free; constants limited to the problem's range.",
        "The request asks for this prior so that models can be compared on it.",
        '...,"(lambda $0)",...,0.5,...', '...,"(lambda $0)",...,0.9163,...', "Compute the prior as docs/trials.md describes.", lang="csv")
