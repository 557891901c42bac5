"""How a typed name is compared: whitespace collapsed, case folded.

>>> name_key("  Dance   FLOOR ")
'dance floor'
>>> same_name("Ana", " ana ")
True
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["name_key", "same_name"]


@lru_cache(maxsize=4096)  # a fight asks for its fighters by name a dozen times a step
def name_key(text: str) -> str:
    """The form under which names are compared and stored as keys."""
    return " ".join(text.split()).casefold()


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)
