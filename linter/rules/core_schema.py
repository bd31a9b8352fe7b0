"""S2xx: schema violations, one rule per JSON Schema keyword class.

The schema (``grammar/syllabus/syllabus.schema.json``) is the single statement of structure; the core
validates against it and maps each error to the offending node. These rules give the classes
stable codes; more specific rules (phase labels, unknown directives) claim their own errors.
"""

from __future__ import annotations

from sylla.grammar.core import Diagnostic, Severity
from sylla.kit.no_typing import TYPE_CHECKING

from ..context import Context
from ..finding import Finding, RelatedSpan
from ..rule import Rule, rule_doc

if TYPE_CHECKING:
    from typing import Any

_WHY = (
    "**Why it matters.** Engines validate instructions as they run them; a malformed instruction "
    "stops a run part-way, after hours of compute, and the schedule sylla computes for the "
    "metrics no longer matches what ran."
)


class SchemaType(Rule):
    code, name, severity, kinds = "S201", "wrong-type", Severity.ERROR, ("type",)
    __doc__ = rule_doc(
        "A value has the wrong JSON type (a string count, an object where a list belongs).",
        "JSON Schema `type` errors: counts and batch numbers must be integers, `instructions` a list, parameters scalars or lists.",
        '{"$repeat": {"$episode": "Pong"}, "count": "5000"}',
        '{"$repeat": {"$episode": "Pong"}, "count": 5000}',
        "Write the value with the type the message names.",
        why=_WHY,
    )

    def claims(self, diag: Diagnostic, ctx: Context) -> bool:
        """A parameter set to ``null`` (or an object) fails the schema's ``anyOf`` of value
        types: the value is there with the wrong type, so it is S201, not a missing field."""
        if diag.kind != "schema" or diag.keyword not in ("anyOf", "oneOf"):
            return False
        value: Any = ctx.model.value
        for part in diag.path:
            try:
                value = value[part]
            except (KeyError, IndexError, TypeError):
                return False
        return not isinstance(value, dict)

    def from_diagnostic(self, diag: Diagnostic, ctx: Context) -> Finding:
        related = tuple(RelatedSpan(r.message, r.span) for r in diag.related)
        return Finding(self.code, self.name, self.severity, diag.message, diag.span, None, related)


class SchemaRequired(Rule):
    code, name, severity, kinds = "S202", "missing-field", Severity.ERROR, ("required", "anyOf", "oneOf")
    __doc__ = rule_doc(
        "A required key or directive is missing (`count` beside `$repeat`, `instructions`).",
        "JSON Schema `required`/`anyOf` errors: an instruction without any directive, a `$repeat` without `count`, a file without `instructions`.",
        '{"$repeat": {"$episode": "Pong"}}',
        '{"$repeat": {"$episode": "Pong"}, "count": 5000}',
        "Add the missing key.",
        why=_WHY,
    )


class SchemaEnum(Rule):
    code, name, severity, kinds = "S203", "invalid-choice", Severity.ERROR, ("enum", "const")
    __doc__ = rule_doc(
        "A value is not one of the allowed choices (`contains`, `syllabus_type`).",
        'JSON Schema `enum` errors: `contains` is "episodes" or "datasets"; `syllabus_type` is CL, ANT-A, ANT-B or ANT-C.',
        '{"contains": "episode", "instructions": []}',
        '{"contains": "episodes", "instructions": []}',
        "Use one of the values the message lists.",
        why=_WHY,
    )


class SchemaRange(Rule):
    code, name, severity, kinds = "S204", "out-of-range", Severity.ERROR, ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    __doc__ = rule_doc(
        "A number is out of range (a count of 0).",
        "JSON Schema `minimum` errors: `count` and `num_batches` are at least 1.",
        '{"$repeat": {"$episode": "Pong"}, "count": 0}',
        '{"$repeat": {"$episode": "Pong"}, "count": 100}',
        "Use a positive count, or delete the block.",
        why=_WHY,
    )


class SchemaPattern(Rule):
    code, name, severity, kinds = "S205", "bad-name", Severity.ERROR, ("pattern",)
    __doc__ = rule_doc(
        "A task reference or parameter name is malformed.",
        'JSON Schema `pattern` errors: task references are a name ("Pong") or "$package.module:Pong"; parameter names are words or slash paths without spaces.',
        '{"$episode": "l2arcadekit.l2agames:Pong"}',
        '{"$episode": "$l2arcadekit.l2agames:Pong"}',
        "Spell the reference as the message shows.",
        why=_WHY,
    )


class SchemaUnexpectedKey(Rule):
    code, name, severity, kinds = "S206", "unexpected-key", Severity.ERROR, ("additionalProperties", "propertyNames", "unevaluatedProperties")
    __doc__ = rule_doc(
        "An instruction has a key it does not allow (`count` on `$phase`, `count` inside `$repeat`).",
        "JSON Schema `additionalProperties`/`propertyNames` errors on instructions, among them a "
        "`$phase`, `$info` or `$repeat` inside a `$repeat`: each is an instruction of its own, and "
        "inside a `$repeat` it is no directive to an engine, so the instruction schedules nothing "
        "(`{\"$repeat\": {\"$phase\": \"1.train\"}, \"count\": 100}` is no train phase).",
        '{"$repeat": {"$episode": "Pong", "count": 5000}}',
        '{"$repeat": {"$episode": "Pong"}, "count": 5000}',
        "Move the key to where it belongs or remove it.",
        why=_WHY,
    )


class SchemaOther(Rule):
    code, name, severity, kinds = "S299", "schema-violation", Severity.ERROR, ("schema:*",)
    __doc__ = rule_doc(
        "Any other schema violation.",
        "Schema errors of keywords without a rule of their own.",
        "(depends on the problem)",
        "(depends on the problem)",
        "Follow the message.",
        why=_WHY,
    )


RULES = (SchemaType, SchemaRequired, SchemaEnum, SchemaRange, SchemaPattern, SchemaUnexpectedKey, SchemaOther)
