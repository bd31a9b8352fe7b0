"""Session fixtures of the VS Code tests live in vscode_support.py."""

from vscode_support import build, built, node_modules, packaged_extension, vsix  # noqa: F401
