"""sylla's runner: execute a syllabus on real Gymnasium environments with an agent.

The runner walks the schedule that ``explain`` and the metrics use (``sylla.grammar.schedule``),
creates each task's environment through the task registry (`registry`), hands events to an agent
(`agents`) and writes the run through l2logger's own ``DataLogger`` (`log`), with a manifest and
checkpoints beside it so that a killed run resumes to the same log (`run`).

Imports from the rest of sylla are few and named here, so that the room can move as one:
``sylla.grammar.syllabus.parse`` / ``model`` / ``schedule`` (the language core) and ``sylla.kit``.
The task registry (`tasks`) is a sub-room below the linter, which asks it for its R7xx rules; it
imports only ``sylla.kit``. The command (``sylla/commands/run.py``) draws the bar with
``sylla.metrics.progress``. Gymnasium, MiniGrid and l2logger load only when a run needs them (the
``run`` extra).
"""
