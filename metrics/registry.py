"""Metric plugins: the interface, the context they compute in, and discovery.

A plugin declares ``name``, ``description``, the metric names it ``emits``, its ``inputs``
(``log``, ``ste``, ``tests``) and ``parameters``; ``compute(ctx)`` returns tidy rows (dicts with
``task``, ``block``, ``phase``, ``metric``, ``value``; ``run`` is filled in by the caller).
Built-ins register through the ``sylla.metrics`` entry-point group, exactly like third-party
packages, so nothing distinguishes them.
"""

from __future__ import annotations

import importlib
import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, runtime_checkable

from .errors import EXIT_USAGE, MetricsError
from .memo import NO_MEMO, Memo

GROUP = "sylla.metrics"


class ParameterError(ValueError):
    """Raised by a parameter's type function with a reason a person can act on."""


def fraction(text: str) -> float:
    """A number in (0, 1]: a share of a block's episodes (the smoothing parameter ``s``)."""
    try:
        value = float(text)
    except ValueError:
        raise ParameterError("not a number") from None
    if not math.isfinite(value) or not 0 < value <= 1:
        raise ParameterError("must be a number greater than 0 and at most 1") from None
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a window length)."""
    try:
        value = int(text)
    except ValueError:
        raise ParameterError("not a whole number") from None
    if value < 1:
        raise ParameterError("must be at least 1") from None
    return value


@dataclass(frozen=True)
class Parameter:
    """One tunable of a metric. Parameters share one namespace: ``--param s=0.2`` reaches every
    plugin that declares ``s``."""

    name: str
    default: Any
    help: str
    type: Callable[[str], Any] = str
    choices: tuple[Any, ...] | None = None
    #: the same setting in l2metrics 3.1.0 (its command-line flags), for docs/metrics.md
    l2metrics: str | None = None

    def parse(self, text: str) -> Any:
        try:
            value = self.type(text)
        except (TypeError, ValueError) as exc:
            why = str(exc) if isinstance(exc, ParameterError) else (
                f"cannot read it as {getattr(self.type, '__name__', 'a value')}")
            raise MetricsError(f"parameter {self.name}: {text!r}: {why}",
                               exit_code=EXIT_USAGE) from None
        if self.choices is not None and value not in self.choices:
            raise MetricsError(f"parameter {self.name}: {text!r} is not one of "
                               f"{', '.join(map(str, self.choices))}", exit_code=EXIT_USAGE)
        return value


Row = dict[str, Any]


@dataclass
class Context:
    """What a plugin computes from: one aligned run, STE runs per task, parameter values, a
    cache shared by plugins of one run (l2metrics' preprocessing is computed once), and a sink
    for warnings."""

    run: Any
    ste: dict[str, list[Any]]
    params: dict[str, Any]
    cache: dict[Any, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: task -> name -> value: the intermediate values behind a task's metrics (per-STE-run
    #: ratios, a task's block values, ...), kept for outputs that show them (l2metrics' files)
    details: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: per-block values kept across computations of a growing run (`sylla.metrics.memo`);
    #: the batch path's keeps nothing
    memo: Memo = NO_MEMO

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def detail(self, task: str, name: str, value: Any) -> None:
        self.details.setdefault(task, {})[name] = value


@runtime_checkable
class Metric(Protocol):
    """What every plugin has; the members it may leave out are `Defaults`'."""

    name: str
    description: str
    emits: tuple[str, ...]
    inputs: tuple[str, ...]
    parameters: tuple[Parameter, ...]

    def compute(self, ctx: Context) -> Iterable[Row]: ...


#: a plugin's step across the log's runs: (runs, parameter values, its rows of every run, each
#: with ``run``) -> (more rows, each with ``run``; warnings)
Finish = Callable[[list[Any], dict[str, Any], list[Row]], tuple[list[Row], list[str]]]


class Defaults:
    """The members a plugin may leave out, each with what leaving it out means. A third-party
    plugin written before a member existed keeps working: `optional` reads the plugin's member,
    else the default here (``needs``, the per-metric declaration the linter reads, has its
    own reader, `sylla.metrics.needs.needs_of`)."""

    #: its compute reads block tables only through `sylla.metrics.data.column`, so the
    #: pandas-free `Columns` tables suffice (no DataFrame is built for it)
    reads_columns: bool = False
    #: it computes from the run, its STE runs and the parameters alone, so it may run on the
    #: second lane (`sylla.metrics.lanes`)
    side_by_side: bool = False
    #: rows it computes across the log's runs once every run's are done (a pooled row)
    finish: Finish | None = None
    #: its own section of the text report, from the whole `MetricsResult`
    render_text: Callable[[Any], str] | None = None


def optional(plugin: object, member: str) -> Any:
    """``plugin``'s ``member``, or what `Defaults` says its absence means."""
    return getattr(plugin, member, getattr(Defaults, member))


def row(metric: str, value: Any, task: str | None = None, block: int | None = None,
        phase: str | None = None) -> Row:
    """A tidy row; NaN and inf become None so JSON stays valid."""
    if value is not None:
        value = float(value)
        if not math.isfinite(value):
            value = None
    return {"task": task, "block": block, "phase": phase, "metric": metric, "value": value}


def entry_points_of(group: str) -> list:
    """The entry points of ``group``, as ``importlib.metadata.entry_points(group=...)`` lists
    them (first distribution of a name on ``sys.path`` wins), from reading only the
    ``entry_points.txt`` of each ``*.dist-info``/``*.egg-info`` folder: importlib.metadata
    builds every installed distribution's metadata first, which took longer than the rest of
    ``sylla metrics`` on a small log in a full environment (issue 24). A ``sys.path`` entry
    that is a file (a zip) is left to importlib.metadata."""
    if any(os.path.isfile(p) for p in sys.path if p):
        from importlib.metadata import entry_points  # noqa: PLC0415 - lazy: start-up, importlib.metadata loads only when used

        return list(entry_points(group=group))
    found: list = []
    names: set[str] = set()
    for folder in sys.path:
        try:
            entries = sorted(os.scandir(folder or "."), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if not entry.name.endswith((".dist-info", ".egg-info")):
                continue
            name = re.sub(r"[-_.]+", "_", entry.name.rsplit(".", 1)[0].split("-")[0]).lower()
            if name in names:
                continue
            names.add(name)
            try:
                with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                continue
            if f"[{group}]" not in text:
                continue
            found.extend(_EntryPoint(key, value) for key, value in _section(text, group))
    return found


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of section ``[group]`` of an ``entry_points.txt``, as
    importlib.metadata reads them (names keep their case; ``#`` lines, and ``;`` lines as
    configparser took them, are comments): configparser, which read them before, cost more to
    import than the whole scan."""
    items: list[tuple[str, str]] = []
    inside = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside:
            key, sep, value = line.partition("=")
            if sep:
                items.append((key.strip(), value.strip()))
    return items


@dataclass(frozen=True)
class _EntryPoint:
    """``name = module:attr [extras]``, loaded as importlib.metadata.EntryPoint loads it (whose
    module costs more to import than reading every entry_points.txt)."""

    name: str
    value: str

    def load(self) -> Any:

        module, _, attrs = self.value.split("[", 1)[0].strip().partition(":")
        obj = importlib.import_module(module.strip())
        for attr in filter(None, attrs.strip().split(".")):
            obj = getattr(obj, attr)
        return obj


def load_plugins() -> list[Metric]:
    """Every plugin registered in the ``sylla.metrics`` entry-point group, built-ins included."""
    plugins: list[Metric] = []
    seen: set[str] = set()
    for ep in sorted(entry_points_of(GROUP), key=lambda e: e.name):
        try:
            obj = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken third-party plugin is reported
            raise MetricsError(f"cannot load metric plugin {ep.name!r} ({ep.value}): {exc}",
                               exit_code=EXIT_USAGE) from None
        plugin = obj() if isinstance(obj, type) else obj
        if not isinstance(plugin, Metric):
            raise MetricsError(f"metric plugin {ep.name!r} ({ep.value}) lacks name, emits, "
                               "inputs, parameters or compute()", exit_code=EXIT_USAGE)
        if plugin.name in seen:
            continue
        seen.add(plugin.name)
        plugins.append(plugin)
    if not plugins:
        raise MetricsError("no metric plugins found in the 'sylla.metrics' entry-point group; "
                           "reinstall sylla (pip install -e .)", exit_code=EXIT_USAGE)
    return plugins


def parameter_table(plugins: Iterable[Metric]) -> dict[str, Parameter]:
    """All parameters by name (the first declaration of a shared name wins)."""
    table: dict[str, Parameter] = {}
    for plugin in plugins:
        for p in plugin.parameters:
            table.setdefault(p.name, p)
    return table


def resolve_params(plugins: list[Metric], given: dict[str, str | Any]) -> dict[str, Any]:
    """Defaults overlaid by ``given`` (strings are parsed by the declared type)."""
    table = parameter_table(plugins)
    values = {name: p.default for name, p in table.items()}
    for name, raw in given.items():
        if name not in table:
            known = ", ".join(sorted(table)) or "none"
            raise MetricsError(f"unknown metric parameter {name!r} (known: {known})",
                               exit_code=EXIT_USAGE)
        values[name] = table[name].parse(raw) if isinstance(raw, str) else raw
    return values
