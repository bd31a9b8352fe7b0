"""Programs of a delivery against the trial files: parse, type, evaluate, prior, likelihood,
each computed once per distinct program (and once per program and ordering for the outputs),
since deliveries repeat the same programs across rows, runs and trials."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from sylla.grammar.listdsl import DslError, parse_program
from sylla.grammar.listdsl.evaluate import EvalError, compile_uncached, run_code, show_value
from sylla.grammar.listdsl.prior import LOG_HIT, LOG_MISS, nlp
from sylla.grammar.listdsl.types import check_program

from .detect import is_trial_file
from .model import name_parts, value_max
from .plain import Examples, plain_examples


@dataclass(frozen=True, slots=True)
class Outputs:
    """A program on the 11 examples of one ordering: its outputs (``EvalError`` where it
    failed) as the deliverables write them (``None`` for a failure), and the running hit count."""

    shown: tuple[str | None, ...]
    errors: tuple[EvalError | None, ...]
    hits_before: tuple[int, ...]  # hits_before[k]: correct among examples 1..k


class Scorer:
    def __init__(self, trials: dict[tuple[int, int], Examples]) -> None:
        self.trials = trials
        self._programs: dict[tuple[str, int], Any] = {}
        self._outputs: dict[tuple[str, int, int], Outputs | DslError] = {}
        self._prior: dict[tuple[str, int], float | DslError] = {}
        self._code: dict[tuple[str, int], Any] = {}
        self._runs: dict[tuple[str, int], dict[tuple[int, ...], tuple[Any, EvalError | None, str | None]]] = {}
        self.shown_examples = {key: [(show_value(i), show_value(o)) for i, o in ex] for key, ex in trials.items()}

    def program(self, text: str, problem: int | None) -> Any:
        """The checked syntax tree, or the ``DslError`` (syntax, range or type) it raised; a
        program of no known problem is read in the larger DSL (integers 0..99)."""
        top = value_max(problem)
        key = (text, top)
        got = self._programs.get(key)
        if got is None:
            try:
                got = parse_program(text.strip(), top)
                check_program(got)
            except DslError as exc:
                got = exc
            self._programs[key] = got
        return got

    def outputs(self, text: str, problem: int, order: int) -> Outputs | DslError | None:
        """None when there is no trial file for (problem, order)."""
        key = (text, problem, order)
        got = self._outputs.get(key)
        if got is not None:
            return got
        examples = self.trials.get((problem, order))
        if examples is None:
            return None
        expr = self.program(text, problem)
        if isinstance(expr, DslError):
            self._outputs[key] = expr
            return expr
        top = value_max(problem)
        ckey = (text, top)
        code = self._code.get(ckey)
        if code is None:
            code = self._code[ckey] = compile_uncached(expr, top)
        shown: list[str | None] = []
        errors: list[EvalError | None] = []
        hits = [0]
        memo = self._runs.setdefault(ckey, {})  # the orderings of a problem share their inputs
        for i, o in examples:
            ran = memo.get(i)
            if ran is None:
                out = run_code(code, i)
                ran = memo[i] = (None, out, None) if isinstance(out, EvalError) else (out, None, show_value(out))
            out_value, err, text_value = ran
            if err is not None:
                shown.append(None)
                errors.append(err)
                hits.append(hits[-1])
            else:
                shown.append(text_value)
                errors.append(None)
                hits.append(hits[-1] + (out_value == o))
        outputs = Outputs(tuple(shown), tuple(errors), tuple(hits))
        self._outputs[key] = outputs
        return outputs

    def nlp(self, text: str, problem: int | None) -> float | DslError:
        top = value_max(problem)
        key = (text, top)
        got = self._prior.get(key)
        if got is None:
            expr = self.program(text, problem)
            if isinstance(expr, DslError):
                got = expr
            else:
                try:
                    got = nlp(expr, top)
                except DslError as exc:
                    got = exc
            self._prior[key] = got
        return got

    @staticmethod
    def nll(outputs: Outputs, trial: int) -> float:
        """nll of the training examples of trial ``trial`` (examples 1..trial-1)."""
        n = trial - 1
        hits = outputs.hits_before[n]
        return -(hits * LOG_HIT + (n - hits) * LOG_MISS)


def load_trials(folder: str) -> tuple[dict[tuple[int, int], Examples], list[str]]:
    """(problem, ordering) -> its examples, from a ``json/`` folder, and the files that could
    not be used. Plain ``json``: positions are for ``sylla lint json/``, not needed here."""
    out: dict[tuple[int, int], Examples] = {}
    errors: list[str] = []
    for name in sorted(os.listdir(folder)):
        parts = name_parts(name)
        if parts is None:
            continue
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror or exc}")
            continue
        if not is_trial_file(data):
            errors.append(f"{path}: not a trial file (run sylla lint {folder})")
            continue
        examples = plain_examples(data)
        if examples is None:
            errors.append(f"{path}: its examples cannot be read (run sylla lint {folder})")
        else:
            out[parts] = examples
    return out, errors
