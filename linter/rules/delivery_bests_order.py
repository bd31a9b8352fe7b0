"""W921: Within a trial, best-so-far rows do not increase count and cpu, or do not improve."""

from __future__ import annotations

import os
from typing import Iterator

from sylla.grammar.core import Severity

from ..delivery_context import DeliveryContext
from ..finding import Finding
from ._delivery import DeliveryRule, rows
from ._trials import trials_doc


class DeliveryBestsOrder(DeliveryRule):
    code, name, severity = "W921", "delivery-bests-order", Severity.ERROR
    __doc__ = trials_doc(
        "Within a trial, best-so-far rows do not increase count and cpu, or do not improve.",
        "In bests.csv, consecutive rows of one (problem, run, order, trial) have increasing count, non-decreasing cpu "
        "and (when nlp and nll are given) a smaller nlp + nll.",
        "The search-sensitivity curve reads accuracy at CPU time t from these rows: out of order, it is wrong.",
        '"c046",1,1,2,...,12.5,4001,...\n"c046",1,1,2,...,3.1,200,...', '"c046",1,1,2,...,3.1,200,...\n"c046",1,1,2,...,12.5,4001,...',
        "Write best-so-far programs in the order search found them.", lang="csv")

    def check_delivery(self, ctx: DeliveryContext) -> Iterator[Finding]:
        table = ctx.model.delivery.bests
        if table is None or ctx.path != table.path or not table.lines or not all(table.has(c) for c in ("cpu", "count")):
            return
        d = table.data
        keys = list(zip(d["problem"], d["run"], d["order"], d["trial"]))
        cpu, count, lines = d["cpu"], d["count"], table.lines
        post = [a + b for a, b in zip(d["nlp"], d["nll"])] if table.has("nlp") and table.has("nll") else None
        bad_count, bad_cpu, bad_post = [], [], []
        for k in range(1, len(lines)):
            if keys[k] != keys[k - 1]:
                continue
            if count[k] <= count[k - 1]:
                bad_count.append(lines[k])
            if cpu[k] < cpu[k - 1]:
                bad_cpu.append(lines[k])
            if post is not None and not post[k] < post[k - 1] - 1e-12:
                bad_post.append(lines[k])
        base = os.path.basename(table.path)
        if bad_count:
            yield ctx.at(self, f"{base}: {len(bad_count)} best-so-far rows do not increase count within their trial "
                         f"(rows {rows(bad_count)})", bad_count[0])
        if bad_cpu:
            yield ctx.at(self, f"{base}: {len(bad_cpu)} best-so-far rows go back in cpu time within their trial "
                         f"(rows {rows(bad_cpu)})", bad_cpu[0])
        if bad_post:
            yield ctx.at(self, f"{base}: {len(bad_post)} best-so-far rows do not improve nlp + nll on the row before "
                         f"(rows {rows(bad_post)}); a best-so-far program scores better than all before it "
                         "(if the model ranks by another objective, say so in description.md)", bad_post[0], severity="warning")
