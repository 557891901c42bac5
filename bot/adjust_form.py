"""The words of a critical success's Adjust form, in a fight and on a quick roll alike: what
the value is and what choosing it does (RULINGS 5: the roll becomes that value, a success,
and its two digits are the dice that give the degrees)."""

from __future__ import annotations

from bot.i18n import N_, SOURCE, render
from engine.phrases import phrase

__all__ = ["ADJUST_MEANS", "adjust_example"]

#: The field's description (rendered in the reader's language with ``render``).
ADJUST_MEANS = N_("Instead of an extra action, the roll becomes this number (a success); its "
                  "two digits are the dice.")


def adjust_example(limit: int, *, attack: bool = True, language: str = SOURCE) -> str:
    """The Adjust field's placeholder, in ``language``: a value within ``limit`` read as its
    dice (and, for an attack, what it then does with them)."""
    value = next(v for v in (36, 28, 19, 9, limit) if v <= limit)
    dice = {"value": value, "tens": value // 10, "ones": value % 10}
    if attack:
        return render(phrase("e.g. {value}: dice {tens} and {ones}. On a hit, one die is "
                             "damage, the other hit location", **dice), language)
    return render(phrase("e.g. {value}: dice {tens} and {ones}", **dice), language)
