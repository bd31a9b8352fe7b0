"""One module per ``sylla`` subcommand; see ``sylla.cli``."""
