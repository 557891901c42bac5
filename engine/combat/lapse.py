"""What lapses when its fighter can no longer act before its dice are rolled (rules note 56).

004 "Unconsciousness": below level 10 "you cannot spend actions", below 0 you are dead, and a
surrendered fighter is out of the fight. So an action or a reaction still waiting for its dice
(an attack or an Intercept, a Defend or a Counterattack, a Move in its Intercept window and a
Speed roll, a Blast's Defend, a first aid whose treater has not chosen to roll) lapses once its
fighter cannot act (``fighters.can_act``, the one query): it is not rolled, and the table is
told. Whoever reacted to an action that lapses gets the action back, as when it is cancelled
by a surrender before the dice; the action that lapsed stays spent (its maker can no longer
finish it). What is rolled already is resolved as rolled.

The machine runs ``lapse_pending`` on the step on top before it advances it, so whatever put
the fighter down (a GM correction, Continuous damage, a surrender, a hit of an Intercept
before) is caught before any die of theirs: no step rolls for a fighter who cannot act."""

from __future__ import annotations

from engine.combat.actions.surrender import may_defend_again
from engine.combat.context import Context
from engine.combat.fighters import can_act, refund
from engine.combat.model import Combat, EventKind
from engine.combat.step_values import AidAction, AoEAction, AttackAction, MoveAction, Reactor
from engine.combat.steps import pop, replace_top
from engine.phrases import Phrase, phrase

__all__ = ["lapse_pending"]

#: What lapses with a reactor who can no longer act.
_ANSWER_LAPSES = {
    "defend": phrase("the Defend lapses, unrolled"),
    "counterattack": phrase("the Counterattack lapses, unrolled"),
    "intercept": phrase("the Intercept lapses, unrolled"),
}


def lapse_pending(c: Combat, ctx: Context) -> Combat:
    """``c`` with what the step on top still had to roll for fighters who cannot act lapsed."""
    step = c.step
    if isinstance(step, AttackAction) and not step.rolled:
        return _attack(c, step, ctx)
    if isinstance(step, MoveAction):
        return _move(c, step, ctx)
    if isinstance(step, AoEAction) and step.targets_done and not step.rolled:
        return _blast(c, step, ctx)
    if isinstance(step, AidAction) and step.roll is None and not step.sure:
        return _aid(c, step, ctx)
    return c


def _able(c: Combat, key: str, ctx: Context) -> bool:
    return can_act(c.fighter(key), ctx.rules)


def _lapsed(c: Combat, key: str, what: Phrase, ctx: Context) -> None:
    name = c.fighter(key).name
    ctx.emit(EventKind.CANCELLED, phrase("{name} can no longer act: {what}.", name=name,
                                         what=what), key)


def _give_back(c: Combat, reactors: tuple[Reactor, ...], ctx: Context) -> Combat:
    """Whoever reacted to an action that lapses gets the action back (if they can still use
    it), as after a surrender before the dice."""
    for r in reactors:
        if r.answer in _ANSWER_LAPSES and _able(c, r.fighter, ctx):
            c = refund(c, r.fighter, reaction=True, free=r.free)
    return c


def _drop_reactors(c: Combat, reactors: tuple[Reactor, ...], ctx: Context,
                   done: tuple[str, ...] = ()) -> tuple[tuple[Reactor, ...], bool]:
    """``reactors`` without those who cannot act (their reaction lapses, or they are no longer
    asked), and whether one of them had declared a Defend; ``done``: reactors whose reaction
    is resolved already, kept as they are."""
    kept: list[Reactor] = []
    defend_lapsed = False
    for r in reactors:
        if r.fighter in done or _able(c, r.fighter, ctx) or r.answer == "pass":
            kept.append(r)
            continue
        if r.answer is None:
            _lapsed(c, r.fighter, phrase("no reaction"), ctx)
        else:
            _lapsed(c, r.fighter, _ANSWER_LAPSES[r.answer], ctx)
            defend_lapsed = defend_lapsed or r.answer == "defend"
    return tuple(kept), defend_lapsed


def _attack(c: Combat, a: AttackAction, ctx: Context) -> Combat:
    """An attack (or an Intercept) not rolled yet: it lapses with its attacker; a reactor who
    cannot act leaves it (a lapsed Defend lets another Defend the target, as one per attack)."""
    target = c.fighter(a.target).name
    if not _able(c, a.attacker, ctx):
        what = (phrase("the Intercept of {target} lapses, unrolled", target=target)
                if a.intercept else
                phrase("the attack on {target} lapses, unrolled", target=target))
        _lapsed(c, a.attacker, what, ctx)
        return pop(_give_back(c, a.reactors, ctx))
    reactors, defend_lapsed = _drop_reactors(c, a.reactors, ctx)
    if reactors == a.reactors:
        return c
    if defend_lapsed:
        reactors = tuple(may_defend_again(r) for r in reactors)
    return replace_top(c, a.model_copy(update={"reactors": reactors}))


def _move(c: Combat, mv: MoveAction, ctx: Context) -> Combat:
    """A Move whose window has not closed lapses with its mover (the mover stays, and no
    Intercept of it is made); an interceptor who cannot act before their Intercept is made
    leaves it."""
    if not mv.window_closed and not _able(c, mv.mover, ctx):
        name = c.fighter(mv.mover).name
        what = (phrase("the second step lapses ({name} stays in {area})", name=name,
                       area=mv.frm) if mv.second else
                phrase("the move to {to} lapses ({name} stays in {area})", to=mv.to, name=name,
                       area=mv.frm))
        _lapsed(c, mv.mover, what, ctx)
        return pop(_give_back(c, mv.reactors, ctx))
    done = (*mv.resolved, *(() if mv.intercepting is None else (mv.intercepting,)))
    reactors, _ = _drop_reactors(c, mv.reactors, ctx, done)
    if reactors == mv.reactors:
        return c
    return replace_top(c, mv.model_copy(update={"reactors": reactors}))


def _blast(c: Combat, a: AoEAction, ctx: Context) -> Combat:
    """A Blast's target who cannot act before the Defends are rolled does not Defend (and
    takes the damage, as any target who does not)."""
    targets = []
    for t in a.targets:
        if t.answer != "pass" and not _able(c, t.fighter, ctx):
            what = phrase("no Defend") if t.answer is None else _ANSWER_LAPSES["defend"]
            _lapsed(c, t.fighter, what, ctx)
            t = t.model_copy(update={"answer": "pass"})
        targets.append(t)
    if tuple(targets) == a.targets:
        return c
    return replace_top(c, a.model_copy(update={"targets": tuple(targets)}))


def _aid(c: Combat, aid: AidAction, ctx: Context) -> Combat:
    """A treater who cannot act before choosing a sure success or the roll gives no first aid
    (rules note 39: the action and the item stay spent)."""
    if _able(c, aid.treater, ctx):
        return c
    name = c.fighter(aid.treater).name
    ctx.emit(EventKind.FIRST_AID_RESULT,
             phrase("{name} can no longer give first aid: it does not take effect.", name=name),
             aid.treater)
    return pop(c)
