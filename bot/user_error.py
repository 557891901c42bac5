"""The exception for a request the bot refuses (the rules' own refusals are
:class:`engine.errors.RuleError`); :mod:`bot.errors` says it to the user."""

from __future__ import annotations

from engine.phrases import Said, english

__all__ = ["UserError"]


class UserError(Exception):
    """A request the bot refuses; the message (``said``: a phrase or a string, rendered in
    the user's language) is shown to the user; ``str()`` reads it in English."""

    def __init__(self, said: Said) -> None:
        super().__init__(english(said))
        self.said: Said = said
