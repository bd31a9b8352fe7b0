"""B833 missing-training-levels, B834 extra-training-set: the training ``<game_level_set>`` of a
config.xml trial."""

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..birds_context import BirdsContext
from ..finding import Finding, RelatedSpan
from ._birds import BirdsRule, birds_doc


class MissingTrainingLevels(BirdsRule):
    code, name, severity = "B833", "missing-training-levels", Severity.ERROR
    __doc__ = birds_doc(
        "A config.xml trial has no training `game_level_set`, or one without levels.",
        "Each `<trial>` needs a `<game_level_set mode=\"training\">` with at least one `<game_levels>`.",
        "A trial starts with its training set; without levels the agent has nothing to train on and "
        "the trial's results are empty. (The generator writes an empty set when no level of the "
        "requested novelty level and type exists in the game's level folders.)",
        '<trial id="0" number_of_executions="1">\n  <game_level_set mode="training" time_limit="360"></game_level_set>\n</trial>',
        '<trial id="0" number_of_executions="1">\n  <game_level_set mode="training" time_limit="360">\n    <game_levels level_path="Levels/novelty_level_1/type1/Levels/1_1_1.xml" />\n  </game_level_set>\n</trial>',
        "Check the novelty level and type in configMeta.xml against the game's level folders and regenerate.",
        "item 4 (training set configuration)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.generated is None:
            return
        for t in ctx.generated.trials:
            name = t.id.text if t.id else str(t.index)
            training = t.training_sets
            if not training:
                yield ctx.finding(self, f"trial {name} has no training game_level_set", t.element.name_span)
            elif not training[0].levels:
                yield ctx.finding(self, f"trial {name}: the training game_level_set has no levels", training[0].element.name_span)


class ExtraTrainingSet(BirdsRule):
    code, name, severity = "B834", "extra-training-set", Severity.WARNING
    __doc__ = birds_doc(
        "A config.xml trial has more than one training `game_level_set`; the game reads only the first.",
        "Two or more `<game_level_set mode=\"training\">` in one `<trial>`.",
        "The generator merges all training level sets of a template into one; a second training set "
        "written by hand is ignored, with its levels.",
        '<game_level_set mode="training">...</game_level_set>\n<game_level_set mode="training">...</game_level_set>',
        '<game_level_set mode="training">...all levels...</game_level_set>',
        "Merge the levels into the first training set.",
        "item 4 (training set configuration)",
    )

    def check_birds(self, ctx: BirdsContext) -> Iterator[Finding]:
        if ctx.generated is None:
            return
        for t in ctx.generated.trials:
            training = t.training_sets
            for extra in training[1:]:
                yield ctx.finding(
                    self,
                    f"trial {t.id.text if t.id else t.index}: a second training game_level_set; the game reads only the first",
                    extra.element.name_span,
                    related=(RelatedSpan("the set the game reads", training[0].element.name_span),),
                )
