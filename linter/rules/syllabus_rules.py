"""The syllabus rules (S1xx, S2xx, P3xx, T4xx, H5xx, N6xx, R7xx, M9xx), in registry order.

The only rule modules a syllabus lint imports (issue 24): the Science Birds and wave-3 rules
live in ``birds_rules`` and ``trials_rules`` and load when a file of their language is linted."""

from __future__ import annotations

from ..rule import Rule
from . import core_schema, core_syntax
from .absurd_count import AbsurdCount
from .alternation import PhaseAlternation
from .ant_ab_variation import AntAbParameterVariation
from .ant_b_matrix import AntBTransferMatrix
from .ant_c_test_task import AntCTestSameTask
from .ant_c_variation import AntCNoVariation
from .ant_no_test import AntNoTestPhase
from .ant_single_task import AntSingleTask
from .bad_suppression import BadSuppression
from .block_before_phase import BlockBeforePhase
from .cl_no_test import ClNoTestPhase
from .cl_no_variation import ClNoVariation
from .cl_single_task import ClMultipleTasks
from .contains_mismatch import ContainsMismatch
from .duplicate_blocks import DuplicateAdjacentBlocks
from .duplicate_phase import DuplicatePhaseLabel
from .empty_phase import EmptyPhase
from .first_block_train import FirstBlockNotTrain
from .info_not_reset import InfoDisableNotReset
from .no_phases import NoPhaseAnnotations
from .non_json import NonJsonSyntax
from .phase_label import PhaseLabelFormat
from .phase_numbering import PhaseNumbering
from .registry_param import UnknownParameter
from .registry_task import UnknownTask
from .registry_value import BadParameterValue
from .required_metric import RequiredMetricInfeasible
from .ste_multiple_tasks import SteMultipleTasks
from .ste_variation import SteParameterVariation
from .test_learning_on import TestPhaseLearningOn
from .trailing_comma import TrailingComma
from .train_learning_off import LearningDisabledInTrain
from .type_inferred import SyllabusTypeInferred
from .unknown_directive import UnknownDirective
from .unknown_info_key import UnknownInfoKey
from .unknown_top_key import UnknownTopLevelKey
from .zero_shot import ZeroShotTest

RULES: tuple[type[Rule], ...] = (
    *core_syntax.RULES, *core_schema.RULES, PhaseLabelFormat, PhaseNumbering, DuplicatePhaseLabel,
    FirstBlockNotTrain, BlockBeforePhase, PhaseAlternation, EmptyPhase, NoPhaseAnnotations,
    SyllabusTypeInferred, ClMultipleTasks, ClNoVariation, ClNoTestPhase, AntNoTestPhase, AntSingleTask,
    AntAbParameterVariation, AntCNoVariation, AntCTestSameTask, AntBTransferMatrix, SteMultipleTasks,
    SteParameterVariation, TestPhaseLearningOn, InfoDisableNotReset, LearningDisabledInTrain, ZeroShotTest,
    DuplicateAdjacentBlocks, AbsurdCount, NonJsonSyntax, TrailingComma, UnknownDirective, UnknownTopLevelKey,
    ContainsMismatch, UnknownInfoKey, BadSuppression, UnknownTask, UnknownParameter, BadParameterValue,
    RequiredMetricInfeasible,
)
