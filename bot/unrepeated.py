"""Requests that must not be repeated blindly. discord.py tries a request again after a 5xx,
but Discord may answer 5xx after it made the message (a proxy lost its answer): a channel's
message carries a nonce that finds the first one, an interaction's follow-up (a webhook)
takes none, so its repeat would be a second message. Inside :func:`sent_once`, a 5xx is
raised at once instead (by the HTTP trace, :func:`bot.client.http_trace`), and the caller
finds out what was made.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["repeat_refused", "sent_once"]

_once: ContextVar[bool] = ContextVar("unhex_sent_once", default=False)


@contextmanager
def sent_once() -> Iterator[None]:
    """The requests made inside (in this task) are not repeated after a 5xx."""
    token = _once.set(True)
    try:
        yield
    finally:
        _once.reset(token)


def repeat_refused(status: int) -> bool:
    """Whether a response with ``status`` ends the request here rather than being retried."""
    return status >= 500 and _once.get()
