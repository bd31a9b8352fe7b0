"""The wave-3 online-trial rules (W9xx: trial files and delivery folders), in registry order;
imported only when a trial file or a delivery is linted, or when every rule is listed (issue 24)."""

from __future__ import annotations

from ..rule import Rule
from . import trials_delivery, trials_file

RULES: tuple[type[Rule], ...] = (
    *trials_file.RULES, *trials_delivery.RULES,
)
