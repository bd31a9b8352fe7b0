"""W915: Rows that cannot be used: wrong field count, a number that is not a finite one, a problem that is no `c???` """

from __future__ import annotations

from typing import Iterator

from sylla.grammar.core import Severity

from ..delivery_context import DeliveryContext
from ..finding import Finding
from ._delivery import DeliveryRule, row_findings, which
from ._trials import trials_doc

ROW = '"c046",1,1,2,"[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0))",12.5,4001,6.5775,0.0704'


class DeliveryBadRow(DeliveryRule):
    code, name, severity = "W915", "delivery-bad-row", Severity.ERROR
    __doc__ = trials_doc(
        "Rows that cannot be used: wrong field count, a number that is not a finite one, a problem that is no `c???` "
        "label, a run, order or trial outside the file's numbering, a program that does not parse (or is nested more "
        "than 100 deep, or longer than 20,000 characters), is not [int] → [int], fails on its input, or lies outside the prior.",
        "Every row parses, and its program is a well-typed DSL program. Counted per file with row numbers; the other rows "
        "are still checked. A finding about a program stands at the column of the row where the program goes wrong.",
        "A bad row silently becoming a number (or a zero) would bias every curve.",
        '"c046",1,1,2,"[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0)",...', ROW,
        "Fix the writer; convert programs from other representations into the DSL.", lang="csv")

    def check_delivery(self, ctx: DeliveryContext) -> Iterator[Finding]:
        table = ctx.table
        if table is None:
            return
        for reason, lines in table.bad.items():
            yield ctx.at(self, f"{len(lines)} row{'s' if len(lines) > 1 else ''} cannot be read ({reason}): {which(lines)}", lines[0])
        for f in row_findings(ctx):
            if f.code == self.code:
                yield ctx.at(self, f.message, f.line, f.column, f.severity)
