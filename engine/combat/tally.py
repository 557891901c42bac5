"""The counts the recap at a fight's end is made from (``Fighter.tally``): damage dealt and
taken, who put whom out of action, and the items used up.

Damage is counted where it is applied (a hit, AoE damage, Continuous damage), as the levels it
took: armor that was destroyed instead took none. Items are counted in one place for every
command (:func:`count_used_up`): an item that was intact before the command and is destroyed
after it (an AoE item, ammo lost on a critical failure, a first aid item, armor, an item a
critical success destroyed) was used up by its owner."""

from __future__ import annotations

from collections import Counter

from engine.character import DamageReport, Status
from engine.combat.fighters import put
from engine.combat.model import Combat, Fighter
from engine.names import name_key

__all__ = ["count_damage", "count_used_up"]


def _find(c: Combat, who: str | None) -> Fighter | None:
    """The fighter of that key or name, if still in the fight."""
    if not who:
        return None
    key = name_key(who)
    return next((f for f in c.fighters if f.key == key), None)


def count_damage(c: Combat, target: str, dealer: str | None, report: DamageReport) -> Combat:
    """``c`` once ``target`` took the damage ``report`` tells, dealt by ``dealer`` (a key or a
    name; None or a fighter no longer here: nobody known). Damage to oneself is taken, not
    dealt; the one whose damage put the target out of action (or worse) is remembered."""
    lost = max(0, report.level_before - report.level_after)
    t = c.fighter(target)
    by = _find(c, dealer)
    counted: dict[str, object] = {"taken": t.tally.taken + lost}
    if report.status_after is not report.status_before and report.status_after is not Status.FINE:
        counted.update(out_by=by.name if by else None, out_round=c.round)
    c = put(c, t.model_copy(update={"tally": t.tally.model_copy(update=counted)}))
    if by is not None and by.key != t.key and lost:
        by = c.fighter(by.key)
        c = put(c, by.model_copy(update={"tally": by.tally.model_copy(
            update={"dealt": by.tally.dealt + lost})}))
    return c


def _destroyed(f: Fighter) -> Counter[str]:
    return Counter(it.name for it in f.character.items if it.destroyed)


def count_used_up(before: Combat, after: Combat) -> Combat:
    """``after`` with the items each fighter had intact in ``before`` and destroyed in it
    added to that fighter's tally (counted by name, so a rearranged list changes nothing)."""
    if before.fighters is after.fighters:
        return after
    was = {f.key: f for f in before.fighters}
    for f in after.fighters:
        old = was.get(f.key)
        if old is None or old.character.items is f.character.items:
            continue
        new = _destroyed(f) - _destroyed(old)
        if new:
            used = (*f.tally.used_up, *new.elements())
            after = put(after, f.model_copy(update={"tally": f.tally.model_copy(
                update={"used_up": used})}))
    return after
