"""W911: A delivery CSV lacks its header, lacks columns, or has them in another order."""

from __future__ import annotations

from sylla.grammar.core import Severity

from ._delivery import NoteRule
from ._trials import trials_doc

HEADER = "problem,run,order,trial,input,correct,predicted,accuracy,program,cpu,count,nlp,nll"
ROW = '"c046",1,1,2,"[3,0]","[7,3,0]","[7,3,0]",1,"(lambda (cons 7 $0))",12.5,4001,6.5775,0.0704'


class DeliveryColumns(NoteRule):
    code, name, severity = "W911", "delivery-columns", Severity.ERROR
    __doc__ = trials_doc(
        "A delivery CSV lacks its header, lacks columns, or has them in another order.",
        f"The first line is `{HEADER}`. A `length` column after `count` is accepted (the request's own "
        "example header has it). A header-less file is read by its width (13, 14 or the known 7-column bests shape), or by "
        "its values when exactly one choice of the request's columns, in its order, fits them (the real `samples0.csv`: "
        "`c046,\"(lambda ...)\"` is problem,program), said once; when none or several fit, it is not read (an error).",
        "Analysis scripts read columns by name; a missing column is found only when the study is run, after the CPU-hours are spent.",
        ROW, f"{HEADER}\n{ROW}", "Write the header as the first line, in the request's order.", lang="csv")
