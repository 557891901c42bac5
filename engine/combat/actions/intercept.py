"""Intercept (004 "Intercept"; RULINGS 11): in reaction to a Move, an attack on the mover
(no cover, no reaction to it) at the smaller range of the two areas it moves between, with
sight to either. Each Intercept is an attack step pushed above the Move; a hit that fills a
leg, or puts the mover down, stops the move, and that interceptor chooses which of the two
areas the mover ends in (an ability may let a successful Intercept stop it too: Unarmed).
An Intercept may be less-lethal, as an Attack may (004 "Less-lethal")."""

from __future__ import annotations

from engine.catalog import Action, Rules
from engine.character import full_locations
from engine.combat.abilities.hooks import stops_mover
from engine.combat.context import Context
from engine.combat.fighters import can_act
from engine.combat.model import Combat, EventKind, Fighter
from engine.combat.step_values import AttackAction, MoveAction, Reactor, Weapon
from engine.combat.steps import push, replace_top
from engine.combat.weapons import first_each_way, in_range, weapons, with_ammo
from engine.phrases import phrase

__all__ = [
    "after_intercept", "intercept_reactor", "intercept_weapons",
    "next_intercept",
]


def intercept_weapons(
    c: Combat, g: Fighter, frm: str, to: str, rules: Rules, lethal: bool = True,
    *, hidden_mover: bool = False,
) -> list[Weapon]:
    """What ``g`` could Intercept a move between ``frm`` and ``to`` with, with ammo of the
    sort the damage needs (``lethal`` or not: 004 "Less-lethal")."""
    return with_ammo(g, _reaching(c, g, frm, to, rules, hidden_mover), rules, lethal)


def _reaching(c: Combat, g: Fighter, frm: str, to: str, rules: Rules,
              hidden_mover: bool) -> list[Weapon]:
    """``g``'s weapons in range of a move between ``frm`` and ``to``, with sight, ammo aside.
    ``hidden_mover``: the mover's Stealth mark counts toward sight (a mover loses Stealth on
    starting the Move, so the engine's own moves never are)."""
    m = c.game_map()
    distance = m.intercept_range(g.area, frm, to)
    if distance is None or not m.intercept_sight(g.area, frm, to, hidden=hidden_mover):
        return []
    return [w for w in weapons(g, rules, Action.INTERCEPT) if in_range(w, distance, rules)]


def intercept_reactor(
    c: Combat, g: Fighter, frm: str, to: str, rules: Rules, *, hidden_mover: bool = False
) -> Reactor | None:
    """``g``'s place in the Intercept window of a move between ``frm`` and ``to``: offered
    when some weapon could make it, lethal or less-lethal."""
    lethal, gentle = first_each_way(g, _reaching(c, g, frm, to, rules, hidden_mover), rules)
    if lethal is None and gentle is None:
        return None
    return Reactor(fighter=g.key, options=("intercept",), weapon=lethal,
                   less_lethal_weapon=gentle)


def next_intercept(c: Combat, mv: MoveAction, ctx: Context) -> tuple[Combat, bool]:
    """``(c with the next Intercept's attack pushed above the move, True)`` in the order the
    interceptors were offered, or ``(c with the move on top, False)`` when every Intercept is
    done."""
    rules = ctx.rules
    mover = c.fighter(mv.mover)
    for r in mv.reactors:
        if r.answer != "intercept" or r.fighter in mv.resolved:
            continue
        g = c.fighter(r.fighter)
        if r.weapon is None:  # (one who can no longer act has left: ``engine.combat.lapse``)
            mv = mv.model_copy(update={"resolved": (*mv.resolved, g.key)})
            continue
        mv = mv.model_copy(
            update={
                "intercepting": g.key,
                "full_before": full_locations(mover.character, rules=rules),
            }
        )
        action = AttackAction(
            seq=mv.seq, attacker=g.key, target=mover.key, weapon=r.weapon, lethal=r.lethal,
            intercept=True,
        )
        return push(replace_top(c, mv), action), True
    return replace_top(c, mv), False


def after_intercept(c: Combat, mv: MoveAction, ctx: Context) -> MoveAction:
    """The move once the Intercept above it is done: stopped, when that hit filled a leg or
    put the mover down (and no earlier Intercept stopped it already), and the interceptor
    chooses where it ends; or, after a successful Intercept whose interceptor's abilities say
    it may stop the mover (Unarmed, two empty hands), stopped if that interceptor chooses.
    A mover whose Speed roll failed stays where it was whatever stops it."""
    rules = ctx.rules
    interceptor = mv.intercepting
    assert interceptor is not None
    mover = c.fighter(mv.mover)
    legs = {loc.id for loc in rules.body.legs}
    newly_full = set(full_locations(mover.character, rules=rules)) - set(mv.full_before)
    mv = mv.model_copy(update={"resolved": (*mv.resolved, interceptor), "intercepting": None})
    if mv.stop_area is not None:
        return mv
    g = c.fighter(interceptor)
    if newly_full & legs or not can_act(mover, rules):
        if mv.stays:
            ctx.emit(EventKind.STOPPED,
                     phrase("{name} must stop moving, and stays in {area}.", name=mover.name,
                            area=mv.frm), mover.key)
            return mv.model_copy(update={"stop_area": mv.frm})
        ctx.emit(
            EventKind.STOPPED,
            phrase("{name} must stop moving; {chooser} chooses where: {here} or {there}.",
                   name=mover.name, chooser=g.name, here=mv.frm, there=mv.to),
            mover.key,
        )
        return mv.model_copy(update={"stop_chooser": g.key})
    weapon = next((r.weapon for r in mv.reactors if r.fighter == g.key), None)
    if (
        g.key in mv.landed
        and not mv.stays
        and weapon is not None
        and stops_mover(g.character, weapon, rules)
    ):
        if mv.goes_on:
            text = phrase("{name} grabs {mover} with two empty hands and may stop the move: "
                          "{name} chooses where {mover} ends, {here} or {there}, or let {mover} "
                          "go on to {then}.", name=g.name, mover=mover.name, here=mv.frm,
                          there=mv.to, then=mv.then or "")
        else:
            text = phrase("{name} grabs {mover} with two empty hands and may stop the move: "
                          "{name} chooses where {mover} ends, {here} or {there}.", name=g.name,
                          mover=mover.name, here=mv.frm, there=mv.to)
        ctx.emit(EventKind.STOPPED, text, mover.key)
        return mv.model_copy(update={"stop_chooser": g.key, "stop_optional": True})
    return mv
