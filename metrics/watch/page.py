"""The dashboard page, live (assets served by the server) or frozen into one file.

Why one page for both: ``sylla report`` must show the same views as ``sylla watch``; the frozen
file inlines the same scripts and carries the state and curve points as JSON in a
``<script type="application/json">``, so it opens from disk with no network at all.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

#: the only files the server hands out (name -> media type): no request names a path
ASSETS = {
    "app.js": "text/javascript",
    "vega.min.js": "text/javascript",
    "vega-lite.min.js": "text/javascript",
    "vega-embed.min.js": "text/javascript",
    "VEGA-LICENSES.txt": "text/plain",
}
#: page templates that are not served as assets (`asset` reads them too)
_TEMPLATES = ("index.html", "sweep.html")
_LIBRARIES = ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")


def asset(name: str) -> bytes:
    """One of `ASSETS`, from the installed package (the wheel ships them as package data)."""
    if name not in ASSETS and name not in _TEMPLATES:
        raise KeyError(name)
    return resources.files("sylla.metrics.watch").joinpath("assets", name).read_bytes()


def live_page() -> str:
    """index.html with the libraries loaded from the server's own /assets/."""
    tags = "\n".join(f'<script src="assets/{n}"></script>' for n in _LIBRARIES)
    return asset("index.html").decode("utf-8").replace("<!--SYLLA-ASSETS-->", tags)


def _inline(name: str) -> str:
    # "</script" inside a library would end the inline element early
    text = asset(name).decode("utf-8").replace("</script", "<\\/script")
    return f"<script>\n{text}\n</script>"


def inline_libraries() -> str:
    """Vega, Vega-Lite and vega-embed as inline scripts (a file that fetches nothing)."""
    return "\n".join(_inline(n) for n in _LIBRARIES)


def frozen_page(state: dict[str, Any], points: list[dict[str, Any]], title: str) -> str:
    """One self-contained HTML file: libraries, data and the app inline; no URL is fetched."""
    data = json.dumps({"state": state, "points": points, "title": title}, allow_nan=False,
                      default=str).replace("</", "<\\/")
    head = inline_libraries()
    page = asset("index.html").decode("utf-8").replace("<!--SYLLA-ASSETS-->", head)
    return page.replace('<script src="assets/app.js"></script>',
                        f'<script type="application/json" id="sylla-data">{data}</script>\n'
                        + _inline("app.js"))
