"""The one exception type the rules raise for a request the rules do not allow."""

from __future__ import annotations

from engine.phrases import Said, english


class RuleError(ValueError):
    """A request the rules refuse; the message is a full sentence shown to the player, as a
    phrase (``said``) the bot renders in the player's language; ``str()`` reads it in English.

    >>> raise RuleError("Ana has no action left this round.")
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Ana has no action left this round.
    """

    def __init__(self, said: Said) -> None:
        super().__init__(english(said))
        self.said: Said = said


__all__ = ["RuleError"]
