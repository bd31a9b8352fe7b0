"""``explain`` for configMeta.xml: per trial template, what the game generates and runs.

The JSON document is a contract (documented in docs/guide.md, "Science Birds trial configs"):
keys are only ever added. Lines and columns are 1-based, columns in characters. A number
that depends on a random draw (``amount="lo-hi"``) is a ``{"min": .., "max": ..}`` range;
a value that is missing or not a number is ``null``, never a made-up 0.
"""

from __future__ import annotations

from typing import Any

from sylla.grammar.model import LineIndex

from .model import Field, GeneratedConfig, LevelSet, MetaConfig
from .plan import SetPlan, TrialPlan, ceil_div, plan

KIND = "science-birds-meta"


def _int(f: Field | None) -> int | None:
    return f.int if f is not None else None


def _num(f: Field | None) -> float | None:
    return f.number if f is not None else None


def _bool(f: Field | None) -> bool | None:
    return {"true": True, "false": False}.get(f.text) if f is not None else None


def _range(r: tuple[int, int] | None) -> dict[str, int] | None:
    return None if r is None else {"min": r[0], "max": r[1]}


def explain(model: MetaConfig) -> dict[str, Any]:
    lines = LineIndex(model.text)
    m = model.measurement
    step = _int(m.step) if m else None
    in_training, in_testing = (_bool(m.measure_in_training), _bool(m.measure_in_testing)) if m else (None, None)
    plans = [plan(t) for t in model.trials]
    trials = [_trial(p, lines) for p in plans]
    generated = sum(p.generated for p in plans)
    executions = sum(p.generated * max(p.repeats or 0, 0) for p in plans)
    return {
        "path": model.path,
        "kind": KIND,
        "novelty_detection": {
            "step": step, "measure_in_training": in_training, "measure_in_testing": in_testing,
            "requested": bool(step is not None and step > 0 and (in_training or in_testing)),
        },
        "evaluation_repeats": _int(model.repeats),
        "trials": trials,
        "totals": {"trial_templates": len(plans), "trials_generated": generated, "executions": executions},
    }


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
    """The two terms of total_n_testsets at one end of the training-time range."""
    train_time = p.training_time[at] if p.training_time else None
    out = []
    for what, train, ckpt in (("time", train_time, p.checkpoint_time), ("interaction", p.interaction, p.checkpoint_interaction)):
        if train is not None and train > 0 and ckpt is not None and ckpt > 0:
            on, sets = True, ceil_div(train, ckpt)
        else:
            on, sets = False, 0
        out.append({"limit": what, "training": train, "checkpoint": ckpt, "test_sets": sets, "enabled": on})
    return out


def _trial(p: TrialPlan, lines: LineIndex) -> dict[str, Any]:
    t = p.template
    ckpt_on = any(v is not None and v > 0 for v in (p.checkpoint_time, p.checkpoint_interaction))
    ends = _ends(p)
    test = t.test
    test_ordered = _bool(test.ordered) if test is not None else None
    doc: dict[str, Any] = {
        "index": t.index,
        **_pos(lines, t.element.span.start),
        "notify_novelty": t.notify_novelty.text if t.notify_novelty else None,
        "count": _int(t.count),
        "trials_generated": p.generated,
        "repeats": p.repeats,
        "executions": p.generated * max(p.repeats or 0, 0),
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
            "ordered": test_ordered if test_ordered is not None else (True if test is not None else None),
            "total_n_testsets": _range(p.total_n_testsets),
            "terms": {"min": _terms(p, 0), "max": _terms(p, 1)},
            "sets": [_set_json(s, lines, True) for s in p.test_sets],
        },
        "notes": list(p.notes),
    }
    doc["timeline"] = _timeline(p, doc, ckpt_on, ends)
    return doc


def _ends(p: TrialPlan) -> list[str]:
    out = []
    if p.training_time is not None and p.training_time[1] > 0:
        lo, hi = p.training_time
        out.append(f"{lo} s of training" if lo == hi else f"{lo}-{hi} s of training")
    if p.interaction is not None and p.interaction > 0:
        out.append(f"{p.interaction} interactions")
    if p.attempt_per_level is not None and p.attempt_per_level > 0:
        out.append(f"{p.attempt_per_level} attempt{'s' if p.attempt_per_level != 1 else ''} on every level")
    return out


