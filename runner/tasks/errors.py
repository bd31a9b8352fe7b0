"""The one exception of the task registry: a name, parameter, value or table a user got wrong."""

from __future__ import annotations

#: the exit code of a usage problem, as ``sylla run`` and ``sylla lint`` exit with it
EXIT_USAGE = 2


class TaskError(Exception):
    """A user-facing problem: ``where`` locates it (a config file's ``path:line``, or nothing),
    ``param`` is the syllabus parameter it is about, so that a caller can point at its value.
    The runner's `RunError` is a `TaskError` with its own exit code; the linter turns one from
    a config table or a registry file into its ``ConfigError``."""

    exit_code: int = EXIT_USAGE

    def __init__(self, message: str, where: str | None = None, param: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.param = param

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message
