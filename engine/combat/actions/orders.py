"""Standing orders (rules note 60): what a fighter answers when a reaction window closes on time
without its answer, one order per situation (``order_values.Situation``): attacked, Defend
(with a shield of its own, or as it stands), Counterattack or pass; moved past, Intercept or
pass; caught in a Blast, Defend or pass.

- ``set_order``: the ``SetOrder`` handler: a player for their own fighters, a GM for any (the
  fight's one permission check, ``require_control``); the order is checked against what the
  situation allows, its shield against the fighter's sheet;
- ``order_choices``: the orders that make sense for a fighter, as a menu offers them;
- ``order_answer``: what an order answers now, or why it is skipped; the window's close
  (``engine.combat.actions.window``) gives the answer as any answer is given, so the one
  check of an answer decides whether the order is followed.
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.character import usable_held
from engine.combat.commands import React, SetOrder
from engine.combat.context import Context, require_control
from engine.combat.model import Combat, Fighter
from engine.combat.order_values import OrderedReaction, Situation, StandingOrder
from engine.errors import RuleError
from engine.listing import one_by_one
from engine.names import name_key
from engine.phrases import Phrase, Said, phrase

__all__ = [
    "REACTION_WORDS", "SITUATION_WORDS", "order_answer", "order_choices",
    "order_of", "order_words", "orders_text", "set_order", "skipped_text",
]

#: What each situation allows an order to answer.
_REACTIONS: dict[Situation, tuple[OrderedReaction, ...]] = {
    Situation.ATTACKED: ("defend", "counterattack", "pass"),
    Situation.MOVED_PAST: ("intercept", "pass"),
    Situation.BLAST: ("defend", "pass"),
}
#: Each situation as a sentence's "when ..." reads it.
SITUATION_WORDS: dict[Situation, Phrase] = {
    Situation.ATTACKED: phrase("attacked"),
    Situation.MOVED_PAST: phrase("an enemy moves past"),
    Situation.BLAST: phrase("caught in a blast"),
}
#: Each answer in a reaction window (an order's too) as a sentence says it, a verb after
#: "may" or "to": "Goon may defend or pass", "Ana's standing order to intercept".
REACTION_WORDS: dict[str, Phrase] = {
    "defend": phrase("defend"),
    "counterattack": phrase("counterattack"),
    "intercept": phrase("intercept"),
    "pass": phrase("pass"),
}
_UNARMED_ABILITY = "unarmed.fight"


def order_of(c: Combat, fighter: str, situation: Situation) -> StandingOrder | None:
    """``fighter``'s (a key) standing order in ``situation``, if any."""
    return next((o for o in c.standing_orders
                 if o.fighter == fighter and o.situation is situation), None)


def order_words(order: StandingOrder) -> Phrase:
    """"defend with Riot shield", "defend", "counterattack", "intercept", "pass"."""
    reaction = REACTION_WORDS[order.reaction]
    if order.item is None:
        return reaction
    return phrase("{reaction} with {item}", reaction=reaction, item=order.item)


def orders_text(c: Combat, fighter: str) -> Said:
    """``fighter``'s (a key) standing orders in one line, in the situations' order ("" without
    any): "when attacked: defend with Riot shield · when caught in a blast: pass"."""
    said: Said = ""
    for s in reversed(Situation):
        if (o := order_of(c, fighter, s)) is None:
            continue
        one = phrase("when {situation}: {order}", situation=SITUATION_WORDS[s],
                     order=order_words(o))
        said = one if said == "" else phrase("{first} · {more}", first=one, more=said)
    return said


