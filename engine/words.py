"""How counts and turns are said: "1 box", "2 boxes", "the PCs' turn", "Red's turn".

>>> counted(1, "box"), counted(2, "box"), counted(0, "X mark")
('1 box', '2 boxes', '0 X marks')
>>> team_turn("PCs"), team_turn("Red"), team_turn("The Goons"), team_turn("Boss")
("the PCs' turn", "Red's turn", "The Goons' turn", "Boss's turn")
"""

from __future__ import annotations

__all__ = ["counted", "team_turn"]

_PLURALS = {"box": "boxes", "copy": "copies", "ability": "abilities"}


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (the noun's last word is made
    plural: "X mark" → "X marks")."""
    if n == 1:
        return f"{n} {noun}"
    head, _, last = noun.rpartition(" ")
    plural = _PLURALS.get(last, f"{last}s")
    return f"{n} {head} {plural}" if head else f"{n} {plural}"


def team_turn(team: str) -> str:
    """Whose turn it is, as said inside a sentence. A team's name ending in a single "s"
    reads as a plural ("PCs", "Goons"): "the PCs' turn"; any other name takes "'s"."""
    plural = team.endswith("s") and not team.endswith("ss")
    if not plural:
        return f"{team}'s turn"
    the = "" if team.casefold().startswith("the ") else "the "
    return f"{the}{team}' turn"
