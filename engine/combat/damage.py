"""From a hit to marks on the target (004 "Damage", "Hit Location", "Armor"; RULINGS 3-6):
the choice of the damage die, precise and powerful, armor, then the marks.

A hit waits on, in turn: the chooser's die (unless both dice are the same), the attacker's
modifier (when an ability offers one), the target's armor (when it has some there)."""

from __future__ import annotations

from typing import Literal

from engine.catalog import Rules
from engine.character import Mark, armor_covering, take_damage
from engine.combat.commands import Armor, ChooseDice, Modifier
from engine.combat.context import Context
from engine.combat.fighters import put, settle_status
from engine.combat.model import Combat, Dropped, EventKind, Phase, Prompt, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import answering, prompt
from engine.combat.roll_spec import hit_spec
from engine.combat.rolls import replace_roll
from engine.combat.stealth import hidden
from engine.combat.step_values import AttackAction, Hit, Weapon
from engine.combat.steps import replace_top
from engine.combat.tally import count_damage
from engine.combat.weapons import held_shield
from engine.dice import Check, powerful, precise
from engine.dice import Modifier as DiceModifier
from engine.errors import RuleError
from engine.phrases import Phrase, phrase

__all__ = [
    "advance_hits", "armor", "choose_dice", "hit_prompts", "modifier", "new_hit",
]


def _attack(c: Combat) -> AttackAction:
    a = c.attack
    if a is None:
        raise RuleError(phrase("No hit is being resolved now."))
    return a


def _current_hit(c: Combat) -> tuple[int, Hit]:
    for i, h in enumerate(_attack(c).hits):
        if not h.done:
            return i, h
    raise RuleError(phrase("No hit is being resolved now."))


def _replace_hit(c: Combat, index: int, hit: Hit) -> Combat:
    a = _attack(c)
    hits = tuple(hit if i == index else h for i, h in enumerate(a.hits))
    return replace_top(c, a.model_copy(update={"hits": hits}))


