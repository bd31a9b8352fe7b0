"""Requests before lints: a lint waits to check its rules while an editor request is answered.

The lint of a new version and the requests the editor sends right after the change (outline,
hover, hints, folds) run in threads of one process, so they share the GIL: on a 500 KB
syllabus a lint's rules hold it for a tenth of a second or more, and a request computed
beside them takes two to three times as long as alone. The person is waiting for the request;
the diagnostics can come a few milliseconds later. So the lint, once its parse is done (a
parse shared with the requests), waits until no request is being answered, at most
``MAX_WAIT`` seconds, so that a stream of requests can never hold diagnostics back for long.
While the rules run it steps aside again before each rule (``pauses``), within one shared
``MAX_WAIT`` for the whole lint.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

#: the longest a lint waits for requests before it checks its rules anyway (seconds)
MAX_WAIT = 0.25


class RequestsFirst:
    """Counts the requests being answered; ``wait`` blocks a lint until there are none."""

    def __init__(self) -> None:
        self._busy = 0
        self._idle = threading.Condition()

    @contextmanager
    def answering(self) -> Iterator[None]:
        with self._idle:
            self._busy += 1
        try:
            yield
        finally:
            with self._idle:
                self._busy -= 1
                if not self._busy:
                    self._idle.notify_all()

    def wait(self, timeout: float = MAX_WAIT) -> bool:
        """Wait until no request is being answered (or ``timeout``); True when none is."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._busy, timeout)

    def pauses(self, budget: float = MAX_WAIT) -> Callable[[], None]:
        """A function to call between steps of a lint: it waits while a request is answered,
        at most ``budget`` seconds over all its calls together."""
        deadline = time.monotonic() + budget

        def pause() -> None:
            if self._busy:
                self.wait(max(0.0, deadline - time.monotonic()))

        return pause
