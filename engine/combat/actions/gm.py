"""The GM's corrections during a fight: a fighter's level, area, actions, marks, or whether
Stealth holds (an AoE's Demolish, say, which the GM resolves by hand)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from engine.catalog import Rules
from engine.character import Character
from engine.combat.abilities.hooks import hides
from engine.combat.actions.items import drop_from_useless_hands
from engine.combat.commands import GMSet
from engine.combat.context import Context, require_gm
from engine.combat.fighters import put, settle_status
from engine.combat.model import Combat, EventKind
from engine.errors import RuleError
from engine.maps import UnknownAreaError
from engine.phrases import Phrase, phrase
from engine.validation_said import validation_sentence

__all__ = ["MAX_ACTIONS", "gm_set"]

MAX_ACTIONS = 9


def _yes(flag: bool) -> Phrase:
    return phrase("yes") if flag else phrase("no")


def _marks(marks: str) -> str | Phrase:
    return marks or phrase("none")


def _changes(changes: list[Phrase]) -> Phrase:
    """The corrections (at least one) one after the other: "level 40 → 20; area Bar → Hall"."""
    said = changes[-1]
    for change in reversed(changes[:-1]):
        said = phrase("{first}; {more}", first=change, more=said)
    return said


def _wounds(ch: Character, corrected: dict[str, str], rules: Rules,
            said: list[Phrase]) -> dict[str, str]:
    """``ch``'s wounds with the marks ``corrected`` (each told in ``said``)."""
    wounds = dict(ch.wounds)
    for loc_id, marks in corrected.items():
        loc = rules.body.location(loc_id)
        if any(m not in "■X\\" for m in marks) or len(marks) > loc.boxes:
            raise RuleError(phrase("The {part} takes up to {boxes} marks of ■, X or \\.",
                                   part=loc.said_lower, boxes=loc.boxes))
        wounds[loc.id] = marks
        said.append(phrase("{part} marks {before} → {after}", part=loc.said_lower,
                           before=_marks(ch.marks(loc.id)), after=_marks(marks)))
    return wounds


def gm_set(c: Combat, cmd: GMSet, ctx: Context) -> Combat:
    require_gm(ctx.actor, phrase("correct a fighter"))
    rules = ctx.rules
    f = c.fighter(cmd.fighter)
    ch = f.character
    changes: list[Phrase] = []
    secret: list[Phrase] = []  # level and marks: what the players do not read of a hidden NPC
    update: dict[str, Any] = {}
    data: dict[str, Any] = {}
    if cmd.level is not None:
        if cmd.level > ch.max_level:
            raise RuleError(phrase("{name}'s level cannot be above their max level ({most}).",
                                   name=f.name, most=ch.max_level))
        data["level"] = cmd.level
        secret.append(phrase("level {before} → {after}", before=ch.level, after=cmd.level))
    if cmd.marks is not None:
        data["wounds"] = _wounds(ch, cmd.marks, rules, secret)
    if data:
        try:
            new = Character.model_validate({**ch.model_dump(), **data})
        except ValidationError as error:
            raise RuleError(phrase("That correction is not valid: {why}.",
                                   why=validation_sentence(error))) from None
        update["character"] = new
    if cmd.area is not None:
        try:
            area = c.game_map().area(cmd.area)
        except UnknownAreaError:
            raise RuleError(phrase("There is no area called {area} on this map.",
                                   area=repr(cmd.area.strip()))) from None
        update["area"] = area
        changes.append(phrase("area {before} → {after}", before=f.area, after=area))
    if cmd.actions is not None:
        if not 0 <= cmd.actions <= MAX_ACTIONS:
            raise RuleError(phrase("A fighter has 0-{most} actions.", most=MAX_ACTIONS))
        update["actions"] = cmd.actions
        changes.append(phrase("actions {before} → {after}", before=f.actions,
                              after=cmd.actions))
    if cmd.hidden is not None:
        if cmd.hidden and not hides(ch):
            raise RuleError(phrase("{name} does not have Stealth: only a hidden character's "
                                   "mark can be set.", name=f.name))
        update["hidden"] = cmd.hidden
        changes.append(phrase("hidden {before} → {after}", before=_yes(f.hidden),
                              after=_yes(cmd.hidden)))
    if not changes and not secret:
        raise RuleError(phrase("Say what to correct: level, area, actions, marks or hidden."))
    kept = [phrase("level and wounds (hidden)")] if secret else []
    ctx.emit(EventKind.GM_SET,
             phrase("GM correction to {name}: {changes}.", name=f.name,
                    changes=_changes(secret + changes)), f.key,
             public=phrase("GM correction to {name}: {changes}.", name=f.name,
                           changes=_changes(kept + changes)), of=f)
    f = drop_from_useless_hands(f.model_copy(update=update), rules, ctx)
    return put(c, settle_status(f, rules))
