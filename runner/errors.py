"""The one exception the runner raises for bad input, with the exit code the command uses."""

from __future__ import annotations

#: bad data met while running (an environment that raised, an invalid action, a bad syllabus)
EXIT_FAILED = 1
#: usage: an unknown task or parameter, an agent that cannot be loaded, an output that exists or
#: cannot be written, a missing file
EXIT_USAGE = 2


class RunError(Exception):
    """A user-facing problem: ``where`` locates it (``file:line:col`` of the syllabus, a config
    file's line, or nothing), ``exit_code`` is what ``sylla run`` exits with."""


    def __init__(self, message: str, where: str | None = None, exit_code: int = EXIT_USAGE,
                 param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.exit_code = exit_code
        #: the syllabus parameter the problem is about, so the plan can point at its value
        self.param = param

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message
