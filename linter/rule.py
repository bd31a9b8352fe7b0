"""What a rule is: a stable code, a kebab-case name, a default severity, documentation, a check.

A rule is a class whose docstring is its documentation (markdown: what it checks, why it
matters for the metrics, a bad and a good example, the fix); the first line is the summary
shown by ``sylla rules``. Rules see the model, the schedule and the config through a
``Context``; they never see an editor or a reporter. Modelled on ruff's per-rule pages and
yamllint's rule protocol (an ID, a type, a ``check`` generator), in our own terms.
"""

from __future__ import annotations

from pathlib import Path

from sylla.grammar.core import Severity
from sylla.kit.no_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import ClassVar, Iterable

    from .context import Context
    from .finding import Finding

#: the rule documentation; ``doc_url`` points into it, never at a web domain. Two folders
#: above this file: ``docs/rules.md`` in a checkout, and ``sylla/docs/rules.md`` in an
#: installed wheel (pyproject.toml ships docs/ as the package data of ``sylla.docs``), so the
#: links an editor shows lead to a page for pip users too.
DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


PARSE_WHY = (
    "**Why it matters.** An engine cannot load a file it cannot parse, so no episode runs and no "
    "log is written; sylla also skips the schema and every structural rule until the syntax is clean."
)


def rule_doc(summary: str, what: str, bad: str, good: str, fix: str, why: str = PARSE_WHY, lang: str = "jsonc") -> str:
    """A rule's documentation page in the shape every rule shares: summary, what, why, bad, good, fix.

    The summary line is what ``sylla rules`` lists; the rest is rendered into docs/rules.md
    and shown by ``sylla rule CODE`` and in the editor's hover. ``lang`` is the examples'
    language (``xml`` for the Science Birds rules).
    """
    return (
        f"{summary}\n\n**What it checks.** {what}\n\n{why}\n\n"
        f"**Bad**\n\n```{lang}\n{bad}\n```\n\n**Good**\n\n```{lang}\n{good}\n```\n\n**Fix.** {fix}\n"
    )


class Rule:
    """Base class of every rule; subclasses set the class attributes and ``check``."""

    code: ClassVar[str] = ""
    name: ClassVar[str] = ""
    severity: ClassVar[Severity] = Severity.WARNING
    #: whether the rule can offer a fix (safe fixes are applied by ``--fix``)
    fixable: ClassVar[bool] = False
    #: core diagnostic kinds this rule reports (syntax and schema rules); empty for model rules
    kinds: ClassVar[tuple[str, ...]] = ()
    #: whether the rule reads the phase and block structure; None: by family (P3xx, T4xx, H5xx)
    reads_structure: ClassVar[bool | None] = None
    #: the language of the files the rule checks: its module loads only when such a file is
    #: linted (``rules/__init__.py``), or when every rule is listed
    language: ClassVar[str] = "syllabus"

    @property
    def structural(self) -> bool:
        """Whether the engine skips this rule while the structure has a typo (an instruction
        with an unknown directive, a malformed phase label): its findings would follow from
        that typo ("1.Test" is no test phase, so "no test phases"), and only the cause is
        reported, as model rules already wait for clean syntax."""
        if self.reads_structure is not None:
            return self.reads_structure
        return self.code[:2] in ("P3", "T4", "H5")

    def check(self, ctx: "Context") -> Iterable["Finding"]:
        """Yield findings for one syllabus. Core-diagnostic rules yield nothing here."""
        return ()

    @property
    def summary(self) -> str:
        import inspect  # noqa: PLC0415  # only documentation reads it; lint start-up does not (issue 24)

        doc = inspect.getdoc(self) or ""
        return doc.strip().splitlines()[0].strip() if doc.strip() else ""

    @property
    def doc(self) -> str:
        """The markdown documentation: the docstring after the summary line."""
        import inspect  # noqa: PLC0415  # only documentation reads it; lint start-up does not (issue 24)

        doc = inspect.getdoc(type(self)) or ""
        lines = doc.strip().splitlines()
        return "\n".join(lines[1:]).strip()

    def doc_url(self, code: str | None = None) -> str:
        return doc_url(code or self.code)

    def __repr__(self) -> str:
        return f"<Rule {self.code} {self.name} {self.severity.value}>"


def anchor(code: str) -> str:
    """The markdown anchor of a rule's heading in docs/rules.md (``## P301`` -> ``p301``)."""
    return code.lower()


def doc_url(code: str) -> str:
    """A ``file://`` URI to the rule's section of the checked-in docs/rules.md."""
    return f"{DOCS_PATH.as_uri()}#{anchor(code)}"


def imported_codes() -> set[str]:
    """The codes of the rule classes under ``sylla.linter.rules`` imported so far.

    Only the languages linted so far have their rule modules imported (issue 24), so a rule
    that must know every code (``bad-suppression``) asks the context's ``rule_codes``, which
    the engine fills from the registry; this is its fallback for a context built without it."""
    codes: set[str] = set()
    stack = list(Rule.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.code and cls.__module__.startswith("sylla.linter.rules."):
            codes.add(cls.code)
    return codes


def known_selector_of(selector: str, codes: Iterable[str]) -> bool:
    """Whether ``select``/``ignore`` may name ``selector`` (a code, a code prefix or ALL)."""
    return selector == "ALL" or any(code.startswith(selector) for code in codes)
