"""Write a complete syllabus from a few choices (``sylla new``).

The generator is the positive side of the linter: each syllabus type has a shape that the
reference text describes (custom-syllabi.tex) and that the T4xx/H5xx/P3xx rules check, and
``build`` emits exactly that shape, so the output lints clean for its declared type:

- CL: one task; one train phase per value of the varied parameter, each followed by a test
  phase that evaluates every value (performance maintenance across the variation).
- ANT-A / ANT-B: one train phase per task; every test phase evaluates every task, which
  covers each ANT-B transfer cell (a test of j after i's training and before j's, and a test
  of i after j's training).
- ANT-C: one train phase per task with all its variations; the test phase after it
  evaluates the variations of the *other* tasks (the reference's "then the order is switched").
- STE: one task, one train phase: the single-task-expert run the STE-relative metrics need.

Options are checked here (``AuthorError``) so the CLI, the editor or a test get the same
message for a bad combination. The text is canonical: it goes through the formatter that
``sylla fmt`` uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .fmt import format_text

TYPES = ("CL", "ANT-A", "ANT-B", "ANT-C", "STE")
STYLES = ("info", "enable_updates")


class AuthorError(ValueError):
    """A bad combination of options; the message says which and what to do instead."""


@dataclass(frozen=True)
class Variation:
    """``--vary TASK:PARAM=v1,v2``: the values one parameter of one task takes."""

    task: str
    param: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Spec:
    """Everything ``sylla new`` needs; defaults match the reference examples."""

    type: str
    tasks: tuple[str, ...]
    episodes: int = 5000
    test_episodes: int = 100
    pretest: bool = False
    vary: tuple[Variation, ...] = ()
    module: str | None = None
    style: str = "info"
    name: str | None = None
    author: str = "sylla new"
    contains: str = "episodes"
    extra: dict[str, Any] = field(default_factory=dict)


def parse_value(text: str) -> Any:
    """A ``--vary`` value: a JSON scalar when it reads as one (0.2, true, null), else a string."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if not isinstance(value, (list, dict)) else text


def parse_vary(text: str) -> Variation:
    """``TASK:PARAM=v1,v2,...`` (the task name ends at the first colon, the parameter at the
    first ``=``; parameter names such as ``bot/paddle/width`` contain neither)."""
    task, sep, rest = text.partition(":")
    param, sep2, values = rest.partition("=")
    if not sep or not sep2 or not task or not param or not values:
        raise AuthorError(f"--vary {text!r}: expected TASK:PARAM=v1,v2,... (e.g. Pong:bot/paddle/width=0.15,0.2)")
    parsed = tuple(parse_value(v.strip()) for v in values.split(","))
    if any(v == "" for v in parsed):
        raise AuthorError(f"--vary {text!r}: empty value in the list")
    return Variation(task.strip(), param.strip(), parsed)


def validate(spec: Spec) -> None:
    """Refuse combinations whose output could not lint clean for its type."""
    if spec.type not in TYPES:
        raise AuthorError(f"--type {spec.type!r}: choose one of {', '.join(TYPES)}")
    if spec.style not in STYLES:
        raise AuthorError(f"--style {spec.style!r}: choose info or enable_updates")
    if not spec.tasks:
        raise AuthorError("give at least one --task")
    dupes = sorted({t for t in spec.tasks if spec.tasks.count(t) > 1})
    if dupes:
        raise AuthorError(f"--task {dupes[0]!r} is given twice")
    if any(not t.strip() or t.startswith("$") for t in spec.tasks):
        raise AuthorError("a --task name must be non-empty and must not start with '$' (use --module for the prefix)")
    if spec.module is not None and (not spec.module or spec.module.startswith("$") or ":" in spec.module):
        raise AuthorError(f"--module {spec.module!r}: give the bare module path, e.g. l2arcadekit.l2agames")
    if spec.episodes < 1 or spec.test_episodes < 1:
        raise AuthorError("--episodes and --test-episodes must be at least 1")
    seen: set[tuple[str, str]] = set()
    for v in spec.vary:
        if v.task not in spec.tasks:
            raise AuthorError(f"--vary {v.task}:{v.param}: task {v.task!r} is not one of the --task names "
                              f"({', '.join(spec.tasks)})")
        if (v.task, v.param) in seen:
            raise AuthorError(f"--vary {v.task}:{v.param} is given twice; list all values in one --vary")
        seen.add((v.task, v.param))
        if len(set(map(json.dumps, v.values))) != len(v.values):
            raise AuthorError(f"--vary {v.task}:{v.param}: a value is listed twice")
        if len(v.values) < 2:
            raise AuthorError(f"--vary {v.task}:{v.param}: give at least two values (one value is no variation)")
    n = len(spec.tasks)
    if spec.type in ("CL", "STE") and n != 1:
        raise AuthorError(f"--type {spec.type} takes exactly one --task (got {n}); use ANT-A/B/C for several tasks")
    if spec.type.startswith("ANT") and n < 2:
        raise AuthorError(f"--type {spec.type} needs at least two --task names (got {n}); use CL or STE for one task")
    if spec.type == "CL":
        if len(spec.vary) != 1:
            raise AuthorError("--type CL needs exactly one --vary TASK:PARAM=v1,v2,... (CL varies one parameter)")
    if spec.type in ("ANT-A", "ANT-B", "STE") and spec.vary:
        raise AuthorError(f"--type {spec.type} may not vary a parameter (--vary); use "
                          f"{'CL' if spec.type == 'STE' else 'ANT-C'} for variation")
    if spec.type == "ANT-C":
        if not spec.vary:
            raise AuthorError("--type ANT-C needs --vary for at least one task (it exercises parametric variation)")
        if any(sum(1 for v in spec.vary if v.task == t) > 1 for t in spec.tasks):
            raise AuthorError("--type ANT-C: vary at most one parameter per task")
    if spec.type == "STE" and spec.pretest:
        raise AuthorError("--type STE has no test phase, so --pretest does not apply")


