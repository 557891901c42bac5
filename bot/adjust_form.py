"""The words of a critical success's Adjust form, in a fight and on a quick roll alike: what
the value is and what choosing it does (RULINGS 5: the roll becomes that value, a success,
and its two digits are the dice that give the degrees)."""

from __future__ import annotations

__all__ = ["ADJUST_MEANS", "adjust_example"]

ADJUST_MEANS = ("Instead of an extra action, the roll becomes this number (a success); its "
                "two digits are the dice.")


def adjust_example(limit: int, *, attack: bool = True) -> str:
    """The Adjust field's placeholder: a value within ``limit`` read as its dice (and, for an
    attack, what it then does with them)."""
    value = next(v for v in (36, 28, 19, 9, limit) if v <= limit)
    example = f"e.g. {value}: dice {value // 10} and {value % 10}"
    return example + (". On a hit, one die is damage, the other hit location" if attack else "")
