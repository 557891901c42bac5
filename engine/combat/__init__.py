"""Unhex combat, a pure state machine: ``(combat, command, dice) -> (combat, events)``.

No Discord, no I/O, no clock (``now`` comes in), no randomness except the injected dice.
"""

from engine.combat.board import render_board
from engine.combat.commands import (
    AddFighter,
    Armor,
    Attack,
    Begin,
    ChooseDice,
    ChooseOrder,
    CloseWindow,
    Command,
    CriticalChoice,
    Done,
    EndCombat,
    GMSet,
    Modifier,
    React,
    RemoveFighter,
    Reroll,
    Surrender,
    command_adapter,
)
from engine.combat.machine import apply, legal_targets, legal_weapons, new_combat
from engine.combat.model import Actor, Combat, Event, Fighter, Phase, Prompt, PromptKind

__all__ = [
    "Actor",
    "AddFighter",
    "Armor",
    "Attack",
    "Begin",
    "ChooseDice",
    "ChooseOrder",
    "CloseWindow",
    "Combat",
    "Command",
    "CriticalChoice",
    "Done",
    "EndCombat",
    "Event",
    "Fighter",
    "GMSet",
    "Modifier",
    "Phase",
    "Prompt",
    "PromptKind",
    "React",
    "RemoveFighter",
    "Reroll",
    "Surrender",
    "apply",
    "command_adapter",
    "legal_targets",
    "legal_weapons",
    "new_combat",
    "render_board",
]
