"""The roller's choices on a roll (004 "Rolling Dice"): a good roller re-rolls a die (or both)
or keeps the roll; a critical success takes an extra action or adjusts the roll, or what an
ability offers in place of the extra action (1H Melee: the target loses its next action); and
what an ability gives in addition (2H Melee: destroy one of the target's items)."""

from __future__ import annotations

from engine.character import destroy_item
from engine.combat.abilities.hooks import CRITICAL_OPTIONS, critical_extras, critical_options
from engine.combat.abilities.melee_2h import DESTROY_ITEM
from engine.combat.commands import CriticalChoice, DestroyItem, Reroll
from engine.combat.context import Context
from engine.combat.fighters import gain_action, lose_action, put
from engine.combat.model import Combat, EventKind, Phase, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import answering
from engine.combat.rolls import replace_roll, rolls_deciding, strike, target_of, wants_reroll
from engine.combat.step_values import AttackAction, RollState
from engine.combat.steps import replace_top
from engine.dice import CriticalChoice as DiceCriticalChoice
from engine.dice import Reroll as DiceReroll
from engine.errors import RuleError
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["adjust_limit", "critical", "critical_choices", "destroy", "destroy_options",
           "reroll"]

#: Discord's limit of 25 buttons, less the "none" button.
MAX_DESTROY_OPTIONS = 24

#: A re-roll as the table is told it, by the dice re-rolled.
_REROLLS = {
    "tens": lambda name: phrase("{name} re-rolls tens", name=name),
    "ones": lambda name: phrase("{name} re-rolls ones", name=name),
    "both": lambda name: phrase("{name} re-rolls both", name=name),
}


def _destroyed(name: str, target: str, item: str, hands: int) -> Phrase:
    """A critical success destroys ``item`` of ``target``'s, held in ``hands`` hands."""
    if hands == 0:
        return phrase("{name}'s critical success destroys {target}'s {item}", name=name,
                      target=target, item=item)
    return plural_phrase("{name}'s critical success destroys {target}'s {item}; it leaves "
                         "{target}'s hand",
                         "{name}'s critical success destroys {target}'s {item}; it leaves "
                         "{target}'s hands", "hands", name=name, target=target, item=item,
                         hands=hands)


def reroll(c: Combat, cmd: Reroll, ctx: Context) -> Combat:
    require_phase(c, Phase.INITIATIVE, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.REROLL, cmd.fighter, ctx.actor)
    if cmd.which not in asked.options:
        raise RuleError(phrase("Choose one of: {options}.", options=", ".join(asked.options)))
    state = next(s for s in rolls_deciding(c) if s.fighter == f.key and wants_reroll(s))
    if cmd.which == "keep":
        ctx.emit(EventKind.REROLL,
                 ctx.by_gm_sentence(f, phrase("{name} keeps the roll", name=f.name)), f.key)
        new = state.model_copy(update={"reroll_decided": True})
    else:
        roll = state.roll.reroll(DiceReroll(cmd.which), ctx.dice)
        ctx.say_roll(EventKind.REROLL, ctx.by_gm_clause(f, _REROLLS[cmd.which](f.name)), f,
                     roll.result)
        new = state.model_copy(update={"roll": roll, "reroll_decided": True})
    return replace_roll(c, new)


def critical_choices(c: Combat, a: AttackAction, s: RollState) -> tuple[str, ...]:
    """What the roller of ``s`` may choose on its critical success: the book's two, and what
    the roller's abilities offer for this attack (its action and weapon)."""
    hit = strike(a, s)
    if hit is None:
        return CRITICAL_OPTIONS
    return critical_options(c.fighter(s.fighter).character, hit.action, hit.weapon)


def _critical_roll(c: Combat, key: str) -> RollState | None:
    """The roll of ``key`` whose critical success waits for its choice."""
    return next((s for s in rolls_deciding(c)
                 if s.fighter == key and s.roll.awaits_critical_choice), None)


def adjust_limit(c: Combat, key: str) -> int | None:
    """The highest value ``key``'s critical success may be adjusted to now (RULINGS 5: the
    level, or the max level when the roll was exactly the level), or None when no critical
    success of theirs waits for its choice."""
    state = _critical_roll(c, key)
    return None if state is None else state.roll.adjust_limit


