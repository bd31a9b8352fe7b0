"""What the language server needs for hover and completion on Science Birds configs, computed
here so the editor shows the same numbers as ``sylla explain``.

- ``describe(result, offset) -> str | None``: markdown for the element or attribute at ``offset``:
  what it means, and for trial templates and level sets the computed counts (trials generated,
  training time, total_n_testsets, n_testsets);
- ``vocabulary(kind) -> {element: Vocabulary}``: the children, attributes and enumerated values
  each element allows, read from the shipped XSD (so completion and validation never disagree);
- ``node_at(root, offset)``: the innermost element (and attribute) at an offset.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .kinds import Kind
from .model import GeneratedConfig, MetaConfig
from .parse import BirdsParse
from .plan import plan
from .schema import compiled_schema
from .xmltree import XmlAttr, XmlElement

ELEMENTS = {
    "config_generation": "configMeta.xml: the trial templates the game generates config.xml from.",
    "evaluation": "config.xml: the trials the game runs, generated from configMeta.xml.",
    "novelty_detection_measurement": "When the agent is asked for the likelihood that a level set has novelty.",
    "trials": "The trial templates (configMeta.xml) or generated trials (config.xml).",
    "trial": "A trial: training with checkpoint tests, then a final test.",
    "count": "How many trials this template generates (0 or less: none).",
    "repeats": "How many times each generated trial is executed before the next one (0 or less: never).",
    "checkpoint": "When training pauses for a test set: once any limit is met (a limit of 0 or less is off).",
    "training": "The training limits and level sets of the trial.",
    "limits": "Training ends once any limit is met; then the final test runs.",
    "limit": "One limit: `time` (seconds; per level in training), `interaction`, `attempt_per_level`, or `allow_level_selection` (true: unordered set).",
    "game_level_sets": "The level sets of the training or the test.",
    "game_level_set": "A set of levels of one novelty level and type.",
    "test": "The test level sets run at checkpoints and at the end of training.",
    "game_levels": "One level of a generated set.",
}
ATTRIBUTES = {
    "step": "Novelty likelihood is requested every `step` interactions; 0 or less: never.",
    "measure_in_training": "Whether novelty likelihood is requested during training (`true`/`false`).",
    "measure_in_testing": "Whether novelty likelihood is requested during tests (`true`/`false`).",
    "notify_novelty": "Whether the agent is told about novelty; `both` generates each trial twice, notified and not.",
    "ordered": "`true`: the test sets keep the configured order; `false`: they are shuffled.",
    "novelty_level": "The novelty level of the set's levels (0: no novelty).",
    "novelty_type": "The novelty type of the set's levels.",
    "amount": "The number of levels, or `lo-hi`: drawn from [lo, hi) for each generated trial.",
    "novelty_absence_portion": "The fraction of the set's levels without novelty, in [0, 1].",
    "no_diff_portion": "The fraction of the set's levels where novelty makes no difference, in [0, 1].",
    "set_appearance_percentage": "n_testsets = ⌈total_n_testsets × percentage / 100⌉; 0 < percentage ≤ 100.",
    "time": "Time limit in seconds (0 or less: off).",
    "interaction": "Interaction limit (0 or less: off).",
    "attempt_per_level": "Attempts allowed on each level before it becomes inaccessible (0 or less: off).",
    "allow_level_selection": "`true`: the levels are an unordered set; `false`: a sequence played in order.",
    "type": "The kind of limit: time, interaction, attempt_per_level or allow_level_selection.",
    "id": "The trial's id; unique in the file.",
    "number_of_executions": "How many times the trial runs (the template's `repeats`); at least 1.",
    "time_limit": "Training: per-level time × amount, summed over the template's training sets (seconds).",
    "level_path": "The level file; absolute Windows paths break on another machine.",
}


@dataclass(frozen=True)
class Vocabulary:
    children: tuple[str, ...]
    attributes: dict[str, tuple[str, ...]]  # name -> enumerated values (empty: free text)


@functools.cache
def vocabulary(kind: Kind) -> dict[str, Vocabulary]:
    from xmlschema.validators import (  # noqa: PLC0415 - lazy: start-up, xmlschema loads only when used
        XsdComplexType,
        XsdElement,
        XsdGroup,
    )

    out: dict[str, Vocabulary] = {}
    for c in compiled_schema(kind).iter_components():
        if not isinstance(c, XsdElement):
            continue
        t = c.type
        kids: tuple[str, ...] = ()
        if isinstance(t, XsdComplexType) and isinstance(t.content, XsdGroup) and t.has_complex_content():
            # only a wildcard (xs:any) has no name, and the Science Birds schemas have none
            kids = tuple(e.local_name for e in t.content.iter_elements() if e.local_name is not None)
        attrs = {n: tuple(getattr(a.type, "enumeration", None) or ()) for n, a in getattr(t, "attributes", {}).items() if n}
        prev = out.get(c.local_name)
        if prev is not None:  # same name in two places (game_level_sets): the union
            kids = tuple(dict.fromkeys(prev.children + kids))
            attrs = {**prev.attributes, **attrs}
        out[c.local_name] = Vocabulary(kids, attrs)
    return out


def node_at(root: XmlElement, offset: int) -> tuple[XmlElement, XmlAttr | None] | None:
    if not root.span.start <= offset < root.span.end:
        return None
    node = root
    while True:
        inner = next((c for c in node.children if c.span.start <= offset < c.span.end), None)
        if inner is None:
            break
        node = inner
    if node.start_tag.start <= offset < node.start_tag.end:
        for a in node.attrs:
            if a.span.start <= offset < a.span.end:
                return node, a
    return node, None


def describe(result: BirdsParse, offset: int) -> str | None:
    """Markdown for the element or attribute at ``offset`` (None outside any element)."""
    if result.root is None or result.model is None:
        return None
    found = node_at(result.root, offset)
    if found is None:
        return None
    element, attr = found
    if attr is not None:
        text = f"**{attr.name}** on `<{element.tag}>`: {ATTRIBUTES.get(attr.name, 'not a known attribute')}"
    else:
        text = f"**<{element.tag}>**: {ELEMENTS.get(element.tag, 'not a known element')}"
    counts = _counts(result.model, element)
    return text + (f"\n\n{counts}" if counts else "")


def _counts(model: MetaConfig | GeneratedConfig, element: XmlElement) -> str:
    def r(pair: tuple[int, int] | None, unit: str = "", off: bool = False) -> str:
        """A count or range; None is "off" where the limit is off, else unknown (never a 0)."""
        if pair is None:
            return "off" if off else "unknown"
        return f"{pair[0]}{unit}" if pair[0] == pair[1] else f"{pair[0]}-{pair[1]}{unit}"

    def known(value: int | None) -> str:
        return "an unknown number of" if value is None else str(value)

    if isinstance(model, GeneratedConfig):
        for t in model.trials:
            if t.element is element:
                return f"{len(t.training_sets[0].levels) if t.training_sets else 0} training levels, {len(t.test_sets)} test sets"
        return ""
    for template in model.trials:
        if not template.element.span.start <= element.span.start < template.element.span.end:
            continue
        p = plan(template)
        time_off = "training time" not in p.unknown
        if element is template.element:
            repeats = p.repeats if p.repeats is not None else "an unknown number of"
            return (
                f"Generates {known(p.generated)} trial(s), each executed {repeats} time(s); training time {r(p.training_time, ' s', time_off)}; "
                f"total_n_testsets {r(p.total_n_testsets)}"
            )
        for sp in p.training_sets:
            if sp.level_set.element is element:
                return f"{r(sp.amount)} levels; training time {r(sp.time_limit, ' s', time_off)} (per-level time × amount)"
        for sp in p.test_sets:
            if sp.level_set.element is element:
                return f"n_testsets {r(sp.n_testsets)} of total_n_testsets {r(p.total_n_testsets)}"
    return ""
