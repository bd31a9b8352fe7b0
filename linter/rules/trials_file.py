"""W901-W908: the trial files ``json/cPPP_K.json`` of the wave-3 request."""

from __future__ import annotations

import os
from collections import Counter
from typing import Iterator

from sylla.grammar.core import Severity, Span
from sylla.grammar.trials.model import ORDERINGS, TRIALS, LongInt, value_max
from sylla.grammar.trials.parse import MAX_SAID

from ..finding import Finding
from ..trials_context import TrialsContext
from ._trials import TrialsRule, trials_doc

GOOD = '{"id": "c046", "program": "(lambda (cons 7 $0))", "data": [{"i": [1, 2], "o": [7, 1, 2]}, ...]}'


class TrialSyntax(TrialsRule):
    code, name, severity = "W901", "trial-syntax", Severity.ERROR
    kinds = ("trial-syntax",)
    __doc__ = trials_doc(
        "A trial file is not valid JSON.",
        "The file parses as JSON (RFC 8259).",
        "A model cannot read the examples of a file that does not parse; nothing else is checked until it does.",
        '{"id": "c046", "program": "(lambda (cons 7 $0))", "data": [',
        GOOD, "Close the brackets; regenerate the file from the request's `json/` folder.",
    )


class TrialStructure(TrialsRule):
    code, name, severity = "W902", "trial-structure", Severity.ERROR
    kinds = ("trial-structure",)
    __doc__ = trials_doc(
        "A trial file lacks `id`, `program` or `data`, an example is not `{\"i\": [ints], \"o\": [ints]}`, "
        "or values nest too deep.",
        "`id` and `program` are strings, `data` a list of objects with integer lists `i` and `o`. A trial file nests 4 "
        "levels; values nested more than 16 deep are reported at the bracket that goes too deep, and nothing more is read. "
        "After 100 of these problems, one more finding counts the rest.",
        "Every example is a training or test datum of some trial: one that is not a pair of integer lists cannot be used.",
        '{"id": "c046", "program": "(lambda (cons 7 $0))", "data": [{"i": [1, "2"]}]}',
        GOOD, "Write each example as two lists of integers.",
    )


class TrialIdName(TrialsRule):
    code, name, severity = "W903", "trial-id-name", Severity.ERROR
    __doc__ = trials_doc(
        "The `id` of a trial file does not match its name `cPPP_K.json`.",
        "A file named `c007_4.json` has `\"id\": \"c007\"` (problem 7, ordering 4).",
        "Deliveries label rows with the id, and trial files are found by name: a mismatch files one "
        "problem's results under another.",
        '// c007_4.json\n{"id": "c008", ...}', '// c007_4.json\n{"id": "c007", ...}',
        "Rename the file or correct the id.",
    )

    def check_trials(self, ctx: TrialsContext) -> Iterator[Finding]:
        if ctx.path is None or ctx.model.id is None:
            return
        base = os.path.basename(ctx.path)
        parts = ctx.name_parts
        if parts is None:
            yield ctx.finding(self, f"file name {base!r} is not cPPP_K.json (expected {ctx.model.id}_K.json, K the ordering)", ctx.model.id_span)
        elif f"c{parts[0]:03d}" != ctx.model.id:
            yield ctx.finding(self, f'id "{ctx.model.id}" does not match the file name {base} (expected "c{parts[0]:03d}")', ctx.model.id_span)


class TrialExampleCount(TrialsRule):
    code, name, severity = "W904", "trial-example-count", Severity.ERROR
    __doc__ = trials_doc(
        "A trial file does not hold exactly 11 examples.",
        "`data` has 11 entries: trial N+1 trains on examples 1..N and tests on example N+1.",
        "With fewer examples the last trials have no test datum; with more, learning curves have points nobody ran.",
        '{"id": "c046", ..., "data": [ /* 10 examples */ ]}', '{"id": "c046", ..., "data": [ /* 11 examples */ ]}',
        "Restore the file from the request's `json/` folder.",
    )

    def check_trials(self, ctx: TrialsContext) -> Iterator[Finding]:
        n = len(ctx.model.data)
        if n != TRIALS:
            yield ctx.finding(self, f"{n} examples; the protocol has exactly {TRIALS} (one per trial)", ctx.model.data_span)


class TrialInputSize(TrialsRule):
    code, name, severity = "W905", "trial-input-size", Severity.ERROR
    __doc__ = trials_doc(
        "An example's input holds more than 10 integers.",
        "Inputs hold 0 to 10 integers (wave3-problems.md). Outputs may be longer: a routine can append or insert.",
        "The problems are defined on inputs of at most 10 elements; a longer one tests something no model was asked to learn.",
        '{"i": [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1], "o": [...]}', '{"i": [1, 2, 3], "o": [...]}',
        "Restore the example from the request's `json/` folder.",
    )

    def check_trials(self, ctx: TrialsContext) -> Iterator[Finding]:
        for ex in ctx.model.data:
            if ex.i is not None and len(ex.i.values) > 10:
                yield ctx.finding(self, f"example {ex.index + 1}: the input has {len(ex.i.values)} elements; inputs hold 0 to 10", ex.i.span)