def set_order(c: Combat, cmd: SetOrder, ctx: Context) -> Combat:
    """Set (or, with no reaction, clear) a fighter's standing order in one situation. Nothing
    is said to the table: an order is the player's own plan until it is followed."""
    f = c.fighter(cmd.fighter)
    require_control(ctx.actor, f)
    others = tuple(o for o in c.standing_orders
                   if (o.fighter, o.situation) != (f.key, cmd.situation))
    if cmd.reaction is None:
        return c.model_copy(update={"standing_orders": others})
    allowed = _REACTIONS[cmd.situation]
    if cmd.reaction not in allowed:
        raise RuleError(phrase("When {situation}, a standing order may be: {choices}.",
                               situation=SITUATION_WORDS[cmd.situation],
                               choices=one_by_one([REACTION_WORDS[r] for r in allowed])))
    item = None if cmd.item is None else _shield_named(f, cmd, ctx.rules)
    order = StandingOrder(fighter=f.key, situation=cmd.situation, reaction=cmd.reaction,
                          item=item)
    return c.model_copy(update={"standing_orders": (*others, order)})


def _shield_named(f: Fighter, cmd: SetOrder, rules: Rules) -> str:
    """The name of ``f``'s shield that ``cmd`` names, as the sheet spells it."""
    assert cmd.item is not None
    if cmd.reaction != "defend" or cmd.situation is not Situation.ATTACKED:
        raise RuleError(phrase("Only a Defend against an attack is made with an item (a "
                               "shield); shields give nothing against a blast."))
    for name in _shields(f, rules):
        if name_key(name) == name_key(cmd.item):
            return name
    raise RuleError(phrase("{name} has no shield called {item}.", name=f.name,
                           item=repr(cmd.item.strip())))


def _shields(f: Fighter, rules: Rules) -> tuple[str, ...]:
    """The names of ``f``'s intact shields, each once."""
    return tuple(dict.fromkeys(
        it.name for it in f.character.items
        if not it.destroyed and rules.items.kind(it.kind).defender_chooses_dice))


def _could_attack(f: Fighter, rules: Rules) -> bool:
    """Whether ``f`` has anything to counterattack or intercept with, in hand or not: an
    intact item that attacks a character (with the ability it needs), or Unarmed Combat."""
    ch = f.character
    if _UNARMED_ABILITY in ch.abilities:
        return True
    for it in ch.items:
        kind = rules.items.kind(it.kind)
        if not it.destroyed and kind.attack in ("melee", "ranged") and (
                kind.attack_requires is None or kind.attack_requires in ch.abilities):
            return True
    return False


def order_choices(f: Fighter, situation: Situation, rules: Rules) -> tuple[StandingOrder, ...]:
    """The orders that make sense for ``f`` in ``situation``, in a menu's order: Defend with
    each of its shields, Defend, Counterattack or Intercept when it has something to attack
    with, pass."""
    def order(reaction: OrderedReaction, item: str | None = None) -> StandingOrder:
        return StandingOrder(fighter=f.key, situation=situation, reaction=reaction, item=item)

    found: list[StandingOrder] = []
    if situation is Situation.ATTACKED:
        found += [order("defend", name) for name in _shields(f, rules)]
    for reaction in _REACTIONS[situation]:
        if reaction in ("counterattack", "intercept") and not _could_attack(f, rules):
            continue
        found.append(order(reaction))
    return tuple(found)


def skipped_text(f: Fighter, order: StandingOrder, why: Said) -> Phrase:
    """"Ana's standing order to defend with Riot shield is skipped: <why>": ``why`` a
    sentence (a phrase says its own full stop)."""
    if isinstance(why, str):
        why = why.rstrip(".") + "."
    return phrase("{name}'s standing order to {order} is skipped: {why}", name=f.name,
                  order=order_words(order), why=why)



def order_answer(c: Combat, f: Fighter, situation: Situation,
                 rules: Rules) -> tuple[StandingOrder, React | Phrase] | None:
    """``f``'s standing order in ``situation`` and what it answers now: the answer, or why it
    is skipped (a Defend with a shield that is not in a usable hand); None without an order."""
    order = order_of(c, f.key, situation)
    if order is None:
        return None
    ch = f.character
    held = {name_key(ch.items[i].name) for i in usable_held(ch, rules=rules)}
    if order.item is not None and name_key(order.item) not in held:
        return order, phrase("no {item} in a usable hand.", item=order.item)
    return order, React(fighter=f.key, reaction=order.reaction)
