"""Agents: the protocol (`base`), the built-ins (`builtin`), loading ``--agent`` (`load`) and the
adapters for tella-style agents (`tella`) and stable-baselines3 (`sb3`)."""
