"""See the package docstring of the parent."""
