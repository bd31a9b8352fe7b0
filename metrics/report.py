"""Outputs: rich text tables, JSON, and tidy CSV/Parquet rows (``run, task, block, phase,
metric, value``; a ``partial`` column is added only when a run ended early)."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import EXIT_USAGE, MetricsError
from .registry import optional
from .result import TIDY, MetricsResult

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("text", "json", "csv", "parquet")


def tidy(result: MetricsResult) -> "pd.DataFrame":
    cols = TIDY + (["partial"] if any(r["partial"] for r in result.records) else [])
    return result.rows[cols]


def _fmt(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    v = float(value)
    return f"{v:.0f}" if v.is_integer() and abs(v) < 1e12 else f"{v:.4g}"


def render_text(result: MetricsResult, width: int | None = None) -> str:
    """Lifetime values, then per-task values (metrics down, tasks across), then warnings."""
    from rich.console import Console  # noqa: PLC0415 - lazy: start-up, rich loads only when used
    from rich.table import Table  # noqa: PLC0415 - lazy: start-up, rich loads only when used

    buffer = io.StringIO()
    console = Console(file=buffer, width=width or 120, force_terminal=False, color_system=None)
    lifetime = result.lifetime()
    table = Table(title="Lifetime metrics", title_justify="left")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in lifetime.items():
        table.add_row(name, _fmt(value))
    console.print(table)
    tasks = result.tasks()
    single = {t: v for t, v in tasks.items() if "->" not in t}
    if single:
        names = list(dict.fromkeys(m for v in single.values() for m in v))
        table = Table(title="Per-task metrics", title_justify="left")
        table.add_column("metric")
        for t in single:
            table.add_column(t, justify="right")
        for m in names:
            table.add_row(m, *(_fmt(single[t].get(m)) for t in single))
        console.print(table)
    pairs = {t: v for t, v in tasks.items() if "->" in t}
    if pairs:
        names = list(dict.fromkeys(m for v in pairs.values() for m in v))
        table = Table(title="Transfer between tasks (source->target)", title_justify="left")
        table.add_column("pair")
        for m in names:
            table.add_column(m, justify="right")
        for t, v in pairs.items():
            table.add_row(t, *(_fmt(v.get(m)) for m in names))
        console.print(table)
    for plugin in result.plugins:  # a plugin's own text section (e.g. per-experiment values)
        render = optional(plugin, "render_text")
        section = render(result) if render is not None else ""
        if section:
            console.print(section, highlight=False, markup=False)
    for w in result.warnings:
        console.print(f"warning: {w}", highlight=False, markup=False)
    return buffer.getvalue()


def render_json(result: MetricsResult) -> str:
    return json.dumps(result.to_json(), indent=2, allow_nan=False)


def write_outputs(result: MetricsResult, fmt: str, out: Path | None,
                  stream: Any) -> list[Path]:
    """Print (or, with ``out``, write into the directory) the chosen format."""
    if fmt not in FORMATS:
        raise MetricsError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})",
                           exit_code=EXIT_USAGE)
    written: list[Path] = []
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MetricsError(f"cannot create output directory: {exc.strerror}", str(out),
                               exit_code=EXIT_USAGE) from None
    if fmt == "parquet":
        if out is None:
            raise MetricsError("--format parquet needs --out DIR (Parquet is binary)",
                               exit_code=EXIT_USAGE)
        target = out / "metrics.parquet"
        frame = tidy(result).copy()
        frame["block"] = frame["block"].astype("Int64")
        frame.to_parquet(target, index=False)
        return [target]
    if fmt == "csv":
        text = tidy(result).to_csv(index=False)
    elif fmt == "json":
        text = render_json(result) + "\n"
    else:
        text = render_text(result)
    if out is None:
        stream.write(text)
    else:
        target = out / {"csv": "metrics.csv", "json": "metrics.json", "text": "metrics.txt"}[fmt]
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
