"""What ``sylla explain`` does with a folder of wave-3 trial files: the protocol as a schedule.

``explain`` asks ``explain_trials_folder`` first; None means "no trial files here, go on"."""

from __future__ import annotations

import json
import sys


def explain_trials_folder(folder: str, fmt: str) -> int | None:
    from sylla.grammar.trials.schedule import load_folder, render_text, schedule

    orderings, errors = load_folder(folder)
    if not orderings and not errors:
        return None
    for e in errors:
        print(e, file=sys.stderr)
    doc = schedule(orderings)
    if fmt == "json":
        json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(render_text(doc))
    return 1 if errors else 0