def advance_hits(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """Take every automatic step of the attack's hits: ``(combat, waiting for someone)``."""
    rules = ctx.rules
    while True:
        a = _attack(c)
        index = next((i for i, h in enumerate(a.hits) if not h.done), None)
        if index is None:
            return c, False
        hit = a.hits[index]
        if hit.damage_die is None:
            if hit.tens != hit.ones:
                return c, True
            hit = hit.model_copy(update={"damage_die": hit.tens, "location_die": hit.ones})
            ctx.emit(EventKind.DICE, phrase("Both dice show {die}: damage {damage}, location "
                                            "{location}.", die=hit.tens, damage=hit.tens,
                                            location=hit.ones))
        elif hit.modifier_offers is None:
            offers = _modifier_offers(a, c, hit, rules)
            hit = hit.model_copy(update={"modifier_offers": offers, "modifier_decided": not offers})
        elif not hit.modifier_decided:
            return c, True
        elif hit.armor_offered is None:
            location = rules.body.for_die(int(hit.location_die or 0)).id
            offered = bool(hit.damage_die) and bool(
                armor_covering(c.fighter(hit.target).character, location, rules))
            hit = hit.model_copy(
                update={"armor_offered": offered, "use_armor": None if offered else False}
            )
        elif hit.use_armor is None:
            return c, True
        else:
            c = _apply_hit(c, hit, ctx)
            hit = hit.model_copy(update={"done": True})
        c = _replace_hit(c, index, hit)


def _modifier_offers(a: AttackAction, c: Combat, hit: Hit, rules: Rules) -> tuple[str, ...]:
    state = next(s for s in a.rolls if s.fighter == hit.attacker and s.purpose == hit.purpose)
    if state.roll.modifier is not None:
        return ()
    spec = hit_spec(c, a, hit, rules)  # the same spec the board's "applies:" reads
    offers: list[str] = []
    loc = int(hit.location_die or 0)
    dmg = int(hit.damage_die or 0)
    if spec.precise:
        if loc < 9:
            offers.append("precise+1")
        if loc > 0:
            offers.append("precise-1")
    if spec.powerful and dmg < 9:
        offers.append("powerful")
    return tuple(offers)


def _apply_hit(c: Combat, hit: Hit, ctx: Context) -> Combat:
    rules = ctx.rules
    t = c.fighter(hit.target)
    damage = int(hit.damage_die or 0)
    location = int(hit.location_die or 0)
    new, report = take_damage(
        t.character,
        damage,
        location,
        rules=rules,
        mark=Mark(hit.weapon.mark),
        less_lethal=not hit.lethal,
        use_armor=bool(hit.use_armor),
        moving=_is_moving(c, t.key),
    )
    ctx.emit(EventKind.DAMAGE, report.summary, t.key, (damage, location),
             public=report.public_summary, of=t)
    fallen = tuple(Dropped(index=i, area=t.area) for i in report.dropped)
    t = t.model_copy(update={"character": new, "dropped": (*t.dropped, *fallen)})
    return count_damage(put(c, settle_status(t, rules)), t.key, hit.attacker, report)


def _where(ctx: Context, location: int) -> Phrase:
    """The hit location a die's face strikes, as a sentence says it ("right arm"): a word of
    the rules' data (its catalogue entry comes from the data's words)."""
    return Phrase(ctx.rules.body.for_die(location).name.lower())


def _is_moving(c: Combat, key: str) -> bool:
    """Whether ``key`` is the mover of the Move being resolved (an Intercept hits it)."""
    mv = c.move
    return mv is not None and mv.mover == key


def hit_prompts(c: Combat, a: AttackAction) -> tuple[Prompt, ...]:
    hit = next((h for h in a.hits if not h.done), None)
    if hit is None:
        return ()
    if hit.damage_die is None:
        return (prompt(c, PromptKind.CHOOSE_DICE, hit.chooser, ("tens", "ones")),)
    if not hit.modifier_decided:
        return (
            prompt(c, PromptKind.MODIFIER, hit.attacker, (*(hit.modifier_offers or ()), "none")),
        )
    if hit.use_armor is None:
        return (prompt(c, PromptKind.ARMOR, hit.target, ("use", "keep")),)
    return ()


# ---- the choices ---------------------------------------------------------------------------


def choose_dice(c: Combat, cmd: ChooseDice, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, _ = answering(c, PromptKind.CHOOSE_DICE, cmd.fighter, ctx.actor)
    index, hit = _current_hit(c)
    damage, location = (hit.tens, hit.ones) if cmd.damage == "tens" else (hit.ones, hit.tens)
    ctx.emit(
        EventKind.DICE,
        ctx.by_gm_sentence(f, phrase(
            "{name} chooses {damage} for damage and {location} for location ({where})",
            name=f.name, damage=damage, location=location, where=_where(ctx, location))),
        f.key,
        (damage, location),
    )
    return _replace_hit(
        c, index, hit.model_copy(update={"damage_die": damage, "location_die": location})
    )


def modifier(c: Combat, cmd: Modifier, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.MODIFIER, cmd.fighter, ctx.actor)
    if cmd.use not in asked.options:
        raise RuleError(phrase("Choose one of: {options}.", options=", ".join(asked.options)))
    index, hit = _current_hit(c)
    damage, location = int(hit.damage_die or 0), int(hit.location_die or 0)
    if cmd.use == "none":
        ctx.emit(EventKind.MODIFIER,
                 ctx.by_gm_sentence(f, phrase("{name} uses no modifier", name=f.name)), f.key)
    else:
        a = _attack(c)
        state = next(s for s in a.rolls if s.fighter == f.key and s.purpose == hit.purpose)
        if cmd.use == "powerful":
            damage = powerful(damage)
            c = replace_roll(
                c, state.model_copy(update={"roll": state.roll.use_modifier(DiceModifier.POWERFUL)})
            )
            # (the clause is made apart: pybabel reads no phrase nested in another's call)
            clause = phrase("{name} is powerful", name=f.name)
            ctx.emit(
                EventKind.MODIFIER,
                phrase("{clause}: damage {damage}.", damage=damage,
                       clause=ctx.by_gm_clause(f, clause)), f.key, (damage, location),
            )
        else:
            location = precise(location, 1 if cmd.use == "precise+1" else -1)
            c = replace_roll(
                c, state.model_copy(update={"roll": state.roll.use_modifier(DiceModifier.PRECISE)})
            )
            clause = phrase("{name} is precise", name=f.name)
            ctx.emit(
                EventKind.MODIFIER,
                phrase("{clause}: location {location} ({where}).", location=location,
                       where=_where(ctx, location), clause=ctx.by_gm_clause(f, clause)),
                f.key,
                (damage, location),
            )
    new = hit.model_copy(
        update={"damage_die": damage, "location_die": location, "modifier_decided": True}
    )
    return _replace_hit(c, index, new)


def armor(c: Combat, cmd: Armor, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, _ = answering(c, PromptKind.ARMOR, cmd.fighter, ctx.actor)
    index, hit = _current_hit(c)
    if ctx.by_gm(f):  # the player's choice is told with the damage; a GM's is told here
        chose = (phrase("{name} chooses to destroy armor", name=f.name) if cmd.use else
                 phrase("{name} chooses to take the damage, keeping the armor", name=f.name))
        ctx.emit(EventKind.ARMOR, ctx.by_gm_sentence(f, chose), f.key)
    return _replace_hit(c, index, hit.model_copy(update={"use_armor": cmd.use}))


def new_hit(
    c: Combat,
    a: AttackAction,
    attacker: str,
    target: str,
    roll: Check,
    weapon: Weapon,
    purpose: Literal["attack", "counterattack"],
    ctx: Context,
) -> Hit:
    """A successful, unstopped attack or counterattack on its way to damage. The target
    chooses the damage die when it has cover (never against an Intercept, RULINGS 10) or
    holds a shield; otherwise the attacker does. It is less-lethal when the attack was
    declared so, or the counterattacker chose it. A hidden target (Stealth) has cover against
    any attack from another area (RULINGS 12)."""
    f, t = c.fighter(attacker), c.fighter(target)
    if purpose == "attack":
        lethal = a.lethal
    else:
        lethal = next((r.lethal for r in a.reactors if r.fighter == f.key), True)
    concealed = hidden(c, t, ctx.rules)
    cover = not a.intercept and c.game_map().has_cover(f.area, t.area, hidden=concealed)
    shield = held_shield(t.character, ctx.rules)
    chooser = t if cover or shield else f
    if chooser is t:
        if cover and concealed and not c.game_map().has_cover(f.area, t.area):
            text = phrase("{name} hits {target}; {target} is hidden (Stealth: cover) and "
                          "chooses which die is damage.", name=f.name, target=t.name)
        elif cover:
            text = phrase("{name} hits {target}; {target} has cover and chooses which die is "
                          "damage.", name=f.name, target=t.name)
        else:
            text = phrase("{name} hits {target}; {target} holds a shield and chooses which die "
                          "is damage.", name=f.name, target=t.name)
    else:
        text = phrase("{name} hits {target} and chooses which die is damage.", name=f.name,
                      target=t.name)
    ctx.emit(EventKind.HIT, text, f.key, (roll.tens, roll.ones))
    return Hit(
        attacker=f.key,
        target=t.key,
        weapon=weapon,
        purpose=purpose,
        lethal=lethal,
        tens=roll.tens,
        ones=roll.ones,
        chooser=chooser.key,
    )