class TrialValueRange(TrialsRule):
    code, name, severity = "W906", "trial-value-range", Severity.ERROR
    __doc__ = trials_doc(
        "A value lies outside the problem's range: 0..9 for problems 1-80, 0..99 for 81-100.",
        "Every integer of every input and output is in 0..9 (problems 1-80) or 0..99 (problems 81-100). An integer of "
        "more than 20 digits is reported by its length, unconverted; after 100 values, one more finding counts the rest.",
        "Problems 1-80 use the DSL with just 0..9: a model on that DSL cannot produce a larger value, so the example is unsolvable.",
        '// c046_1.json\n{"i": [12], "o": [7, 12]}', '// c046_1.json\n{"i": [2], "o": [7, 2]}',
        "Restore the example from the request's `json/` folder.",
    )

    def check_trials(self, ctx: TrialsContext) -> Iterator[Finding]:
        """One finding per value out of range, the first ``MAX_SAID`` of them; then one that
        counts the rest, so that a file of a million bad values gets a bounded report."""
        top = value_max(ctx.model.problem)
        said = 0
        first_unsaid: tuple[str, Span] | None = None
        for ex in ctx.model.data:
            for key, lst in (("input", ex.i), ("output", ex.o)):
                if lst is None:
                    continue
                for v, span in zip(lst.values, lst.spans):
                    if v is None or (type(v) is int and 0 <= v <= top):
                        continue
                    said += 1
                    what = f"example {ex.index + 1}: {key} value {f'with {v.digits:,} digits' if isinstance(v, LongInt) else v}"
                    if said <= MAX_SAID:
                        yield ctx.finding(self, f"{what} is outside 0..{top} (problem {ctx.model.id})", span)
                    elif first_unsaid is None:
                        first_unsaid = (what, span)
        if first_unsaid is not None:
            more = said - MAX_SAID
            yield ctx.finding(self, f"{more:,} more value{'s' if more > 1 else ''} outside 0..{top} after these {MAX_SAID}; "
                              f"the first: {first_unsaid[0]}", first_unsaid[1])


class TrialOrderingsDiffer(TrialsRule):
    code, name, severity = "W907", "trial-orderings-differ", Severity.ERROR
    __doc__ = trials_doc(
        "The orderings of a problem are not permutations of one set of examples.",
        "Every `cPPP_K.json` of a problem holds the same 11 examples (as a multiset), only in another order; "
        "compared with the lowest-numbered ordering in the folder.",
        "The request varies the order to measure its effect; different examples confound order with data.",
        '// c046_1.json: [{"i": [1], "o": [7, 1]}, ...]\n// c046_2.json: [{"i": [2], "o": [7, 2]}, ...]',
        '// c046_2.json holds the examples of c046_1.json, reordered',
        "Restore the file from the request's `json/` folder.",
    )

    def check_trials(self, ctx: TrialsContext) -> Iterator[Finding]:
        parts = ctx.name_parts
        sib = {k: v for k, v in ctx.siblings.items() if v is not None}
        if parts is None or len(sib) < 2 or parts[1] not in sib:
            return
        ref = min(sib)
        if ref == parts[1]:
            return
        mine, theirs = Counter(sib[parts[1]]), Counter(sib[ref])
        if mine == theirs:
            return
        extra = mine - theirs
        missing = theirs - mine
        show = lambda pairs: "; ".join(f"i={list(i)} o={list(o)}" for i, o in list(pairs.elements())[:3])
        msg = f"not a permutation of ordering {ref} (c{parts[0]:03d}_{ref}.json)"
        if extra:
            msg += f": {sum(extra.values())} example(s) not in it ({show(extra)})"
        if missing:
            msg += f"; {sum(missing.values())} of its example(s) missing ({show(missing)})"
        span = ctx.model.data_span
        for ex in ctx.model.data:  # point at the first example that is not in the reference
            if ex.pair is not None and ex.pair in extra:
                span = ex.span
                break
        yield ctx.finding(self, msg, span)


class TrialOrderingMissing(TrialsRule):
    code, name, severity = "W908", "trial-ordering-missing", Severity.ERROR
    __doc__ = trials_doc(
        "An ordering of a problem is missing from the folder (or one is numbered outside 1..5).",
        "Beside `cPPP_K.json` lie `cPPP_1.json` ... `cPPP_5.json`. Reported once per problem, on its "
        "lowest-numbered file.",
        "Every (problem, ordering, run) is a learning curve the request expects; a missing ordering is 55 trials nobody runs.",
        "json/c046_1.json, c046_2.json, c046_4.json, c046_5.json", "json/c046_1.json ... c046_5.json",
        "Copy the missing file from the request's `json/` folder.",
    )

    def check_trials(self, ctx: TrialsContext) -> Iterator[Finding]:
        parts = ctx.name_parts
        if parts is None or not ctx.siblings or parts[1] != min(ctx.siblings):
            return
        have = set(ctx.siblings)
        missing = [k for k in range(1, ORDERINGS + 1) if k not in have]
        extra = sorted(k for k in have if not 1 <= k <= ORDERINGS)
        pid = f"c{parts[0]:03d}"
        if missing:
            names = ", ".join(f"{pid}_{k}.json" for k in missing)
            yield ctx.finding(self, f"problem {pid}: ordering{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} missing ({names})", ctx.model.id_span)
        if extra:
            yield ctx.finding(self, f"problem {pid}: ordering{'s' if len(extra) > 1 else ''} {', '.join(map(str, extra))} outside 1..{ORDERINGS}", ctx.model.id_span)


RULES = (TrialSyntax, TrialStructure, TrialIdName, TrialExampleCount, TrialInputSize, TrialValueRange,
         TrialOrderingsDiffer, TrialOrderingMissing)
