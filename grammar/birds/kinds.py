"""The two Science Birds config kinds and the root element that names each.

A module of its own so that ``detect`` (asked of every XML and JSON file a lint meets) does not
import the typed model, which only a file that is a Science Birds config needs (issue 24).
"""

from __future__ import annotations

from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Literal

    Kind = Literal["meta", "generated"]
else:  # the name at run time, without importing typing (start-up, issue 24)
    Kind = str
ROOTS: dict[str, Kind] = {"config_generation": "meta", "evaluation": "generated"}
