"""The wave-3 trial-file rules (W901-W908), in registry order; imported only when a trial file
is linted, or when every rule is listed (issue 24). A delivery folder's rules are ``delivery_rules``."""

from __future__ import annotations

from ..rule import Rule
from . import trials_file

RULES: tuple[type[Rule], ...] = (
    *trials_file.RULES,
)
