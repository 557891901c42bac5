"""Shared helpers of the combat engine tests: the rules, the nightclub, the actors, commands
played with scripted dice, ready-made fighters and fights. A plain module, imported by name."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from data import builtin_maps, load_rules
from engine.character import Character, Item
from engine.combat import (
    Actor,
    AddFighter,
    Begin,
    ChooseOrder,
    ChooseRoller,
    Combat,
    Command,
    Event,
    Move,
    PromptKind,
    apply,
    new_combat,
)
from engine.dice import ScriptedDice
from engine.errors import RuleError
from engine.phrases import english

__all__ = [
    "BULLETS",
    "CLUB",
    "DARTS",
    "GM",
    "P1",
    "P2",
    "RULES",
    "armed",
    "begin",
    "duel",
    "go",
    "kinds",
    "knife",
    "move_window",
    "pistol",
    "pistol_with",
    "refused",
    "rifle",
    "run",
    "setup",
    "texts",
]

RULES = load_rules()
CLUB = builtin_maps()["nightclub"]
GM = Actor(user_id=1, gm=True)
P1 = Actor(user_id=100, gm=False)
P2 = Actor(user_id=200, gm=False)


# ---- playing commands -------------------------------------------------------------------------


def run(
    c: Combat, cmd: Command, faces: Sequence[int] = (), actor: Actor = GM, now: float = 0.0
) -> tuple[Combat, tuple[Event, ...]]:
    """``cmd`` applied with exactly these dice (all of them used), the result storable."""
    dice = ScriptedDice(faces)
    new, events = apply(c, cmd, actor=actor, dice=dice, rules=RULES, now=now)
    assert dice.remaining == 0, "unused scripted dice"
    assert Combat.model_validate_json(new.model_dump_json()) == new
    return new, events


def go(c: Combat, cmd: Command, faces: Sequence[int] = (), actor: Actor = GM) -> Combat:
    return run(c, cmd, faces, actor)[0]


def refused(c: Combat, cmd: Command, match: str, actor: Actor = GM, now: float = 0.0) -> None:
    """``cmd`` is refused with a reason matching ``match``, and ``c`` is unchanged."""
    before = c.model_dump_json()
    with pytest.raises(RuleError, match=match):
        apply(c, cmd, actor=actor, dice=ScriptedDice([]), rules=RULES, now=now)
    assert c.model_dump_json() == before


def texts(events: tuple[Event, ...]) -> list[str]:
    return [english(e.text) for e in events]


def kinds(c: Combat) -> list[tuple[PromptKind, str | None]]:
    return [(p.kind, p.fighter) for p in c.waiting_for()]


# ---- fighters ---------------------------------------------------------------------------------


def pistol(name: str, level: int = 50, npc: bool = False, **kw: object) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=kw.pop("max_level", max(level, 50)),  # type: ignore[arg-type]
        items=(Item(name="Pistol", kind="ranged_1h"), Item(name="Bullets", kind="ammo")),
        right_hand=0,
        **kw,  # type: ignore[arg-type]
    )


def knife(name: str, level: int = 50, npc: bool = False, **kw: object) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=kw.pop("max_level", max(level, 50)),  # type: ignore[arg-type]
        items=(Item(name="Knife", kind="melee_1h"),),
        right_hand=0,
        **kw,  # type: ignore[arg-type]
    )


def rifle(name: str, level: int = 50, npc: bool = False, *ammo: Item) -> Character:
    return Character(
        name=name,
        npc=npc,
        level=level,
        max_level=max(level, 50),
        items=(Item(name="Rifle", kind="ranged_2h"), Item(name="Knife", kind="melee_1h"), *ammo),
        right_hand=0,
        left_hand=0,
    )


BULLETS = Item(name="Bullets", kind="ammo")
DARTS = Item(name="Darts", kind="ammo", less_lethal=True)


def armed(name: str, npc: bool = False) -> Character:
    """A rifle, a pistol (in the right hand), a shield, bullets and a first aid kit."""
    return Character(
        name=name,
        npc=npc,
        level=50,
        max_level=50,
        items=(
            Item(name="Rifle", kind="ranged_2h"),
            Item(name="Pistol", kind="ranged_1h"),
            Item(name="Shield", kind="shield"),
            BULLETS,
            Item(name="Kit", kind="first_aid"),
        ),
        right_hand=1,
    )


def pistol_with(name: str, *ammo: Item, npc: bool = True) -> Character:
    return Character(name=name, npc=npc, level=50, max_level=50,
                     items=(Item(name="Pistol", kind="ranged_1h"), *ammo), right_hand=0)


# ---- fights -----------------------------------------------------------------------------------


def setup(*entries: tuple[Character, str, int | None]) -> Combat:
    """A fight on the nightclub: each character in its area, owned by that user (None: NPC)."""
    c = new_combat(CLUB)
    for ch, area, owner in entries:
        c = go(c, AddFighter(character=ch, area=area, owner_id=owner))
    return c


def begin(c: Combat, faces: Sequence[int], first: str) -> Combat:
    """Begin with the given initiative dice and let the winner (as GM) pick ``first``. A team
    whose highest level is shared lets the first of them (in the order added) roll; a team's
    highest never lets a leader roll instead."""
    dice = ScriptedDice(faces)
    c, _ = apply(c, Begin(), actor=GM, dice=dice, rules=RULES, now=0.0)
    while asked := [p for p in c.waiting_for()
                    if p.kind in (PromptKind.CHOOSE_ROLLER, PromptKind.LEADER_ROLLS)]:
        choice = ChooseRoller(fighter=asked[0].options[0])
        c, _ = apply(c, choice, actor=GM, dice=dice, rules=RULES, now=0.0)
    assert dice.remaining == 0, "unused scripted dice"
    return go(c, ChooseOrder(first_team=first))


def duel(att: Character, tgt: Character, att_team_first: str = "PCs") -> Combat:
    """``att`` and ``tgt`` in the Entrance (a PC attacker is P1's, a PC target P2's), the
    attacker's team acting; two NPCs are the teams Red and Blue."""
    c = setup(
        (att, "Entrance", None if att.npc else 100), (tgt, "Entrance", None if tgt.npc else 200)
    )
    if att.npc and tgt.npc:
        c = new_combat(CLUB)
        c = go(c, AddFighter(character=att, area="Entrance", team="Red"))
        c = go(c, AddFighter(character=tgt, area="Entrance", team="Blue"))
        return begin(c, [3, 2, 6, 1], "Red")
    return begin(c, [3, 2, 6, 1], att_team_first)


def move_window() -> Combat:
    """Ana (P1's) moves from the dance floor to the bar; Goon and Rat, there with knives, are
    asked whether they intercept. Cy (P2's, in the alley) keeps the PCs' turn going."""
    c = setup(
        (knife("Ana"), "Dance Floor", 100),
        (knife("Cy"), "Alley", 200),
        (knife("Goon", npc=True), "Dance Floor", None),
        (knife("Rat", npc=True), "Dance Floor", None),
    )
    c = begin(c, [3, 2, 6, 1], "PCs")
    c = go(c, Move(fighter="Ana", to="Bar"), actor=P1)
    assert kinds(c) == [(PromptKind.REACT, "goon"), (PromptKind.REACT, "rat")]
    return c
