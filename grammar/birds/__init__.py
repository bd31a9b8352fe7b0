"""Science Birds trial configs: ``configMeta.xml`` (``<config_generation>``) and the generated
``config.xml`` (``<evaluation>``), the second language sylla reads.

- ``parse(data, path) -> BirdsParse`` (model with spans, diagnostics)
- ``birds_kind(data) -> "meta" | "generated" | None`` (by root element)
- ``explain(model) -> dict`` and ``render_text(doc)`` for ``configMeta.xml``
- ``schema_path(kind)``: the shipped XSD 1.0 files for editors
- ``describe.describe(result, offset)`` / ``describe.vocabulary(kind)``: hover text with the
  computed counts, and the elements/attributes/values each element allows (for completion)

The linter's entry point for both languages is ``sylla.linter.languages.lint_text``.
"""

from __future__ import annotations

from .detect import birds_kind
from .parse import BirdsParse, parse
from .schema import schema_path

__all__ = ["BirdsParse", "birds_kind", "parse", "schema_path"]