def critical(c: Combat, cmd: CriticalChoice, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.CRITICAL, cmd.fighter, ctx.actor)
    if cmd.choice not in asked.options:
        raise RuleError(phrase("{name}'s critical success offers: {options}; not {choice}.",
                               name=f.name, options=", ".join(asked.options),
                               choice=cmd.choice))
    state = _critical_roll(c, f.key)
    assert state is not None  # the prompt asks for it
    a = c.attack
    hit = None if a is None else strike(a, state)
    if cmd.choice == "extra_action":
        roll = state.roll.take_extra_action()
        c = put(c, gain_action(f))
        ctx.emit(EventKind.EXTRA_ACTION, ctx.by_gm_sentence(
            f, phrase("{name} takes an extra action this round", name=f.name)), f.key)
    elif cmd.choice == "target_loses_action":
        assert hit is not None  # offered only for an attack roll
        roll = state.roll.keep_for(DiceCriticalChoice.TARGET_LOSES_ACTION)
        t = c.fighter(hit.target)
        c = put(c, lose_action(t))
        success = ctx.by_gm_clause(f, phrase("{name}'s critical success", name=f.name))
        ctx.emit(EventKind.LOST_ACTION, phrase("{success}: {target} loses the next action.",
                                               success=success, target=t.name)
                 if t.actions > 0 else
                 phrase("{success}: {target} loses the next action (next round: none is left "
                        "this round).", success=success, target=t.name), t.key)
    else:
        if cmd.value is None:
            raise RuleError(phrase("Say which value to adjust the roll to (1-{limit}).",
                                   limit=state.roll.adjust_limit))
        roll = state.roll.adjust(cmd.value)
        res = roll.result
        ctx.emit(EventKind.ADJUST, ctx.by_gm_sentence(
            f, phrase("{name} adjusts the roll to {value}", name=f.name, value=res.value)),
            f.key, (res.tens, res.ones))
    c = replace_roll(c, state.model_copy(update={"roll": roll}))
    if hit is not None and DESTROY_ITEM in critical_extras(
        f.character, hit.action, hit.weapon
    ):
        c = _offer_destroy(c, f.key, hit.target, ctx)
    return c


def _offer_destroy(c: Combat, key: str, target: str, ctx: Context) -> Combat:
    """2H Melee: the critical success may also destroy one of the target's items."""
    a = c.attack
    assert a is not None
    f, t = c.fighter(key), c.fighter(target)
    if not destroy_options(c, a, key):
        ctx.emit(EventKind.ITEM_DESTROYED,
                 phrase("{name} has no item left to destroy.", name=t.name), t.key)
        return c
    return replace_top(c, a.model_copy(update={"destroying": (*a.destroying, f.key)}))


def _destroy_target(a: AttackAction, key: str) -> str:
    """Whose item ``key``'s critical success may destroy: the target of their attack roll."""
    target = target_of(a, key)
    if target is None:
        raise RuleError(phrase("No critical success is destroying an item now."))
    return target


def destroy_options(c: Combat, a: AttackAction, key: str) -> tuple[str, ...]:
    """The target's items ``key`` may destroy, by their number on the sheet (1-based): every
    intact item on them (in hand, worn or in the pack); not what lies on the floor."""
    t = c.fighter(_destroy_target(a, key))
    floor = {d.index for d in t.dropped}
    return tuple(
        str(i + 1)
        for i, item in enumerate(t.character.items)
        if not item.destroyed and i not in floor
    )[:MAX_DESTROY_OPTIONS]


def destroy(c: Combat, cmd: DestroyItem, ctx: Context) -> Combat:
    """2H Melee: the roller names one of the target's items to destroy, or none."""
    require_phase(c, Phase.RESOLUTION)
    f, asked = answering(c, PromptKind.DESTROY, cmd.fighter, ctx.actor)
    a = c.attack
    assert a is not None  # the prompt is asked only during an attack
    t = c.fighter(_destroy_target(a, f.key))
    if cmd.item not in asked.options:
        numbers = ", ".join(o for o in asked.options if o != "none")
        raise RuleError(phrase(
            "Name one of {name}'s items by its number on the sheet ({numbers}) or none.",
            name=t.name, numbers=numbers))
    if cmd.item == "none":
        ctx.emit(EventKind.ITEM_DESTROYED, ctx.by_gm_sentence(
            f, phrase("{name} destroys none of {target}'s items", name=f.name, target=t.name)),
            f.key)
    else:
        index = int(cmd.item) - 1
        ch = t.character
        item = ch.items[index]
        hands = [h for h in (ch.right_hand, ch.left_hand) if h == index]
        ch, _ = destroy_item(ch, index, rules=ctx.rules)
        c = put(c, t.model_copy(update={"character": ch}))
        ctx.emit(EventKind.ITEM_DESTROYED,
                 ctx.by_gm_sentence(f, _destroyed(f.name, t.name, item.name, len(hands))),
                 t.key)
    top = c.attack
    assert top is not None
    left = tuple(k for k in top.destroying if k != f.key)
    return replace_top(c, top.model_copy(update={"destroying": left}))
