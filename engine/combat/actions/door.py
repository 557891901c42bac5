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
from engine.phrases import phrase

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
        raise RuleError(phrase("There is no area called {area} on this map.",
                               area=repr(cmd.other.strip()))) from None
    conn = m.connection(f.area, other)
    if conn is None or conn.kind is not Kind.DOOR:
        doors = ", ".join(o for o, _ in m.doors_of(f.area))
        if doors:
            raise RuleError(phrase("There is no door between {here} and {there}; {here}'s doors "
                                   "lead to {doors}.", here=f.area, there=other, doors=doors))
        raise RuleError(phrase("There is no door between {here} and {there}; {here} has no "
                               "doors.", here=f.area, there=other))
    if conn.is_open == cmd.open:
        if cmd.open:
            raise RuleError(phrase("The door between {here} and {there} is already open.",
                                   here=f.area, there=other))
        raise RuleError(phrase("The door between {here} and {there} is already closed.",
                               here=f.area, there=other))
    c = put(c, spend_action(f, ctx, ActionKind.DOOR))
    text = m.with_door(f.area, other, cmd.open).to_text()
    if cmd.open:
        said = phrase("{name} opens the door between {here} and {there}.", name=f.name,
                      here=f.area, there=other)
    else:
        said = phrase("{name} closes the door between {here} and {there}.", name=f.name,
                      here=f.area, there=other)
    ctx.emit(EventKind.DOOR, said, f.key)
    return c.model_copy(update={"map_text": text, "action_seq": c.action_seq + 1})
