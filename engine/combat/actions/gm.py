"""The GM's corrections during a fight: a fighter's level, area, actions, marks, or whether
Stealth holds (an AoE's Demolish, say, which the GM resolves by hand)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from engine.character import Character
from engine.combat.abilities.hooks import hides
from engine.combat.actions.items import drop_from_useless_hands
from engine.combat.commands import GMSet
from engine.combat.context import Context, require_gm
from engine.combat.fighters import put, settle_status
from engine.combat.model import Combat, EventKind
from engine.errors import RuleError
from engine.maps import UnknownAreaError

__all__ = ["MAX_ACTIONS", "gm_set"]

MAX_ACTIONS = 9


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def gm_set(c: Combat, cmd: GMSet, ctx: Context) -> Combat:
    require_gm(ctx.actor, "correct a fighter")
    rules = ctx.rules
    f = c.fighter(cmd.fighter)
    ch = f.character
    changes: list[str] = []
    secret: list[str] = []  # level and marks: what the players do not read of a hidden NPC
    update: dict[str, Any] = {}
    data: dict[str, Any] = {}
    if cmd.level is not None:
        if cmd.level > ch.max_level:
            raise RuleError(f"{f.name}'s level cannot be above their max level ({ch.max_level}).")
        data["level"] = cmd.level
        secret.append(f"level {ch.level} → {cmd.level}")
    if cmd.marks is not None:
        wounds = dict(ch.wounds)
        for loc_id, marks in cmd.marks.items():
            loc = rules.body.location(loc_id)
            if any(m not in "■X\\" for m in marks) or len(marks) > loc.boxes:
                raise RuleError(
                    f"The {loc.name.lower()} takes up to {loc.boxes} marks of ■, X or \\."
                )
            wounds[loc.id] = marks
            secret.append(
                f"{loc.name.lower()} marks {ch.marks(loc.id) or 'none'} → {marks or 'none'}"
            )
        data["wounds"] = wounds
    if data:
        try:
            new = Character.model_validate({**ch.model_dump(), **data})
        except ValidationError as error:
            raise RuleError(f"That correction is not valid: {error.errors()[0]['msg']}.") from None
        update["character"] = new
    if cmd.area is not None:
        try:
            area = c.game_map().area(cmd.area)
        except UnknownAreaError:
            raise RuleError(f"There is no area called {cmd.area.strip()!r} on this map.") from None
        update["area"] = area
        changes.append(f"area {f.area} → {area}")
    if cmd.actions is not None:
        if not 0 <= cmd.actions <= MAX_ACTIONS:
            raise RuleError(f"A fighter has 0-{MAX_ACTIONS} actions.")
        update["actions"] = cmd.actions
        changes.append(f"actions {f.actions} → {cmd.actions}")
    if cmd.hidden is not None:
        if cmd.hidden and not hides(ch):
            raise RuleError(f"{f.name} does not have Stealth: only a hidden character's mark "
                            "can be set.")
        update["hidden"] = cmd.hidden
        changes.append(f"hidden {_yes(f.hidden)} → {_yes(cmd.hidden)}")
    if not changes and not secret:
        raise RuleError("Say what to correct: level, area, actions, marks or hidden.")
    kept = ["level and wounds (hidden)"] if secret else []
    ctx.emit(EventKind.GM_SET, f"GM correction to {f.name}: {'; '.join(secret + changes)}.",
             f.key, public=f"GM correction to {f.name}: {'; '.join(kept + changes)}.", of=f)
    f = drop_from_useless_hands(f.model_copy(update=update), rules, ctx)
    return put(c, settle_status(f, rules))
