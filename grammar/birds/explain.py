"""``explain`` for configMeta.xml: per trial template, what the game generates and runs.

The JSON document is a contract (documented in docs/guide.md, "Science Birds trial configs"):
keys are only ever added. Lines and columns are 1-based, columns in characters. A number
that depends on a random draw (``amount="lo-hi"``) is a ``{"min": .., "max": ..}`` range;
a value that is missing or not a number is ``null``, never a made-up 0.
"""

from __future__ import annotations

from typing import Any

from sylla.grammar.core import LineIndex

from .model import Field, GeneratedConfig, LevelSet, MetaConfig
from .plan import SetPlan, TrialPlan, any3, plan, term

KIND = "science-birds-meta"


def _int(f: Field | None) -> int | None:
    return f.int if f is not None else None


def _num(f: Field | None) -> float | None:
    return f.number if f is not None else None


def _bool(f: Field | None) -> bool | None:
    return {"true": True, "false": False}.get(f.text) if f is not None else None


def _range(r: tuple[int, int] | None) -> dict[str, int] | None:
    return None if r is None else {"min": r[0], "max": r[1]}


def _sum(values: list[int | None]) -> int | None:
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def _requested(step: int | None, step_unknown: bool, measures: tuple[bool | None, bool | None]) -> bool | None:
    """Whether novelty likelihood is requested: a positive step and a measure on. Three-valued:
    a step or a measure that cannot be read leaves it unknown unless the rest decides it."""
    on = None if step_unknown else (step is not None and step > 0)
    measured = any3(*measures)
    if on is False or measured is False:
        return False
    return True if on and measured else None


def explain(model: MetaConfig) -> dict[str, Any]:
    lines = LineIndex(model.text)
    m = model.measurement
    step = _int(m.step) if m else None
    step_unknown = m is not None and m.step is not None and step is None
    in_training, in_testing = (_flag(m.measure_in_training), _flag(m.measure_in_testing)) if m else (False, False)
    plans = [plan(t) for t in model.trials]
    trials = [_trial(p, lines) for p in plans]
    requested = _requested(step, step_unknown, (in_training, in_testing)) if m else False
    return {
        "path": model.path,
        "kind": KIND,
        "novelty_detection": {
            "step": step, "measure_in_training": _bool(m.measure_in_training) if m else None,
            "measure_in_testing": _bool(m.measure_in_testing) if m else None, "requested": requested,
        },
        "evaluation_repeats": _int(model.repeats),
        "trials": trials,
        "totals": {
            "trial_templates": len(plans), "trials_generated": _sum([p.generated for p in plans]),
            "executions": _sum([p.executions for p in plans]),
        },
    }


def _flag(f: Field | None) -> bool | None:
    """A measure: off when not written, None when written as neither true nor false."""
    return False if f is None else _bool(f)


def _pos(lines: LineIndex, offset: int) -> dict[str, int]:
    line, column = lines.line_col(offset)
    return {"line": line, "column": column}


def _set_json(sp: SetPlan, lines: LineIndex, test: bool) -> dict[str, Any]:
    s: LevelSet = sp.level_set
    out: dict[str, Any] = {
        **_pos(lines, s.element.span.start),
        "novelty_level": _int(s.novelty_level), "novelty_type": _int(s.novelty_type),
        "amount": _range(sp.amount),
    }
    if test:
        out["set_appearance_percentage"] = _int(s.set_appearance_percentage)
        out["n_testsets"] = _range(sp.n_testsets)
        out["limits"] = {
            "time": _int(s.time), "interaction": _int(s.interaction), "attempt_per_level": _int(s.attempt_per_level),
            "allow_level_selection": _bool(s.allow_level_selection),
        }
        out["ordered"] = None if out["limits"]["allow_level_selection"] is None else not out["limits"]["allow_level_selection"]
    else:
        out["time_limit"] = _range(sp.time_limit)
        out["novelty_absence_portion"] = _num(s.novelty_absence_portion)
        out["no_diff_portion"] = _num(s.no_diff_portion)
    return out


