"""What the players see of a hidden NPC: a fight may hide its NPCs' figures from the players
(``Combat.hide_npcs``).

While it does, what the players read about an NPC says how hurt it looks (its ``band``)
instead of its level and marks: the board, ``Event.text`` (the events the channel is told and
`/combat log` lists), `/combat status`. The GM still reads the exact figures: the GM's board
and ``Event.gm_text``. Dice stay public; the level they were rolled against does not. How the
bands read is in docs/rules-notes.md.

>>> from data import load_rules
>>> from engine.character import Character
>>> goon = Fighter(key="goon", name="Goon", team="NPCs", area="Bar",
...                character=Character.new("Goon", npc=True, level=40))
>>> band(goon, load_rules())
'unhurt'
>>> hurt = goon.model_copy(update={"character": goon.character.model_copy(update={"level": 20})})
>>> band(hurt, load_rules()), figures_hidden(Combat(map_text="Bar", hide_npcs=True), hurt)
('badly hurt', True)
"""

from __future__ import annotations

from typing import Literal

from engine.catalog import Rules
from engine.character import Status, full_locations, status
from engine.combat.model import Combat, Fighter, Prompt, PromptKind
from engine.phrases import Phrase, Said, phrase

__all__ = [
    "STATUS_WORDS", "Band", "band", "figures_hidden", "is_npc", "level_said",
    "looks_phrase", "secret_options",
]

Band = Literal["unhurt", "hurt", "badly hurt", "down"]


def is_npc(fighter: Fighter) -> bool:
    """An NPC is run by the GM: no player owns it."""
    return fighter.owner_id is None


def figures_hidden(combat: Combat, fighter: Fighter) -> bool:
    """Whether the players may not see ``fighter``'s level and marks in ``combat``."""
    return combat.hide_npcs and is_npc(fighter)


def band(fighter: Fighter, rules: Rules) -> Band:
    """How hurt a fighter looks: out of the fight (unconscious, surrendered or dead) is
    "down"; at half its max level or below, or with a location full of marks, "badly hurt";
    below its max level or with any box marked, "hurt"; else "unhurt"."""
    ch = fighter.character
    if status(ch, rules=rules) is not Status.FINE:
        return "down"
    if 2 * ch.level <= ch.max_level or full_locations(ch, rules=rules):
        return "badly hurt"
    if ch.level < ch.max_level or any(ch.wounds.values()):
        return "hurt"
    return "unhurt"


#: How a character stands, as the table reads it.
STATUS_WORDS: dict[Status, Phrase] = {
    Status.FINE: phrase("fine"), Status.UNCONSCIOUS: phrase("unconscious"),
    Status.SURRENDERED: phrase("surrendered"), Status.DEAD: phrase("dead"),
}

_BAND_WORDS: dict[str, Phrase] = {
    "unhurt": phrase("unhurt"), "hurt": phrase("hurt"), "badly hurt": phrase("badly hurt"),
    "down": phrase("down"),
}


def looks_phrase(fighter: Fighter, rules: Rules) -> Phrase:
    """What the players are told of a hidden fighter: its band ("hurt"), or, once it is
    down, why (which the board shows anyway: "unconscious")."""
    found = band(fighter, rules)
    if found == "down":
        return STATUS_WORDS[status(fighter.character, rules=rules)]
    return _BAND_WORDS[found]


def level_said(combat: Combat, fighter: Fighter, rules: Rules, *, gm: bool = False) -> Said:
    """A fighter's level as a reader sees it: "25/40"; how hurt it looks (a phrase) while
    its figures are hidden, unless the reader is a GM."""
    if figures_hidden(combat, fighter) and not gm:
        return _BAND_WORDS[band(fighter, rules)]
    return f"{fighter.character.level}/{fighter.character.max_level}"


#: Prompts whose options are the locations that hold a kind of mark.
_MARK_PROMPTS = (PromptKind.AID_BOXES, PromptKind.AID_PERMANENT)


def secret_options(combat: Combat, prompt: Prompt) -> bool:
    """Whether ``prompt``'s options show a hidden fighter's marks (first aid's: where the
    treated one's \\ or X marks are), so that only the GM may see them (the first aid asks
    the GM then, ``actions.first_aid``)."""
    aid = combat.aid
    if prompt.kind not in _MARK_PROMPTS or aid is None:
        return False
    return figures_hidden(combat, combat.fighter(aid.target))
