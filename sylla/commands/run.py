"""``sylla run SYLLABUS --agent AGENT -o RUN_DIR``: execute a syllabus on Gymnasium environments.

Only the standard library is imported here; the runner (gymnasium, MiniGrid, l2logger, numpy)
loads inside `run`.
"""

from __future__ import annotations

import argparse
import shlex
import sys

EXIT_CODES = (
    (0, "the run finished (or, with --resume, was already finished)"),
    (1, "the syllabus has errors, or the run stopped on an environment or agent failure (the message names "
        "the episode, the task and the syllabus line; the log holds every episode before it)"),
    (2, "usage: an unknown task, parameter or agent, a value an environment refuses, an output folder that "
        "exists (without --force or --resume) or cannot be written, a missing file"),
    (130, "stopped by Ctrl-C after a checkpoint; the message gives the --resume command"),
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run", help="run a syllabus with an agent on Gymnasium environments",
        description="Walk the syllabus's schedule episode by episode (the schedule explain and metrics use), "
        "make each task's environment through the task registry (Gymnasium ids, the L2M $minigridkit: "
        "names, the config's [tasks] and sylla.tasks entry points), let the agent learn where the schedule "
        "allows it, and write an l2logger run with l2logger's own DataLogger into RUN_DIR, with run.json "
        "beside it. Same seed, same built-in agent: same rewards. A run killed at any moment goes on "
        "with --resume to the log an uninterrupted run writes (docs/run.md).",
    )
    p.add_argument("syllabus", metavar="SYLLABUS", help="the syllabus file")
    p.add_argument("--agent", "-a", required=True, metavar="AGENT",
                   help="random, tabular-q, sb3-ppo, sb3-dqn (the run-sb3 extra), package.module:Class, or the "
                   "name of a sylla.agents entry point")
    p.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE",
                   help="an argument of the agent's constructor; VALUE is read as JSON when it parses "
                   "(repeatable; e.g. --agent-arg epsilon=0.05)")
    p.add_argument("-o", "--out", dest="output", required=True, metavar="RUN_DIR",
                   help="the run folder: the l2logger log, run.json and the checkpoints")
    p.add_argument("--seed", type=int, default=0, help="seed of the agent and of every episode's reset")
    p.add_argument("--resume", action="store_true", help="go on with the run in RUN_DIR from its last checkpoint")
    p.add_argument("--force", action="store_true", help="replace the sylla run in RUN_DIR")
    p.add_argument("--checkpoint-every", type=int, default=100, metavar="N",
                   help="save a checkpoint every N episodes")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar "
                   "(default: shown on a terminal for runs that take over about a second)")
    p.set_defaults(run=run)


def resume_command(args: argparse.Namespace) -> str:
    words = ["sylla", "run", args.syllabus, "--agent", args.agent]
    for item in args.agent_arg:
        words += ["--agent-arg", item]
    words += ["-o", args.output, "--seed", str(args.seed)]
    if args.checkpoint_every != 100:
        words += ["--checkpoint-every", str(args.checkpoint_every)]
    return shlex.join([*words, "--resume"])


def run(args: argparse.Namespace) -> int:
    from sylla.runner.agents.load import parse_args  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.runner.run import RunRequest, run_one  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)
    from sylla.runner.tasks.errors import TaskError  # noqa: PLC0415 - lazy: a command module imports only the standard library at registration (sylla/cli.py)

    bars: list = []

    def progress(total: int, done: int):  # type: ignore[no-untyped-def]  # the bar's callback, built lazily
        from sylla.metrics.progress import Progress  # noqa: PLC0415 - lazy: rich loads only when a bar is drawn

        bar = Progress(total, "run", False if args.no_progress else None, count=True)
        bar.advance(done)
        bars.append(bar)
        return bar.advance

    try:
        request = RunRequest(args.syllabus, args.agent, args.output, args.seed, parse_args(args.agent_arg),
                             args.resume, args.force, args.checkpoint_every, tuple(sys.argv))
        outcome = run_one(request, progress)
    except TaskError as exc:  # a RunError too
        for bar in bars:
            bar.close()
        for line in str(exc).splitlines():
            print(f"sylla run: {line}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        for bar in bars:
            bar.close()
        print(f"sylla run: stopped; go on from the last checkpoint with:\n  {resume_command(args)}", file=sys.stderr)
        return 130
    for bar in bars:
        bar.close()
    if outcome.status == "stopped":
        print(f"sylla run: stopped after episode {outcome.episodes} of the run (checkpoint saved); go on with:\n"
              f"  {resume_command(args)}", file=sys.stderr)
        return 130
    note = f", resumed at episode {outcome.resumed_from}" if outcome.resumed_from else ""
    print(f"wrote {outcome.run_dir} ({outcome.episodes} episodes, agent {args.agent}, seed {args.seed}{note})",
          file=sys.stderr)
    return 0
