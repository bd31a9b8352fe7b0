"""The sylla language server (pygls): the linter and the model mapped onto LSP requests."""
