"""N605 contains-mismatch."""

from __future__ import annotations

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Iterator

_LEAF = {"episodes": "episode", "datasets": "dataset"}


class ContainsMismatch(Rule):
    __doc__ = rule_doc(
        '`"contains"` disagrees with the leaves (`"episodes"` with `$dataset` blocks, or the reverse).',
        "Reported once, at the first block whose leaf does not match, with the number of such blocks.",
        '{"contains": "episodes", "instructions": [{"$phase": "1.train"}, {"$dataset": "mnist", "num_batches": 10}]}',
        '{"contains": "datasets", "instructions": [{"$phase": "1.train"}, {"$dataset": "mnist", "num_batches": 10}]}',
        'Correct `"contains"` or the leaves.',
        why="**Why it matters.** Engines pick the runner (environment or data loader) from "
        "`contains`; a mismatch fails at the first block, and the metrics read episodes as batches.",
    )
    code, name, severity = "N605", "contains-mismatch", Severity.ERROR

    def check(self, ctx: Context) -> Iterator[Finding]:
        want = _LEAF.get(ctx.model.contains or "")
        if want is None:
            return
        bad = [b for b in ctx.model.blocks if b.leaf != want]
        if not bad:
            return
        sm = ctx.model.source_map
        first = bad[0]
        span = (sm.key_span(first.leaf_path + (f"${first.leaf}",)) if sm else None) or first.span
        more = f" ({len(bad)} blocks)" if len(bad) > 1 else ""
        related: tuple[RelatedSpan, ...] = ()
        where = sm.span(("contains",)) if sm else None
        if where is not None:
            related = (RelatedSpan(f'"contains": "{ctx.model.contains}"', where),)
        yield ctx.finding(self, f'"contains" is "{ctx.model.contains}" but this block is a ${first.leaf}{more}', span, related=related)
