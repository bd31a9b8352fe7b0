"""The wave-3 delivery rules (W910-W923), in registry order; imported only when a delivery
folder is linted (``sylla lint DIR --trials json/``), or when every rule is listed (issue 24)."""

from __future__ import annotations

from ..rule import Rule
from .delivery_accuracy import DeliveryAccuracy
from .delivery_bad_row import DeliveryBadRow
from .delivery_bests_order import DeliveryBestsOrder
from .delivery_columns import DeliveryColumns
from .delivery_completeness import DeliveryCompleteness
from .delivery_description import DeliveryDescription
from .delivery_likelihood import DeliveryLikelihood
from .delivery_missing_file import DeliveryMissingFile
from .delivery_numbering import DeliveryNumbering
from .delivery_predicted import DeliveryPredicted
from .delivery_prior import DeliveryPrior
from .delivery_quoting import DeliveryQuoting
from .delivery_samples import DeliverySamples
from .delivery_test_example import DeliveryTestExample

RULES: tuple[type[Rule], ...] = (
    DeliveryMissingFile, DeliveryColumns, DeliveryQuoting, DeliveryNumbering, DeliveryCompleteness, DeliveryBadRow,
    DeliveryTestExample, DeliveryAccuracy, DeliveryPredicted, DeliveryLikelihood, DeliveryPrior, DeliveryBestsOrder,
    DeliverySamples, DeliveryDescription,
)
