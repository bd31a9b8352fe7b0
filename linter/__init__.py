"""The linter: rules with stable codes over the syllabus model, config, fixes, reporters."""
