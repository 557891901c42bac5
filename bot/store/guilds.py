"""Each server's language, kept in memory: it is asked for every message a fight's channel
reads, and changed only by `/settings language`.

A process's own change is kept at once (:meth:`LanguageCache.keep`); a change another process
made (several processes share a PostgreSQL database) is read again once the kept value is
older than ``fresh_for`` seconds, so it shows within that time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["LANGUAGE_FRESH_FOR", "LanguageCache"]

#: How long a server's language read from a shared database is trusted (seconds).
LANGUAGE_FRESH_FOR = 60.0

class LanguageCache:
    """Each server's chosen language (None: none chosen) as last read or written here;
    ``fresh_for`` None keeps it for good (the process is the database's only writer)."""

    def __init__(self, fresh_for: float | None = LANGUAGE_FRESH_FOR,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.fresh_for = fresh_for
        self.clock = clock
        self._kept: dict[int, tuple[str | None, float]] = {}

    def get(self, guild_id: int) -> str | None:
        """The server's language as kept; KeyError when there is none to trust (to read)."""
        language, read_at = self._kept[guild_id]
        if self.fresh_for is not None and self.clock() - read_at >= self.fresh_for:
            raise KeyError(guild_id)
        return language

    def keep(self, guild_id: int, language: str | None) -> None:
        """The server's language as just read or written."""
        self._kept[guild_id] = (language, self.clock())
