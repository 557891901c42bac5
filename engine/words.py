"""How counts and turns are said: "1 box", "2 boxes", "the PCs' turn", "Red's turn".

>>> counted(1, "box"), counted(2, "box"), counted(0, "X mark")
('1 box', '2 boxes', '0 X marks')
>>> team_turn("PCs"), team_turn("Red"), team_turn("The Goons"), team_turn("Boss")
("the PCs' turn", "Red's turn", "The Goons' turn", "Boss's turn")
>>> listed(["Ana"]), listed(["Ana", "Bo"]), listed(["Ana", "Bo", "Cy"])
('Ana', 'Ana and Bo', 'Ana, Bo and Cy')
>>> listed_phrase(["Ana", "Bo", "Cy"]).english(), listed_phrase(["Ana"])
('Ana, Bo and Cy', 'Ana')
>>> [plural_verb(v) for v in ("does", "is", "takes", "passes", "chooses", "tries", "cannot")]
['do', 'are', 'take', 'pass', 'choose', 'try', 'cannot']

The same as phrases, said in the reader's language (English exactly as above):

>>> [team_turn_phrase(t).english() for t in ("PCs", "Red", "The Goons")]
["the PCs' turn", "Red's turn", "The Goons' turn"]
>>> listed_phrase(["Ana", "Bo", "Cy"]).english()
'Ana, Bo and Cy'
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.listing import chained, one_by_one
from engine.phrases import Phrase, Said, phrase

__all__ = [
    "counted",
    "lines_phrase",
    "listed",
    "listed_phrase",
    "plural_verb",
    "series_phrase",
    "team_turn",
    "team_turn_phrase",
]

_PLURALS = {"box": "boxes", "copy": "copies", "ability": "abilities"}
_PLURAL_VERBS = {"is": "are", "has": "have", "does": "do", "was": "were", "goes": "go"}
_SIBILANT_ES = ("sses", "shes", "ches", "xes", "zes")


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless ``n`` is 1 (the noun's last word is made
    plural: "X mark" → "X marks")."""
    if n == 1:
        return f"{n} {noun}"
    head, _, last = noun.rpartition(" ")
    plural = _PLURALS.get(last, f"{last}s")
    return f"{n} {head} {plural}" if head else f"{n} {plural}"


def listed(names: list[str]) -> str:
    """Names in a sentence: "Ana", "Ana and Bo", "Ana, Bo and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def listed_phrase(items: Sequence[Said]) -> Said:
    """Names (or phrases) in a sentence, joined in the reader's language: "Ana", "Ana and
    Bo", "Ana, Bo and Cy"."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return phrase("{first} and {last}", first=items[0], last=items[1])
    return phrase("{first}, {rest}", first=items[0], rest=listed_phrase(items[1:]))


def series_phrase(items: Sequence[Said]) -> Said:
    """Items one after another, joined by commas: "head X, torso \\"."""
    return one_by_one(items)


def lines_phrase(lines: Sequence[Said]) -> Said:
    """Lines one under another, each said in the reader's language."""
    # Translators: one line above the other; keep it so.
    return chained(lines, lambda line, rest: phrase("{line}\n{rest}", line=line, rest=rest))


def team_turn_phrase(team: str) -> Phrase:
    """:func:`team_turn` as a phrase: whose turn it is, said inside a sentence."""
    if not team.endswith("s") or team.endswith("ss"):
        return phrase("{team}'s turn", team=team)
    if team.casefold().startswith("the "):
        return phrase("{team}' turn", team=team)
    return phrase("the {team}' turn", team=team)


def team_turn(team: str) -> str:
    """Whose turn it is, as said inside a sentence. A team's name ending in a single "s"
    reads as a plural ("PCs", "Goons"): "the PCs' turn"; any other name takes "'s"."""
    plural = team.endswith("s") and not team.endswith("ss")
    if not plural:
        return f"{team}'s turn"
    the = "" if team.casefold().startswith("the ") else "the "
    return f"{the}{team}' turn"


def plural_verb(verb: str) -> str:
    """The form a verb said of one ("takes") takes when said of several ("take"); a word that
    is no such form ("cannot", "must") as it is."""
    if verb in _PLURAL_VERBS:
        return _PLURAL_VERBS[verb]
    if verb.endswith("ies") and len(verb) > 3:
        return f"{verb[:-3]}y"
    if verb.endswith(_SIBILANT_ES):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb
