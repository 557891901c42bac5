"""Placing an AoE's damage (004 "Abilities": Area of Effect): "Damage caused by AoEs can be
spread among locations of the damaged character's choice, and can be prevented by armor as
normal."

Each damaged character (a Blast's targets, the user of a critical failure, anyone a Continuous
effect burns) places the damage one point per answer (``AOE_PLACE``), then says whether armor
takes it at each location with damage placed where there is armor (``AOE_ARMOR``); the damage
is dealt once all of it is placed and decided. ``AoEAction`` and ``ContinuousBurn`` both hold
these wounds.
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.character import armor_covering, take_damage
from engine.combat.alike import COPIES
from engine.combat.context import Context
from engine.combat.fighters import put, settle_status
from engine.combat.model import Combat, Dropped, EventKind, Fighter, Prompt, PromptKind
from engine.combat.prompts import prompt
from engine.combat.step_values import AoEAction, AoEWound, ContinuousBurn
from engine.combat.steps import replace_top
from engine.combat.tally import count_damage
from engine.phrases import Said, phrase, plural_phrase

__all__ = ["wound_answer", "wound_prompts"]


def wound_answer(
    c: Combat, a: AoEAction | ContinuousBurn, f: Fighter, asked: Prompt, option: str,
    ctx: Context,
) -> Combat:
    """One point of damage placed, or armor used or not, on the step's wound of ``f``."""
    wounds = list(a.wounds)
    i = next(i for i, w in enumerate(wounds) if w.fighter == f.key and not w.done)
    w = wounds[i]
    if asked.kind is PromptKind.AOE_PLACE:
        plan = dict(w.plan)
        plan[option] = plan.get(option, 0) + 1
        w = w.model_copy(update={"plan": plan})
        _say_placed(w, f, option, ctx)
    else:
        loc = _armor_asked(c, w, ctx.rules)
        assert loc is not None
        _say_armor_by_gm(f, loc, option == "use", ctx)
        field = "armor" if option == "use" else "kept"
        w = w.model_copy(update={field: (*getattr(w, field), loc)})
    if w.placed == w.amount and _armor_asked(c, w, ctx.rules) is None:
        c = _apply_wound(c, w, a.attacker if isinstance(a, AoEAction) else a.by, ctx)
        w = w.model_copy(update={"done": True})
    wounds[i] = w
    return replace_top(c, a.model_copy(update={"wounds": tuple(wounds)}))


def _say_placed(w: AoEWound, f: Fighter, location: str, ctx: Context) -> None:
    """A point placed, and how many are left to place (the players do not read where a hidden
    NPC's point went; "(by the GM)" when a GM placed a player's). Numbered copies placing
    alike read as one line: "Goon 1-10 each: 1 point to the torso (3 left to place)."."""
    left = w.amount - w.placed
    rest = (phrase("{count} left to place", count=left) if left
            else phrase("all {count} placed", count=w.amount))
    placed = plural_phrase("{fighter}: 1 point {where}", "{fighter} each: 1 point {where}",
                           COPIES, fighter=f.name, where=_to_location(location), copies=1)
    hidden = plural_phrase("{fighter}: 1 point placed", "{fighter} each: 1 point placed",
                           COPIES, fighter=f.name, copies=1)
    ctx.emit(EventKind.AOE_DAMAGE,
             phrase("{placed} ({rest}).", placed=ctx.by_gm_clause(f, placed), rest=rest), f.key,
             public=phrase("{placed} ({rest}).", placed=ctx.by_gm_clause(f, hidden), rest=rest),
             of=f)


def _say_armor_by_gm(f: Fighter, location: str, use: bool, ctx: Context) -> None:
    """A GM's choice of armor for a player's fighter, told as its own line (the player's own
    is told with the damage, as for an attack's)."""
    if not ctx.by_gm(f):
        return
    where = _on_location(location)
    if use:
        said = phrase("{fighter} chooses to destroy armor {where}", fighter=f.name, where=where)
    else:
        said = phrase("{fighter} chooses to take the damage, keeping the armor {where}",
                      fighter=f.name, where=where)
    ctx.emit(EventKind.ARMOR, ctx.by_gm_sentence(f, said), f.key)


def _armor_asked(c: Combat, w: AoEWound, rules: Rules) -> str | None:
    """The next location with damage placed and armor there that has not been decided."""
    if w.placed < w.amount:
        return None
    g = c.fighter(w.fighter)
    for loc in w.plan:
        if loc not in w.armor and loc not in w.kept and armor_covering(g.character, loc, rules):
            return loc
    return None


def _apply_wound(c: Combat, w: AoEWound, dealer: str, ctx: Context) -> Combat:
    """``w``'s damage, placed, dealt by ``dealer`` (the AoE's user, or the name of the
    Continuous effect's)."""
    rules = ctx.rules
    for loc, points in w.plan.items():
        g = c.fighter(w.fighter)
        new, report = take_damage(g.character, points, loc, rules=rules,
                                  use_armor=loc in w.armor)
        ctx.emit(EventKind.AOE_DAMAGE, report.summary, g.key, public=report.public_summary,
                 of=g)
        fallen = tuple(Dropped(index=i, area=g.area) for i in report.dropped)
        g = g.model_copy(update={"character": new, "dropped": (*g.dropped, *fallen)})
        c = count_damage(put(c, settle_status(g, rules)), g.key, dealer, report)
    return c


def wound_prompts(c: Combat, wounds: tuple[AoEWound, ...]) -> tuple[Prompt, ...]:
    """What each damaged character is asked next: where a point goes, or whether armor
    takes it."""
    found = []
    for w in wounds:
        if w.done:
            continue
        if w.placed < w.amount:
            found.append(prompt(c, PromptKind.AOE_PLACE, w.fighter, _LOCATIONS))
        else:
            found.append(prompt(c, PromptKind.AOE_ARMOR, w.fighter, ("use", "keep")))
    return tuple(found)


#: The hit locations of data/body.toml, head first (the placement buttons).
_LOCATIONS = ("head", "right_arm", "left_arm", "torso", "right_leg", "left_leg")

# Where a point goes and where armor is, whole (a language's article and case follow the
# location): data/body.toml's locations.
_TO = {"head": phrase("to the head"), "right_arm": phrase("to the right arm"),
       "left_arm": phrase("to the left arm"), "torso": phrase("to the torso"),
       "right_leg": phrase("to the right leg"), "left_leg": phrase("to the left leg")}
_ON = {"head": phrase("on the head"), "right_arm": phrase("on the right arm"),
       "left_arm": phrase("on the left arm"), "torso": phrase("on the torso"),
       "right_leg": phrase("on the right leg"), "left_leg": phrase("on the left leg")}


def _to_location(location: str) -> Said:
    """"to the right arm": where a point of damage goes."""
    return _TO.get(location) or _said_location("to the", location)


def _on_location(location: str) -> Said:
    """"on the right arm": where armor is."""
    return _ON.get(location) or _said_location("on the", location)


def _said_location(preposition: str, location: str) -> str:
    # A location the body table gained later is said in English until it is added above.
    return f"{preposition} {location.replace('_', ' ')}"
