"""Opening or closing a door takes an action (004 "Actions"; RULINGS 7)."""

from __future__ import annotations

from engine.catalog import Rules
from engine.combat.action_kinds import ActionKind
from engine.combat.commands import Door
from engine.combat.context import Context
from engine.combat.fighters import acting_fighter, put, spend_action
from engine.combat.model import Combat, EventKind
from engine.errors import RuleError
from engine.maps import Kind, UnknownAreaError

__all__ = ["door", "legal_doors"]


def legal_doors(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """The areas on the other side of the doors of this fighter's area."""
    f = combat.fighter(fighter_key)
    return tuple(other for other, _ in combat.game_map().doors_of(f.area))


def door(c: Combat, cmd: Door, ctx: Context) -> Combat:
    f = acting_fighter(c, cmd.fighter, ctx)
    m = c.game_map()
    try:
        other = m.area(cmd.other)
    except UnknownAreaError:
        raise RuleError(f"There is no area called {cmd.other.strip()!r} on this map.") from None
    conn = m.connection(f.area, other)
    if conn is None or conn.kind is not Kind.DOOR:
        doors = ", ".join(o for o, _ in m.doors_of(f.area))
        raise RuleError(
            f"There is no door between {f.area} and {other}"
            + (f"; {f.area}'s doors lead to {doors}." if doors else f"; {f.area} has no doors.")
        )
    verb = "open" if cmd.open else "closed"
    if conn.is_open == cmd.open:
        raise RuleError(f"The door between {f.area} and {other} is already {verb}.")
    c = put(c, spend_action(f, ctx, ActionKind.DOOR))
    text = m.with_door(f.area, other, cmd.open).to_text()
    does = "opens" if cmd.open else "closes"
    ctx.emit(EventKind.DOOR, f"{f.name} {does} the door between {f.area} and {other}.", f.key)
    return c.model_copy(update={"map_text": text, "action_seq": c.action_seq + 1})