def _terms(p: TrialPlan, at: int) -> list[dict[str, Any]]:
    """The two terms of total_n_testsets at one end of the training-time range: ``test_sets``
    and ``enabled`` are None when a limit of the term cannot be read."""
    train_time = p.training_time[at] if p.training_time else None
    known = set(p.unknown)
    out = []
    for what, train, ckpt in (("time", train_time, p.checkpoint_time), ("interaction", p.interaction, p.checkpoint_interaction)):
        sets, _note = term(what, train, ckpt, known)
        on = None if sets is None else bool(train is not None and train > 0 and ckpt is not None and ckpt > 0)
        out.append({"limit": what, "training": train, "checkpoint": ckpt, "test_sets": sets, "enabled": on})
    return out


def _trial(p: TrialPlan, lines: LineIndex) -> dict[str, Any]:
    t = p.template
    ckpt_on = p.checkpoints
    ends = _ends(p)
    test = t.test
    test_ordered = _bool(test.ordered) if test is not None else None
    if test is not None and test.ordered is None:
        test_ordered = True  # not written: the configured order
    doc: dict[str, Any] = {
        "index": t.index,
        **_pos(lines, t.element.span.start),
        "notify_novelty": t.notify_novelty.text if t.notify_novelty else None,
        "count": _int(t.count),
        "trials_generated": p.generated,
        "repeats": p.repeats,
        "executions": p.executions,
        "checkpoint": {"time": p.checkpoint_time, "interaction": p.checkpoint_interaction, "enabled": ckpt_on},
        "training": {
            "limits": {
                "time_per_level": p.per_level_time, "interaction": p.interaction,
                "attempt_per_level": p.attempt_per_level, "allow_level_selection": p.allow_level_selection,
            },
            "ordered": None if p.allow_level_selection is None else not p.allow_level_selection,
            "time_limit": _range(p.training_time),
            "ends_when": ends,
            "sets": [_set_json(s, lines, False) for s in p.training_sets],
        },
        "test": {
            "ordered": test_ordered,
            "total_n_testsets": _range(p.total_n_testsets),
            "terms": {"min": _terms(p, 0), "max": _terms(p, 1)},
            "sets": [_set_json(s, lines, True) for s in p.test_sets],
        },
        "notes": list(p.notes),
    }
    doc["timeline"] = _timeline(p, doc, ckpt_on, ends)
    doc["unknown"] = dict(p.unknown)
    return doc


def _ends(p: TrialPlan) -> list[str]:
    """The training limits known to be on, in words."""
    out = []
    if p.training_time is not None and p.training_time[1] > 0:
        lo, hi = p.training_time
        out.append(f"{lo} s of training" if lo == hi else f"{lo}-{hi} s of training")
    if p.interaction is not None and p.interaction > 0:
        out.append(f"{p.interaction} interactions")
    if p.attempt_per_level is not None and p.attempt_per_level > 0:
        out.append(f"{p.attempt_per_level} attempt{'s' if p.attempt_per_level != 1 else ''} on every level")
    return out


#: the training limits that end training, by their name in ``TrialPlan.unknown``
_ENDERS = ("training time", "training interaction", "attempt_per_level")
_CHECKPOINTS = ("checkpoint time", "checkpoint interaction")


def _why(p: TrialPlan, names: tuple[str, ...]) -> str:
    return "; ".join(p.unknown[n] for n in names if n in p.unknown)


def _count(r: tuple[int, int] | None) -> str:
    if r is None:
        return "an unknown number of"
    return str(r[0]) if r[0] == r[1] else f"{r[0]}-{r[1]}"