def _timeline(p: TrialPlan, doc: dict[str, Any], ckpt_on: bool, ends: list[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    order = "in the configured order" if doc["test"]["ordered"] else "shuffled"
    if ckpt_on:
        parts = []
        if p.checkpoint_time is not None and p.checkpoint_time > 0:
            parts.append(f"{p.checkpoint_time} s")
        if p.checkpoint_interaction is not None and p.checkpoint_interaction > 0:
            parts.append(f"{p.checkpoint_interaction} interactions")
        every = " or ".join(parts)
        events.append({"event": "train", "until": "checkpoint", "text": f"train until a checkpoint (every {every}, whichever comes first)"})
        n = p.total_n_testsets
        count = str(n[0]) if n[0] == n[1] else f"{n[0]}-{n[1]}"
        text = f"at each checkpoint run the next test set ({count} test sets in all, {order}), then resume training"
        if not p.test_sets:
            text = "checkpoints fire, but there are no test sets to run; training resumes at once"
        events.append({"event": "checkpoint-tests", "count": _range(n) if p.test_sets else {"min": 0, "max": 0}, "text": text})
    else:
        events.append({"event": "train", "until": "end", "text": "train without checkpoints (both checkpoint limits are off: no checkpoint tests)"})
    if ends:
        events.append({"event": "training-ends", "when": ends, "text": "training ends at " + ", ".join(ends[:-1]) + (" or " if len(ends) > 1 else "") + ends[-1] + ", whichever comes first"})
        events.append({"event": "final-test", "text": "final test"})
    else:
        events.append({"event": "training-ends", "when": [], "text": "training never ends: every training limit is off (no final test)"})
    return events


def _amount(r: dict[str, int] | None) -> str:
    if r is None:
        return "? levels"
    return f"{r['min']} levels" if r["min"] == r["max"] else f"{r['min']}-{r['max']} levels"


def _secs(r: dict[str, int] | None) -> str:
    if r is None:
        return "?"
    return f"{r['min']} s" if r["min"] == r["max"] else f"{r['min']}-{r['max']} s"


def _limit(v: int | None, unit: str) -> str:
    return "off" if v is None or v <= 0 else f"{v}{unit}"


def render_text(doc: dict[str, Any]) -> str:
    totals = doc["totals"]
    out = [
        f"{doc['path'] or '<stdin>'}: Science Birds trial templates (configMeta.xml): "
        f"{totals['trial_templates']} template(s), {totals['trials_generated']} trial(s) generated, {totals['executions']} execution(s)"
    ]
    nd = doc["novelty_detection"]
    if nd["requested"]:
        where = " and ".join(w for w, on in (("training", nd["measure_in_training"]), ("testing", nd["measure_in_testing"])) if on)
        out.append(f"novelty likelihood: requested every {nd['step']} interactions in {where}")
    else:
        out.append("novelty likelihood: never requested")
    for t in doc["trials"]:
        out.append("")
        both = " (x2 for both)" if t["notify_novelty"] == "both" else ""
        out.append(
            f"trial template {t['index'] + 1} (line {t['line']}): notify_novelty={t['notify_novelty']}, "
            f"count {t['count']}{both} -> {t['trials_generated']} trial(s), repeats {t['repeats']}"
        )
        c = t["checkpoint"]
        out.append(f"  checkpoint: time {_limit(c['time'], ' s')}, interaction {_limit(c['interaction'], '')}")
        tr = t["training"]
        lim = tr["limits"]
        kind = {True: "a sequence", False: "an unordered set", None: "order unspecified"}[tr["ordered"]]
        out.append(
            f"  training ({kind}): {_limit(lim['time_per_level'], ' s')} per level, {_limit(lim['interaction'], '')} interactions, "
            f"{_limit(lim['attempt_per_level'], '')} attempts per level; time limit {_secs(tr['time_limit'])}"
        )
        for i, s in enumerate(tr["sets"], 1):
            out.append(
                f"    set {i} (line {s['line']}): novelty level {s['novelty_level']} type {s['novelty_type']}, "
                f"{_amount(s['amount'])}, {_secs(s['time_limit'])}"
            )
        te = t["test"]
        n = te["total_n_testsets"]
        terms = " + ".join(
            f"ceil({x['training']} / {x['checkpoint']})" if x["enabled"] else f"0 ({x['limit']} off)" for x in te["terms"]["max"]
        )
        values = " + ".join(str(x["test_sets"]) for x in te["terms"]["max"])
        total = f"{n['min']}" if n["min"] == n["max"] else f"{n['min']}-{n['max']}"
        out.append(f"  test sets ({'configured order' if te['ordered'] else 'shuffled'}): total_n_testsets = {terms} = {values} -> {total}")
        if not te["sets"]:
            out.append("    (no test sets)")
        for i, s in enumerate(te["sets"], 1):
            nt = s["n_testsets"]
            count = "?" if nt is None else (str(nt["min"]) if nt["min"] == nt["max"] else f"{nt['min']}-{nt['max']}")
            out.append(
                f"    set {i} (line {s['line']}): novelty level {s['novelty_level']} type {s['novelty_type']}, "
                f"{_amount(s['amount'])}, {s['set_appearance_percentage']}% -> n_testsets {count}"
            )
        out.append("  timeline:")
        for i, e in enumerate(t["timeline"], 1):
            out.append(f"    {i}. {e['text']}")
        for note in t["notes"]:
            out.append(f"  note: {note}")
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
    executions = sum(max(t["number_of_executions"] or 0, 0) for t in trials)
    return {"path": model.path, "kind": GENERATED_KIND, "trials": trials, "totals": {"trials": len(trials), "executions": executions}}


def render_generated_text(doc: dict[str, Any]) -> str:
    totals = doc["totals"]
    out = [f"{doc['path'] or '<stdin>'}: Science Birds evaluation (config.xml): {totals['trials']} trial(s), {totals['executions']} execution(s)"]
    for t in doc["trials"]:
        tr = t["training"]
        training = "no training set" if tr is None else f"training {tr['levels']} levels, time limit {tr['time_limit']} s, {tr['interaction_limit']} interactions"
        tests = ", ".join(str(s["levels"]) for s in t["test_sets"]) or "none"
        out.append(
            f"  trial {t['id']} (line {t['line']}): x{t['number_of_executions']}, notify_novelty={t['notify_novelty']}, "
            f"checkpoint {t['checkpoint']['time']} s / {t['checkpoint']['interaction']} interactions; {training}; test sets (levels): {tests}"
        )
    return "\n".join(out)
