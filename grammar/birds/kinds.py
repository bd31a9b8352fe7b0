"""The two Science Birds config kinds and the root element that names each.

A module of its own so that ``detect`` (asked of every XML and JSON file a lint meets) does not
import the typed model, which only a file that is a Science Birds config needs (issue 24).
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["meta", "generated"]
ROOTS: dict[str, Kind] = {"config_generation": "meta", "evaluation": "generated"}
