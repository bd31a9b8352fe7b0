"""Client settings (``sylla.*``) merged with the file's own configuration.

The client's settings arrive by ``workspace/configuration`` (pulled at start and whenever the
client says they changed) or inside ``workspace/didChangeConfiguration``. They are overrides on
top of the ``pyproject.toml`` / ``sylla.toml`` the linter finds next to the file, so that a
project's checked-in configuration and a user's editor preference combine the way they do on
the command line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Mapping

from sylla.linter import ConfigError, load_config

log = logging.getLogger(__name__)

SECTION = "sylla"
KEYS = ("profile", "select", "ignore", "registry", "type")


@dataclass(frozen=True)
class ClientSettings:
    """The ``sylla.*`` settings an editor sent; empty values mean "not set"."""

    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_client(cls, raw: Any) -> "ClientSettings":
        """Accepts ``{"profile": ...}``, ``{"sylla": {...}}`` or dotted ``{"sylla.profile": ...}``."""
        if not isinstance(raw, Mapping):
            return cls()
        if isinstance(raw.get(SECTION), Mapping):
            raw = raw[SECTION]
        values: dict[str, Any] = {}
        for key in KEYS:
            value = raw.get(key, raw.get(f"{SECTION}.{key}"))
            if value is None or value == "" or value == []:
                continue
            if key in ("select", "ignore") and isinstance(value, str):
                value = [v.strip() for v in value.split(",") if v.strip()]
            values[key] = value
        return cls(values)

    def overrides(self) -> dict[str, Any] | None:
        return dict(self.values) or None


class ConfigProblem(Exception):
    """The file's configuration (or the client's settings) could not be used."""


def load(path: str | None, settings: ClientSettings) -> Any:
    """The linter ``Config`` for a document: its project config with the client's overrides.

    Raises ``ConfigProblem`` with a message for a person when the configuration is invalid.
    """
    try:
        return load_config(path, settings.overrides())
    except ConfigError as exc:
        raise ConfigProblem(str(exc)) from exc
