"""Discord's own clock: the time every age and expiry of the local Discord is read from.

It runs with the wall clock, ahead by whatever a test made pass (:meth:`Clock.advance`),
so a test ages every message, interaction token and rate-limit bucket at once without
sleeping: a day later every message is older than an hour (its edits scarce, 30046) and every
token older than 15 minutes (50027), and every bucket has reset. Ids made afterwards carry
Discord's time too, as Discord's snowflakes do.
"""

from __future__ import annotations

import time

__all__ = ["Clock"]


class Clock:
    def __init__(self, ahead: float = 0.0) -> None:
        #: Seconds Discord's clock runs ahead of the wall clock.
        self.ahead = ahead

    def now(self) -> float:
        """Discord's time now, in epoch seconds."""
        return time.time() + self.ahead

    def advance(self, seconds: float) -> float:
        """Let ``seconds`` pass for Discord (not for the bot); Discord's time then."""
        if seconds < 0:
            raise ValueError("Discord's clock does not go back")
        self.ahead += seconds
        return self.now()
