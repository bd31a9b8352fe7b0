"""``sylla report``: the dashboard frozen into one self-contained HTML file.

Why the same state as ``sylla watch``: a report is what the page showed at the end of the run,
so a CI artifact or a paper's supplement shows exactly the numbers ``sylla metrics`` prints.
The log is read through the same mirror (complete lines only), so a report taken while a run
is still being written is well defined too.
"""

from __future__ import annotations

from pathlib import Path

from .curve import Curve
from .mirror import Mirror
from .page import frozen_page
from .state import Options, compute_state, feasibility_notes, load_model


def run_report(run: str | Path, options: Options) -> tuple[str, str | None]:
    """The HTML of one run's report, and the error or divergence it shows (None: clean), so
    that the command can say it too and not only the page."""
    model = load_model(options)
    curve = Curve()
    with Mirror(run) as mirror:
        mirror.sync()
        state = compute_state(mirror, options, model, curve)
    state.feasibility = feasibility_notes(model, options)
    title = f"sylla report: {Path(run).name}"
    return (frozen_page(state.to_json(), state.points + curve.tail(), title),
            state.error if state.error is not None else
            str(state.divergence) if state.divergence is not None else None)
