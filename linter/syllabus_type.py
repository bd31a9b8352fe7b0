"""Which syllabus type a file is linted as: declared, configured, or inferred (and why).

Precedence: ``--type`` (or the editor), the file's top-level ``"syllabus_type"``, the
config's ``per-file-types``, else inference from the structure. An undeclared several-task
syllabus without variation is linted as ANT-A (ANT-A and ANT-B have the same shape).
"""

from __future__ import annotations

from sylla.grammar.syllabus.model import Syllabus
from sylla.grammar.syllabus.syllabus_type import TypeInference, infer_type
from sylla.kit.no_typing import TYPE_CHECKING
from sylla.kit.record import record

if TYPE_CHECKING:
    from .config import Config  # config takes TYPES from here

#: the syllabus types a file can be linted as (``--type``, ``"syllabus_type"``, ``per-file-types``)
TYPES = ("CL", "ANT-A", "ANT-B", "ANT-C", "STE")


@record(frozen=True)
class SyllabusType:
    """``type`` is what the per-type rules use: CL, ANT-A, ANT-B, ANT-C, STE or unannotated."""

    type: str
    #: "option" (--type / editor), "file" ("syllabus_type"), "config" (per-file-types), "inferred"
    source: str
    reason: str
    inference: TypeInference

    @property
    def declared(self) -> bool:
        return self.source != "inferred"


def resolve_type(model: Syllabus, config: Config) -> SyllabusType:
    inference = infer_type(model)
    if config.type in TYPES:
        return SyllabusType(config.type, "option", f"--type {config.type}", inference)
    if model.declared_type in TYPES:
        return SyllabusType(model.declared_type, "file", f'"syllabus_type": "{model.declared_type}"', inference)
    configured = config.type_for(model.path)
    if configured:
        return SyllabusType(configured, "config", f"per-file-types in {config.source}", inference)
    kind = "ANT-A" if inference.type == "ANT-A/B" else inference.type
    reason = inference.reason
    if inference.type == "ANT-A/B":
        reason += '; linted as ANT-A (declare "syllabus_type": "ANT-B" for transfer-matrix checks)'
    return SyllabusType(kind, "inferred", reason, inference)
