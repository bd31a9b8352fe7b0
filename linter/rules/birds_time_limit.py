"""B836 time-limit-mismatch."""

from __future__ import annotations

import os
from typing import Iterator

from sylla.grammar.birds.plan import plan
from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding
from ._birds import BirdsRule, birds_doc


class TimeLimitMismatch(BirdsRule):
    code, name, severity = "B836", "time-limit-mismatch", Severity.WARNING
    __doc__ = birds_doc(
        "A config.xml training `time_limit` disagrees with the configMeta.xml in the same folder.",
        "Generated trials are matched to the meta file's trial templates in order (each template "
        "generates `count` trials, twice as many for `notify_novelty=\"both\"`); the training "
        "`time_limit` must equal the per-level time × amount summed over the template's training sets "
        "(a range when an amount is `lo-hi`).",
        "config.xml is generated from configMeta.xml: a mismatch means one of the two was edited by "
        "hand, or config.xml is stale, and the evaluation does not run what the meta file says.",
        '<!-- configMeta.xml: <limit type="time">180</limit>, amount="2" -->\n<game_level_set mode="training" time_limit="500">',
        '<game_level_set mode="training" time_limit="360">',
        "Regenerate config.xml from configMeta.xml (or fix the one edited by hand).",
        "item 4 (training time limit) and the generator",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        gen = ctx.generated
        if gen is None:
            return
        meta = ctx.sibling_meta
        if meta is None:
            return
        expected: list[tuple[tuple[int, int] | None, int]] = []
        for template in meta.trials:
            p = plan(template)
            if p.generated is None:
                break  # how many trials this template generates is unknown: the ones after it cannot be matched
            expected += [(p.training_time, template.index)] * p.generated
        for t, (want, index) in zip(gen.trials, expected):
            training = t.training_sets
            if not training or want is None:
                continue
            f = training[0].time_limit
            if f is None or f.int is None:
                continue
            lo, hi = want
            if not lo <= f.int <= hi:
                meta_name = os.path.basename(meta.path or "configMeta.xml")
                shown = f"{lo}" if lo == hi else f"{lo}-{hi}"
                yield ctx.finding(
                    self,
                    f'trial {t.id.text if t.id else t.index}: time_limit="{f.int}" but {meta_name} (trial template {index + 1}) gives {shown} s',
                    f.span,
                )