def _timeline(p: TrialPlan, doc: dict[str, Any], ckpt_on: bool | None, ends: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    order = {True: "in the configured order", False: "shuffled", None: "in an unknown order"}[doc["test"]["ordered"]]
    if ckpt_on is False:
        events.append({"event": "train", "until": "end", "text": "train without checkpoints (both checkpoint limits are off: no checkpoint tests)"})
    else:
        parts = []
        if p.checkpoint_time is not None and p.checkpoint_time > 0:
            parts.append(f"{p.checkpoint_time} s")
        if p.checkpoint_interaction is not None and p.checkpoint_interaction > 0:
            parts.append(f"{p.checkpoint_interaction} interactions")
        unread = _why(p, _CHECKPOINTS)
        if ckpt_on is None:
            text = f"train until a checkpoint, if one fires: whether checkpoints fire is unknown ({unread})"
        else:
            every = " or ".join(parts)
            text = f"train until a checkpoint (every {every}, whichever comes first)"
            if unread:
                text = f"train until a checkpoint (every {every}, or sooner: {unread})"
        events.append({"event": "train", "until": "checkpoint", "text": text})
        n = p.test_sets_in_all
        text = f"at each checkpoint run the next test set ({_count(n)} test sets in all, {order}), then resume training"
        if not p.test_sets:
            text = "checkpoints fire, but there are no test sets to run; training resumes at once"
        events.append({"event": "checkpoint-tests", "count": _range(n) if p.test_sets else {"min": 0, "max": 0}, "text": text})
    unread = _why(p, _ENDERS)
    if ends:
        text = "training ends at " + ", ".join(ends[:-1]) + (" or " if len(ends) > 1 else "") + ends[-1] + ", whichever comes first"
        if unread:
            text += f", or sooner at a limit sylla cannot read ({unread})"
        events.append({"event": "training-ends", "when": ends, "text": text})
        events.append({"event": "final-test", "text": "final test"})
    elif unread:
        events.append({"event": "training-ends", "when": [], "text": f"whether training ends is unknown: every training limit sylla can read is off ({unread})"})
        events.append({"event": "final-test", "text": "final test, if training ends"})
    else:
        events.append({"event": "training-ends", "when": [], "text": "training never ends: every training limit is off (no final test)"})
    return events


def _amount(r: dict[str, int] | None) -> str:
    if r is None:
        return "an unknown number of levels"
    return f"{r['min']} levels" if r["min"] == r["max"] else f"{r['min']}-{r['max']} levels"


def _secs(r: dict[str, int] | None, unknown: bool = False) -> str:
    if r is None:
        return "unknown" if unknown else "off"
    return f"{r['min']} s" if r["min"] == r["max"] else f"{r['min']}-{r['max']} s"


def _limit(v: int | None, unit: str, unknown: bool = False) -> str:
    if unknown:
        return "unknown"
    return "off" if v is None or v <= 0 else f"{v}{unit}"


def _known(v: Any) -> str:
    return "unknown" if v is None else str(v)


def _seconds(v: int | None) -> str:
    return "unknown" if v is None else f"{v} s"


def _percent(v: int | None) -> str:
    return "an unknown percentage" if v is None else f"{v}%"


def render_text(doc: dict[str, Any]) -> str:
    totals = doc["totals"]
    generated = _known(totals["trials_generated"])
    executions = _known(totals["executions"])
    out = [
        f"{doc['path'] or '<stdin>'}: Science Birds trial templates (configMeta.xml): "
        f"{totals['trial_templates']} template(s), {generated} trial(s) generated, {executions} execution(s)"
    ]
    nd = doc["novelty_detection"]
    if nd["requested"]:
        where = " and ".join(w for w, on in (("training", nd["measure_in_training"]), ("testing", nd["measure_in_testing"])) if on)
        out.append(f"novelty likelihood: requested every {nd['step']} interactions in {where}")
    elif nd["requested"] is None:
        out.append("novelty likelihood: unknown whether it is requested (a step or a measure that cannot be read)")
    else:
        out.append("novelty likelihood: never requested")
    for t in doc["trials"]:
        unknown = t["unknown"]
        out.append("")
        both = " (x2 for both)" if t["notify_novelty"] == "both" else ""
        out.append(
            f"trial template {t['index'] + 1} (line {t['line']}): notify_novelty={t['notify_novelty']}, "
            f"count {_known(t['count'])}{both} -> {_known(t['trials_generated'])} trial(s), repeats {_known(t['repeats'])}"
        )
        c = t["checkpoint"]
        out.append(
            f"  checkpoint: time {_limit(c['time'], ' s', 'checkpoint time' in unknown)}, "
            f"interaction {_limit(c['interaction'], '', 'checkpoint interaction' in unknown)}"
        )
        tr = t["training"]
        lim = tr["limits"]
        kind = {True: "a sequence", False: "an unordered set", None: "order unspecified"}[tr["ordered"]]
        out.append(
            f"  training ({kind}): {_limit(lim['time_per_level'], ' s', 'training per-level time' in unknown)} per level, "
            f"{_limit(lim['interaction'], '', 'training interaction' in unknown)} interactions, "
            f"{_limit(lim['attempt_per_level'], '', 'attempt_per_level' in unknown)} attempts per level; "
            f"time limit {_secs(tr['time_limit'], 'training time' in unknown)}"
        )
        for i, s in enumerate(tr["sets"], 1):
            out.append(
                f"    set {i} (line {s['line']}): novelty level {_known(s['novelty_level'])} type {_known(s['novelty_type'])}, "
                f"{_amount(s['amount'])}, {_secs(s['time_limit'], 'training time' in unknown)}"
            )
        te = t["test"]
        n = te["total_n_testsets"]
        terms = " + ".join(
            f"ceil({x['training']} / {x['checkpoint']})" if x["enabled"] else f"0 ({x['limit']} off)" if x["enabled"] is False else f"? ({x['limit']} unknown)"
            for x in te["terms"]["max"]
        )
        values = " + ".join("?" if x["test_sets"] is None else str(x["test_sets"]) for x in te["terms"]["max"])
        total = "unknown" if n is None else f"{n['min']}" if n["min"] == n["max"] else f"{n['min']}-{n['max']}"
        order = {True: "configured order", False: "shuffled", None: "order unknown"}[te["ordered"]]
        out.append(f"  test sets ({order}): total_n_testsets = {terms} = {values} -> {total}")
        if not te["sets"]:
            out.append("    (no test sets)")
        for i, s in enumerate(te["sets"], 1):
            nt = s["n_testsets"]
            count = "unknown" if nt is None else (str(nt["min"]) if nt["min"] == nt["max"] else f"{nt['min']}-{nt['max']}")
            out.append(
                f"    set {i} (line {s['line']}): novelty level {_known(s['novelty_level'])} type {_known(s['novelty_type'])}, "
                f"{_amount(s['amount'])}, {_percent(s['set_appearance_percentage'])} -> n_testsets {count}"
            )
        out.append("  timeline:")
        for i, e in enumerate(t["timeline"], 1):
            out.append(f"    {i}. {e['text']}")
        for note in t["notes"]:
            out.append(f"  note: {note}")
        for what, why in unknown.items():
            out.append(f"  unknown: {what}: {why}")
    return "\n".join(out)


GENERATED_KIND = "science-birds-config"


def explain_generated(model: "GeneratedConfig") -> dict[str, Any]:
    """config.xml: the trials the game will run, in order, with their level counts."""
    lines = LineIndex(model.text)
    trials: list[dict[str, Any]] = []
    for t in model.trials:
        training = t.training_sets
        trials.append({
            "id": t.id.int if t.id else None,
            **_pos(lines, t.element.span.start),
            "number_of_executions": _int(t.number_of_executions),
            "checkpoint": {"time": _int(t.checkpoint_time_limit), "interaction": _int(t.checkpoint_interaction_limit)},
            "notify_novelty": {"True": True, "False": False}.get(t.notify_novelty.text) if t.notify_novelty else None,
            "training": None if not training else {
                "time_limit": _int(training[0].time_limit), "interaction_limit": _int(training[0].total_interaction_limit),
                "attempt_limit_per_level": _int(training[0].attempt_limit_per_level), "levels": len(training[0].levels),
            },
            "test_sets": [
                {**_pos(lines, s.element.span.start), "time_limit": _int(s.time_limit), "interaction_limit": _int(s.total_interaction_limit), "levels": len(s.levels)}
                for s in t.test_sets
            ],
        })
    # a trial whose number_of_executions cannot be read runs an unknown number of times
    executions = _sum([None if t["number_of_executions"] is None else max(t["number_of_executions"], 0) for t in trials])
    return {"path": model.path, "kind": GENERATED_KIND, "trials": trials, "totals": {"trials": len(trials), "executions": executions}}


def render_generated_text(doc: dict[str, Any]) -> str:
    totals = doc["totals"]
    out = [
        f"{doc['path'] or '<stdin>'}: Science Birds evaluation (config.xml): {totals['trials']} trial(s), "
        f"{_known(totals['executions'])} execution(s)"
    ]
    for t in doc["trials"]:
        tr = t["training"]
        training = (
            "no training set" if tr is None else
            f"training {tr['levels']} levels, time limit {_seconds(tr['time_limit'])}, {_known(tr['interaction_limit'])} interactions"
        )
        tests = ", ".join(str(s["levels"]) for s in t["test_sets"]) or "none"
        ckpt = t["checkpoint"]
        out.append(
            f"  trial {_known(t['id'])} (line {t['line']}): x{_known(t['number_of_executions'])}, notify_novelty={t['notify_novelty']}, "
            f"checkpoint {_seconds(ckpt['time'])} / {_known(ckpt['interaction'])} interactions; {training}; test sets (levels): {tests}"
        )
    return "\n".join(out)