def _episode(spec: Spec, task: str) -> str:
    return f"${spec.module}:{task}" if spec.module else task


def _variants(spec: Spec, task: str) -> list[dict[str, Any]]:
    """The parameter settings of a task's blocks: one per value of its --vary, else one empty."""
    for v in spec.vary:
        if v.task == task:
            return [{v.param: value} for value in v.values]
    return [{}]


def _block(spec: Spec, task: str, params: dict[str, Any], count: int) -> dict[str, Any]:
    return {"$repeat": {"$episode": _episode(spec, task), **params}, "count": count}


class _Writer:
    """Appends phases in order, keeping numbering and the learning-off hygiene of the style."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.out: list[dict[str, Any]] = []
        self.tested = False  # a test phase came before (enable_updates style re-enables)

    def train(self, number: int, blocks: list[dict[str, Any]]) -> None:
        phase: dict[str, Any] = {"$phase": f"{number}.train"}
        if self.spec.style == "enable_updates" and self.tested:
            phase["enable_updates"] = True
        self.out += [phase, *blocks]

    def test(self, number: int, blocks: list[dict[str, Any]]) -> None:
        self.tested = True
        if self.spec.style == "enable_updates":
            self.out += [{"$phase": f"{number}.test", "enable_updates": False}, *blocks]
        else:
            self.out += [{"$phase": f"{number}.test"}, {"$info": {"disable_updates": True}}, *blocks, {"$info": {}}]


def instructions(spec: Spec) -> list[dict[str, Any]]:
    """The instruction list for a validated spec."""
    w = _Writer(spec)
    tests = spec.test_episodes
    if spec.type == "CL":
        (task,), (v,) = spec.tasks, spec.vary
        every = [_block(spec, task, p, tests) for p in _variants(spec, task)]
        if spec.pretest:
            w.test(0, every)
        for k, value in enumerate(v.values, start=1):
            w.train(k, [_block(spec, task, {v.param: value}, spec.episodes)])
            w.test(k, every)
    elif spec.type == "STE":
        (task,) = spec.tasks
        w.train(1, [_block(spec, task, {}, spec.episodes)])
    else:
        def test_blocks(tasks: tuple[str, ...]) -> list[dict[str, Any]]:
            return [_block(spec, t, p, tests) for t in tasks for p in _variants(spec, t)]

        if spec.pretest:
            w.test(0, test_blocks(spec.tasks))
        for k, task in enumerate(spec.tasks, start=1):
            w.train(k, [_block(spec, task, p, spec.episodes) for p in _variants(spec, task)])
            others = spec.tasks if spec.type != "ANT-C" else tuple(t for t in spec.tasks if t != task)
            w.test(k, test_blocks(others))
    return w.out


def build(spec: Spec) -> str:
    """The syllabus text for ``spec``: validated, deterministic, in ``sylla fmt``'s layout."""
    validate(spec)
    name = spec.name or "-".join([spec.type.lower(), *(t.lower() for t in spec.tasks)])
    doc: dict[str, Any] = {
        "name": name,
        "author": spec.author,
        "contains": spec.contains,
        "syllabus_type": spec.type,
        "default_params": {},
        **spec.extra,
        "instructions": instructions(spec),
    }
    text = format_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    assert text is not None  # json.dumps always yields valid syntax
    return text
