"""W919: nll is not the request's negative log likelihood on trials 1..N-1."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import RowRule
from ._trials import trials_doc


class DeliveryLikelihood(RowRule):
    code, name, severity = "W919", "delivery-likelihood", Severity.ERROR
    __doc__ = trials_doc(
        "nll is not the request's negative log likelihood on trials 1..N-1.",
        "nll = −Σ over the training examples (1..N-1) of ln α if the program maps i to o, else ln(1 − α), α = exp(−0.07043928). "
        "Values written to 3 decimals match.",
        "The request asks for this likelihood so that models can be compared on it.",
        '"c046",1,1,3,...,"(lambda (cons 7 $0))",...,6.5775,0', '"c046",1,1,3,...,"(lambda (cons 7 $0))",...,6.5775,0.1409',
        "Compute the likelihood on the trial's training examples only.", lang="csv")
