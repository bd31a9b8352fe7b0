"""Validate a Science Birds config against its shipped XSD 1.0 and say what is wrong in plain words.

The XSDs (``config_generation.xsd``, ``evaluation.xsd``) are the same files editors load; the
``xmlschema`` library checks the document, and each error is mapped back onto the span of the
attribute, element text or child element it is about (as the JSON side maps JSON Schema errors
onto JSON paths), with a message an author can act on instead of the validator's wording.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from sylla.grammar.core import Diagnostic, Span
from sylla.kit.suggest import did_you_mean

from .kinds import Kind
from .numbers import clip
from .xmltree import XmlElement

SCHEMA_DIR = Path(__file__).resolve().parent
SCHEMA_FILES: dict[Kind, str] = {"meta": "config_generation.xsd", "generated": "evaluation.xsd"}

_ATTR_VALUE = re.compile(r"^attribute (\w+)=(['\"])(.*?)\2: (.*)$", re.S)
_NOT_ALLOWED = re.compile(r"^'([^']+)' attribute not allowed")
_MISSING_ATTR = re.compile(r"^missing required attribute '([^']+)'")
_UNEXPECTED = re.compile(r"^Unexpected child with tag '([^']+)' at position (\d+)\.(?: Tag (.*) expected\.)?")
_INCOMPLETE = re.compile(r"^The content of element '([^']+)' is not complete\.(?: Tag (.*) expected\.)?")
_HINTS = {
    "amount": "a number of levels, or lo-hi (drawn from [lo, hi))",
    "limitValue": "a whole number, or true/false for allow_level_selection",
}


def schema_path(kind: Kind) -> Path:
    """The shipped XSD of a kind of file (for editors and for ``validate``)."""
    return SCHEMA_DIR / SCHEMA_FILES[kind]


@functools.cache
def compiled_schema(kind: Kind) -> Any:
    import xmlschema  # noqa: PLC0415 - lazy: start-up, xmlschema loads only when used

    return xmlschema.XMLSchema10(str(schema_path(kind)))


def validate(root: XmlElement, kind: Kind) -> list[Diagnostic]:
    """Schema problems of the document, each on the span of the node it is about."""
    from xml.etree.ElementTree import Element  # noqa: PLC0415 - lazy: start-up, xml.etree.ElementTree loads only when used

    nodes: dict[int, XmlElement] = {}
    keep: list[Element] = []  # keeps ids valid while validating

    def convert(node: XmlElement) -> Element:
        # xmlns and xsi:* attributes (an editor's schema hint) are for validators, not data
        el = Element(node.tag, {a.name: a.value for a in node.attrs if ":" not in a.name and a.name != "xmlns"})
        el.text = node.text or None
        nodes[id(el)] = node
        keep.append(el)
        for child in node.children:
            el.append(convert(child))
        return el

    tree = convert(root)
    out: list[Diagnostic] = []
    for error in compiled_schema(kind).iter_errors(tree):
        node = nodes.get(id(error.elem)) if error.elem is not None else None
        out.append(_diagnostic(error, node or root))
    return out


def _diagnostic(error: Any, node: XmlElement) -> Diagnostic:
    reason = str(error.reason or error.message or "").strip()
    message, span, attr = _words(error, reason, node)
    return Diagnostic("xml-schema", message, span, path=(node.tag,) + ((attr,) if attr else ()), keyword=_keyword(reason))


def _keyword(reason: str) -> str:
    if reason.startswith("attribute "):
        return "value"
    if "not allowed" in reason:
        return "unknown-attribute"
    if reason.startswith("missing required"):
        return "required"
    if reason.startswith(("Unexpected child", "The content of element")):
        return "children"
    return "value"


def _words(error: Any, reason: str, node: XmlElement) -> tuple[str, Span, str | None]:
    m = _ATTR_VALUE.match(reason)
    if m:
        name, value, why = m.group(1), m.group(3), m.group(4)
        a = node.attr(name)
        span = a.value_span if a is not None else node.name_span
        return f'{name}="{clip(value)}" on <{node.tag}>: {_expected(error, why)}', span, name
    m = _NOT_ALLOWED.match(reason)
    if m:
        name = m.group(1)
        a = node.attr(name)
        known = _attribute_names(error)
        hint = did_you_mean(name, known) if known else ""
        allowed = f"; it allows {', '.join(known)}" if known and not hint else ""
        return f'<{node.tag}> has no attribute "{name}"{hint}{allowed}', (a.name_span if a else node.name_span), name
    m = _MISSING_ATTR.match(reason)
    if m:
        return f'<{node.tag}> needs the attribute {m.group(1)}="..."', node.name_span, m.group(1)
    m = _UNEXPECTED.match(reason)
    if m:
        index = getattr(error, "index", None)
        index = int(m.group(2)) - 1 if not isinstance(index, int) else index  # the reason counts from 1
        child = node.children[index] if index < len(node.children) else None
        expected = _tags(m.group(3))
        where = f"<{node.tag}> expects {expected} here" if expected else f"<{node.tag}> has no more children after this point"
        return f"unexpected <{m.group(1)}>: {where}", (child.name_span if child else node.name_span), None
    m = _INCOMPLETE.match(reason)
    if m:
        expected = _tags(m.group(2))
        return f"<{node.tag}> is incomplete: {expected or 'an element'} is missing", node.name_span, None
    if node.text_span is not None or not node.children:
        return f"<{node.tag}>{clip(node.text)}</{node.tag}>: {_expected(error, reason)}", node.value_span, None
    return f"<{node.tag}>: {reason}", node.name_span, None


def _expected(error: Any, why: str) -> str:
    """What the value must be, from the validator that failed."""
    validator = error.validator
    name = getattr(getattr(validator, "parent", None), "local_name", None) or getattr(validator, "local_name", None)
    if name in _HINTS:
        return f"must be {_HINTS[name]}"
    enum = getattr(validator, "enumeration", None)
    if enum:
        return "must be one of " + ", ".join(f'"{v}"' for v in enum)
    if "int()" in why or getattr(validator, "local_name", "") == "integer":
        return "must be a whole number"
    if "decimal" in why or "float" in why or getattr(validator, "local_name", "") == "decimal":
        return "must be a number"
    return why


def _attribute_names(error: Any) -> list[str]:
    group = error.validator
    try:
        return [str(k) for k in group.keys() if k]
    except Exception:  # noqa: BLE001 - the hint is optional
        return []


def _tags(text: str | None) -> str:
    if not text:
        return ""
    names = re.findall(r"'([^']+)'", text)
    return " or ".join(f"<{n}>" for n in names)
