"""sylla's runner: execute a syllabus on real Gymnasium environments with an agent.

The runner walks the schedule that ``explain`` and the metrics use (``sylla.grammar.schedule``),
creates each task's environment through the task registry (`registry`), hands events to an agent
(`agents`) and writes the run through l2logger's own ``DataLogger`` (`log`), with a manifest and
checkpoints beside it so that a killed run resumes to the same log (`run`).

Imports from the rest of sylla are few and named here, so that the room can move as one:
``sylla.grammar.parse`` / ``model`` / ``schedule`` / ``suggest`` (the language core),
``sylla.linter.config`` (finding and reading ``sylla.toml`` / ``[tool.sylla]``) and
``sylla.metrics.progress`` (the one progress bar). Gymnasium, MiniGrid and l2logger load only
when a run needs them (the ``run`` extra).
"""
