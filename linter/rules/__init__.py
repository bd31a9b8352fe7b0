"""Every rule, one module (or class) per rule; the registry lists them in this order.

S1xx syntax/encoding, S2xx schema, P3xx phase annotations, T4xx syllabus type, H5xx test
hygiene, N6xx portability/names/structure, R7xx task registry, M9xx required metrics, B8xx Science
Birds trial configs (configMeta.xml and config.xml; they answer only the Science Birds engine,
``linter/birds.py``), W9xx wave-3 online trials (trial files: ``linter/trials.py``; deliveries:
``linter/deliveries.py``).
"""

from __future__ import annotations

from ..rule import Rule
from . import birds_core, core_schema, core_syntax, trials_delivery, trials_file
from .alternation import PhaseAlternation
from .ant_ab_variation import AntAbParameterVariation
from .ant_b_matrix import AntBTransferMatrix
from .ant_c_test_task import AntCTestSameTask
from .ant_c_variation import AntCNoVariation
from .ant_no_test import AntNoTestPhase
from .ant_single_task import AntSingleTask
from .bad_suppression import BadSuppression
from .birds_checkpoints_off import CheckpointsOff
from .birds_generated_boolean import GeneratedBooleanCase
from .birds_level_paths import WindowsLevelPath
from .birds_level_sets import AmountRange, AppearancePercentage, PortionRange
from .birds_limits import BadLimitValue, DuplicateLimit, UnknownLimitType
from .birds_measurement import MeasurementContradiction
from .birds_meta_boolean import MetaBooleanCase
from .birds_test_without_sets import TestWithoutLevelSets
from .birds_time_limit import TimeLimitMismatch
from .birds_training_never_ends import TrainingNeverEnds
from .birds_training_sets import ExtraTrainingSet, MissingTrainingLevels
from .birds_trial_disabled import TrialDisabled
from .birds_trials import DuplicateTrialId, NoExecutions
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

RULE_CLASSES: tuple[type[Rule], ...] = (
    *core_syntax.RULES,
    *core_schema.RULES,
    PhaseLabelFormat, PhaseNumbering, DuplicatePhaseLabel, FirstBlockNotTrain, BlockBeforePhase,
    PhaseAlternation, EmptyPhase, NoPhaseAnnotations,
    SyllabusTypeInferred, ClMultipleTasks, ClNoVariation, ClNoTestPhase, AntNoTestPhase, AntSingleTask,
    AntAbParameterVariation, AntCNoVariation, AntCTestSameTask, AntBTransferMatrix,
    SteMultipleTasks, SteParameterVariation,
    TestPhaseLearningOn, InfoDisableNotReset, LearningDisabledInTrain, ZeroShotTest, DuplicateAdjacentBlocks,
    NonJsonSyntax, TrailingComma, UnknownDirective, UnknownTopLevelKey, ContainsMismatch, UnknownInfoKey, BadSuppression,
    UnknownTask, UnknownParameter, BadParameterValue, RequiredMetricInfeasible,
    *birds_core.RULES,
    MetaBooleanCase, MeasurementContradiction, TrialDisabled, CheckpointsOff, TrainingNeverEnds,
    UnknownLimitType, DuplicateLimit, BadLimitValue, AmountRange, PortionRange, AppearancePercentage, TestWithoutLevelSets,
    GeneratedBooleanCase, DuplicateTrialId, NoExecutions, MissingTrainingLevels, ExtraTrainingSet,
    WindowsLevelPath, TimeLimitMismatch,
    *trials_file.RULES,
    *trials_delivery.RULES,
)
