"""The Science Birds rules (B8xx), in registry order; imported only when a Science Birds
config is linted, or when every rule is listed (issue 24)."""

from __future__ import annotations

from ..rule import Rule
from . import birds_core
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

RULES: tuple[type[Rule], ...] = (
    *birds_core.RULES, MetaBooleanCase, MeasurementContradiction, TrialDisabled, CheckpointsOff,
    TrainingNeverEnds, UnknownLimitType, DuplicateLimit, BadLimitValue, AmountRange, PortionRange,
    AppearancePercentage, TestWithoutLevelSets, GeneratedBooleanCase, DuplicateTrialId, NoExecutions,
    MissingTrainingLevels, ExtraTrainingSet, WindowsLevelPath, TimeLimitMismatch,
)
