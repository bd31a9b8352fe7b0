"""What a sweep computes each run with, and the part of it every cache key holds.

Its own module (below `cache` and `task`, which both need it) so that the cache can name the
type without importing the per-run task, which imports the cache: the type-level loop
``cache -> task -> cache`` that a ``TYPE_CHECKING`` import hid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sylla.kit.version import __version__

from ..registry import GROUP

#: bumped when what `compute_run` keeps of a run changes within one sylla version (2: rows a
#: plugin adds across a log's runs, such as the pooled row, are left out), so no cache entry
#: written by the older code is read back
ROWS_VERSION = 2


@dataclass(frozen=True)
class Options:
    """Everything that changes a run's numbers. Its `key_dict` is part of every cache key, so
    a changed option recomputes exactly the runs it affects (all of them)."""

    perf: str = "reward"
    params: tuple[tuple[str, str], ...] = ()
    metrics: tuple[str, ...] = ()
    allow_partial: bool = False
    ste: tuple[str, ...] = ()
    #: content digest of every STE file (computed once by the driver)
    ste_digest: str = ""

    def key_dict(self) -> dict[str, Any]:
        return {"sylla": __version__, "rows": ROWS_VERSION, "perf": self.perf,
                "params": sorted(self.params),
                "metrics": sorted(self.metrics), "allow_partial": self.allow_partial,
                "ste": self.ste_digest, "plugins": _plugin_names()}


_PLUGINS: list[str] | None = None


def _plugin_names() -> list[str]:
    """Installed metric plugins with their distribution's version: installing or upgrading a
    plugin changes the rows, so it changes the key."""
    global _PLUGINS
    if _PLUGINS is None:
        from importlib.metadata import entry_points  # noqa: PLC0415 - lazy: start-up, importlib.metadata loads only when used

        names = []
        for ep in entry_points(group=GROUP):
            dist = getattr(ep, "dist", None)
            names.append(f"{ep.name}={ep.value}@{getattr(dist, 'version', '')}")
        _PLUGINS = sorted(names)
    return _PLUGINS
