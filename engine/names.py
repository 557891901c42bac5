"""How a typed name is compared: whitespace collapsed, case folded.

>>> name_key("  Dance   FLOOR ")
'dance floor'
>>> same_name("Ana", " ana ")
True
"""

from __future__ import annotations

__all__ = ["name_key", "same_name"]


def name_key(text: str) -> str:
    """The form under which names are compared and stored as keys."""
    return " ".join(text.split()).casefold()


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)
