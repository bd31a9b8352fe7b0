"""The one exception the runner raises for bad input, with the exit code the command uses."""

from __future__ import annotations

from .tasks.errors import EXIT_USAGE, TaskError

#: bad data met while running (an environment that raised, an invalid action, a bad syllabus)
EXIT_FAILED = 1
__all__ = ["EXIT_FAILED", "EXIT_USAGE", "RunError", "TaskError"]


class RunError(TaskError):
    """A `TaskError` of the run itself: ``exit_code`` is what ``sylla run`` exits with (usage:
    an unknown agent, an output that exists or cannot be written, a missing file; failed: an
    environment that raised, an invalid action, a syllabus with errors)."""

    def __init__(self, message: str, where: str | None = None, exit_code: int = EXIT_USAGE,
                 param: str | None = None) -> None:
        super().__init__(message, where, param)
        self.exit_code = exit_code
