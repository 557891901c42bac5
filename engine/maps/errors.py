"""The mistakes a map can hold or be asked about: bad map text, or an area it does not have."""

from __future__ import annotations

from engine.errors import RuleError
from engine.phrases import Said, english, phrase

__all__ = ["MapError", "UnknownAreaError"]


class MapError(RuleError):
    """Bad map text, or a request naming something the map does not have.

    ``line`` is the 1-based line of the text at fault, or 0 when no line is (a query on a
    built map, or the text as a whole). ``str()`` is ``"line N: message"``, or just the
    message for line 0.

    >>> err = MapError(3, "expected an area name before '--'")
    >>> err.line, err.message, str(err)
    (3, "expected an area name before '--'", "line 3: expected an area name before '--'")
    """

    def __init__(self, line: int, message: Said) -> None:
        super().__init__(phrase("line {line}: {message}", line=line, message=message)
                         if line else message)
        self.line = line
        self.message = english(message)
        #: The mistake without its line, to say in the reader's language.
        self.detail: Said = message

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


class UnknownAreaError(MapError, KeyError):
    """A name that is no area of the map (line 0); also a KeyError, so a lookup by name fails
    the way a dict's does.

    >>> from engine.maps import parse_map
    >>> try:
    ...     parse_map("Bar").area("Roof")
    ... except KeyError as err:
    ...     print(err)
    no area called 'Roof' on this map
    """

    def __init__(self, name: str) -> None:
        super().__init__(0, phrase("no area called {name} on this map", name=repr(name)))
        self.name = name
