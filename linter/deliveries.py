"""``sylla lint DELIVERY_DIR --trials json/``: check a wave-3 delivery before it ships.

The delivery is a language (``delivery.py``): the folder is read once, with the trial files
(``grammar.trials.delivery`` records each deviation of shape once and undoes it where that is
unambiguous), and each of its files is linted by the one engine (``engine.run``) with the
W910-W923 rules (``rules/delivery_*.py``): columns, quoting, numbering, completeness, and, with
the trial files at hand, every row's test example, accuracy, prediction, likelihood and prior;
the order of best-so-far rows; samples; the description. The config reaches them as it reaches
every rule: ``--select``, ``--ignore``, per-file ignores, severities.
"""

from __future__ import annotations

from typing import Callable

from .config import Config
from .delivery import DeliverySpec
from .delivery_context import DeliveryFile, read_model
from .engine import LintResult, run

#: the findings of one delivery file, in the shape every reporter reads
DeliveryResult = LintResult[DeliveryFile]


def check_delivery(
    folder: str, trials_folder: str | None, config: Config | Callable[[str], Config] | None = None,
) -> tuple[list[tuple[str, DeliveryResult]], list[str]]:
    """Findings per file of the delivery (every file it has or lacks, by path), and problems
    reading the trial files (for stderr). ``config``: one for every file, or the config of a
    file's path (the CLI's discovery), or None for the defaults."""
    spec = DeliverySpec(trials_folder)
    model = read_model(folder, trials_folder)
    one = config if isinstance(config, Config) else Config()
    config_for = config if callable(config) else (lambda path: one)
    out = [(path, run(spec, doc.text, path, config_for(path), parsed=doc)) for path, doc in sorted(model.documents.items())]
    return out, model.trial_errors
