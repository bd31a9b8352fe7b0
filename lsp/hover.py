"""Hover: what a phase or block means in the schedule, and what a directive key is.

The episode ranges and learning state come from the same schedule ``sylla explain`` prints,
so the editor and the command line never disagree. Directive documentation is the schema's
own ``description`` text, so it is written once.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from sylla.grammar.core import Span
from sylla.grammar.syllabus.model import Block, Info, PhaseMark, Unknown
from sylla.grammar.syllabus.schema import schema

from .documents import Analysis

if TYPE_CHECKING:
    from .stale import Stale

#: directive key -> the schema ``$defs`` entry that documents it
DIRECTIVE_DEFS = {
    "$phase": "phase",
    "$repeat": "repeat",
    "$episode": "episode",
    "$dataset": "dataset",
    "$info": "info",
}


@lru_cache(maxsize=1)
def directive_docs() -> dict[str, str]:
    """Documentation of each directive and top-level key, from the schema descriptions."""
    s = schema()
    defs = s.get("$defs", {})
    docs = {key: defs.get(name, {}).get("description", "") for key, name in DIRECTIVE_DEFS.items()}
    task_ref = defs.get("taskRef", {}).get("description")
    if task_ref:
        for key in ("$episode", "$dataset"):
            docs[key] = f"{docs[key]}\n\nThe value: {task_ref}"
    phase_props = defs.get("phase", {}).get("properties", {})
    if "description" in phase_props.get("enable_updates", {}):
        docs["enable_updates"] = phase_props["enable_updates"]["description"]
    docs["count"] = defs.get("repeat", {}).get("description", "")
    for name, prop in s.get("properties", {}).items():
        desc = prop.get("description") or defs.get(prop.get("$ref", "").rsplit("/", 1)[-1], {}).get("description")
        if desc:
            docs.setdefault(f"top:{name}", desc)
    return docs


def _range_text(start: int, end: int) -> str:
    if end <= start:
        return "no episodes"
    return f"episodes {start}–{end - 1} ({end - start})"


def _learning(value: bool | None) -> str:
    return "unspecified" if value is None else ("on" if value else "off")


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def phase_markdown(analysis: Analysis, phase: PhaseMark) -> str:
    run = analysis.phase_run(phase)
    blocks = run.blocks if run else ()
    kind = phase.kind or "unknown kind"
    learning = {b.learning for b in blocks}
    learn = _learning(learning.pop()) if len(learning) == 1 else ("mixed" if learning else _learning(phase.enable_updates))
    lines = [
        f"**Phase `{phase.label}`** ({kind})",
        "",
        f"- blocks: {len(blocks)}",
        f"- {_range_text(run.start, run.end) if run and blocks else 'no episodes'}",
        f"- learning: {learn}",
    ]
    if blocks:
        tasks = list(dict.fromkeys(b.task for b in blocks))
        lines.append(f"- tasks: {', '.join(tasks[:8])}{', …' if len(tasks) > 8 else ''}")
    lines += _enables(analysis, [sb.block for sb in blocks])
    return "\n".join(lines)


#: the metric plugins, loaded once on a background thread (numpy and pandas take about a second
#: to import: a hover must not wait for that, so the first hovers omit the metrics line)
_PLUGINS: list | None = None
_LOADING = threading.Lock()
#: beyond this many blocks the metrics line is left out, to keep hover within its latency budget
ENABLES_MAX_BLOCKS = 400


def _load_plugins() -> None:
    global _PLUGINS
    try:
        from sylla.metrics.registry import load_plugins  # noqa: PLC0415 - lazy: start-up, numpy loads only when used

        _PLUGINS = load_plugins()
    except Exception:  # noqa: BLE001 - no metrics extra, or a broken plugin: no metrics line
        _PLUGINS = []


def _enables(analysis: Analysis, blocks: list[Block]) -> list[str]:
    """"- enables: ..." the metrics these blocks make possible (``sylla explain --metrics``'s
    decision, with the blocks taken away); nothing while the plugins load, without the metrics
    extra, or for very large syllabi."""
    model = analysis.model
    if not blocks or model is None or len(model.blocks) > ENABLES_MAX_BLOCKS:
        return []
    if _PLUGINS is None:
        if _LOADING.acquire(blocking=False):
            threading.Thread(target=_load_plugins, name="sylla-metric-plugins", daemon=True).start()
        return []
    if not _PLUGINS:
        return []
    try:
        from sylla.metrics.feasibility import enabled_by  # noqa: PLC0415 - lazy: start-up, numpy loads only when used

        names = enabled_by(model, blocks, _PLUGINS)
    except Exception:  # noqa: BLE001 - a broken third-party plugin must not break hover
        return []
    if not names:
        return ["- enables no metric on its own (see `sylla explain FILE --metrics`)"]
    shown = ", ".join(f"`{n}`" for n in names[:12]) + (", …" if len(names) > 12 else "")
    return [f"- enables metrics: {shown}"]


def block_markdown(analysis: Analysis, block: Block, *, scheduled: bool = True) -> str:
    """The block's task, module, count and parameters, and where the schedule puts it;
    ``scheduled=False`` when an edit above the block may have moved it (see ``stale_hover``)."""
    sb = analysis.scheduled(block)
    lines = [f"**`{block.directive}`** task **{block.task}**", ""]
    lines.append(f"- module: `{block.module}`" if block.module else "- module: (none)")
    lines.append(f"- count: {block.count}")
    if not scheduled:
        lines.append("- episodes: being recounted after the edit above (hover again)")
    elif sb is not None:
        lines.append(f"- {_range_text(sb.start, sb.end)}")
        lines.append(f"- phase: {sb.phase.label if sb.phase else '(before any phase)'}")
        lines.append(f"- learning: {_learning(sb.learning)}")
    if block.params:
        lines.append("- params (merged):")
        for name, value in block.params.items():
            origin = "" if name in block.own_params else " *(default_params)*"
            lines.append(f"  - `{name}` = `{_value(value)}`{origin}")
    else:
        lines.append("- params: (none)")
    if scheduled:  # what a block enables depends on where it sits, which a stale answer cannot say
        lines += _enables(analysis, [block])
    return "\n".join(lines)


def _key_at(analysis: Analysis, path: tuple[str | int, ...], keys: tuple[str, ...], offset: int) -> tuple[str, Span] | None:
    source = analysis.model.source_map if analysis.model else None
    if source is None:
        return None
    for key in keys:
        span = source.key_span(path + (key,))
        if span is not None and span.start <= offset < span.end:
            return key, span
    return None


def _directive_key(analysis: Analysis, instruction: Any, offset: int) -> tuple[str, Span] | None:
    if isinstance(instruction, PhaseMark):
        return _key_at(analysis, instruction.path, ("$phase", "enable_updates"), offset)
    if isinstance(instruction, Block):
        found = _key_at(analysis, instruction.path, ("$repeat", "count", "$episode", "$dataset"), offset)
        if found is None and instruction.repeated:
            found = _key_at(analysis, instruction.leaf_path, ("$episode", "$dataset"), offset)
        return found
    if isinstance(instruction, (Info, Unknown)):
        return _key_at(analysis, instruction.path, tuple(DIRECTIVE_DEFS), offset)
    return None


#: ``stale_hover``'s answer when only the new parse can tell
WAIT = object()


def stale_hover(stale: "Stale", offset: int) -> "types.Hover | None | object":
    """Hover at ``offset`` of the current text from the previous version's analysis, or
    ``WAIT`` when the edit may change the answer's text or range.

    The hovered instruction (or key) must not touch the edit. A block's parameters also depend
    on ``default_params``, which must be untouched; its episode range, phase and learning depend
    on everything above it, so with the edit above they are left out (the rest is exact). A
    phase's summary depends on all its blocks: the edit must come after the phase.
    """
    shift, analysis = stale.shift, stale.analysis
    model = analysis.model
    old = shift.old_offset(offset)
    if model is None or old is None:
        return WAIT
    positions = stale.positions

    def answer(markdown: str, span: Span) -> "types.Hover | object":
        moved = shift.span(span)
        return WAIT if moved is None else _hover(markdown, positions.range(moved))

    docs = directive_docs()
    instruction = analysis.instruction_at(old)
    if instruction is None:
        for key in model.top_level_keys:
            if key.span.start <= old < key.span.end and f"top:{key.name}" in docs:
                return answer(f"**`{key.name}`**\n\n{docs['top:' + key.name]}", key.span)
        return WAIT
    if shift.touches(instruction.span):
        return WAIT
    found = _directive_key(analysis, instruction, old)
    if found is not None:
        name, span = found
        return answer(f"**`{name}`**\n\n{docs.get(name, '')}".rstrip(), span)
    if isinstance(instruction, PhaseMark):
        from .outline import phase_extent  # noqa: PLC0415 - lazy: start-up, sylla.lsp.outline loads only when used

        if shift.start <= phase_extent(analysis, instruction).end:
            return WAIT
        return answer(phase_markdown(analysis, instruction), instruction.span)
    if isinstance(instruction, Block):
        if any(key.name == "default_params" and shift.touches(key.value_span) for key in model.top_level_keys):
            return WAIT
        exact = shift.start > instruction.span.end
        return answer(block_markdown(analysis, instruction, scheduled=exact), instruction.span)
    return WAIT


def hover(analysis: Analysis, offset: int) -> types.Hover | None:
    model = analysis.model
    if model is None:
        return None
    docs = directive_docs()
    positions = analysis.positions
    instruction = analysis.instruction_at(offset)
    if instruction is None:
        for key in model.top_level_keys:
            if key.span.start <= offset < key.span.end and f"top:{key.name}" in docs:
                return _hover(f"**`{key.name}`**\n\n{docs['top:' + key.name]}", positions.range(key.span))
        return None
    found = _directive_key(analysis, instruction, offset)
    if found is not None:
        name, span = found
        return _hover(f"**`{name}`**\n\n{docs.get(name, '')}".rstrip(), positions.range(span))
    if isinstance(instruction, PhaseMark):
        return _hover(phase_markdown(analysis, instruction), positions.range(instruction.span))
    if isinstance(instruction, Block):
        return _hover(block_markdown(analysis, instruction), positions.range(instruction.span))
    return None


def _hover(markdown: str, range_: types.Range) -> types.Hover:
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
        range=range_,
    )
