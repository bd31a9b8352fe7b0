"""The task registry: which task names a syllabus may use, the parameters each takes, and how
each becomes an environment.

It is data that two rooms ask: ``sylla run`` (``sylla.runner``), to make each block's
environment, and the linter's R7xx rules, to report an unknown task or parameter at its line
(``sylla lint --registry gymnasium``, or a task registry file). It therefore sits below the
linter: this sub-room imports only ``sylla.kit`` (finding the config, "did you mean") and
nothing of the linter, the metrics or the rest of the runner (``tests/runner/test_layers.py``).

- `spec`: a task (`TaskSpec`) and a parameter (`Param`) as data, and what a task accepts;
- `registry`: the `Registry` over its sources, in order: a task registry file
  (`registry_file`), the config's ``tasks`` table and the ``sylla.tasks`` entry points
  (`user_tasks`), the L2M ``$minigridkit:`` names (`l2m`) and every Gymnasium id (`gym`);
- `signature`: the keyword arguments an environment's constructor takes;
- `errors`: `TaskError`, the one exception for a bad name, parameter or table.

Only `gym` imports gymnasium (and MiniGrid), lazily, when a name is not one of the other
sources', a constructor is read or an environment made.
"""
