"""The one exception type the rules raise for a request the rules do not allow."""


class RuleError(ValueError):
    """A request the rules refuse; the message is a full sentence shown to the player.

    >>> raise RuleError("Ana has no action left this round.")
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: Ana has no action left this round.
    """
