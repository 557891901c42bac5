"""First Aid (004 "First Aid"; RULINGS 3): with a first aid item in a usable hand (used up),
range 0. Success: the treater assigns the dice (boxes, additional locations) and the treated
player picks the \\ marks erased; failure: every \\ becomes X; critical failure: X marks
become permanent wounds ■, chosen by the treated player.

A treater with the First Aid ability's sure success may take it instead of rolling (004
"Abilities": First Aid): no roll, exactly one \\ erased (the treated player picks which,
when there is a choice), every other \\ becomes X."""

from __future__ import annotations

from engine.catalog import Action, Rules
from engine.character import (
    Character,
    Mark,
    Status,
    destroy_item,
    first_aid_critical_failure,
    first_aid_failure,
    first_aid_success,
    status,
    usable_hands,
)
from engine.character.wording import status_sentence
from engine.combat.abilities.hooks import CRITICAL_OPTIONS, sure_success
from engine.combat.action_kinds import ActionKind
from engine.combat.commands import AidMark, FirstAid
from engine.combat.context import Context, require_control
from engine.combat.fighters import acting_fighter, put, settle_status, spend_action
from engine.combat.hidden_npcs import figures_hidden
from engine.combat.model import Combat, EventKind, Phase, Prompt, PromptKind
from engine.combat.phase_guard import require_phase
from engine.combat.prompts import prompt
from engine.combat.roll_spec import make_roll, roll_spec
from engine.combat.rolls import wants_reroll
from engine.combat.step_values import AidAction
from engine.combat.steps import pop, push, replace_top
from engine.errors import RuleError
from engine.phrases import Phrase, phrase, plural_phrase

__all__ = ["advance", "aid_mark", "first_aid", "prompts", "treatable"]

_AID_PROMPTS = (
    PromptKind.AID_SURE, PromptKind.AID_DICE, PromptKind.AID_BOXES, PromptKind.AID_PERMANENT,
)


def _aid_item(c: Character, rules: Rules) -> int | None:
    """The index of a first aid item in a usable hand, if any."""
    for hand in usable_hands(c, rules=rules):
        index = c.held(hand)
        if index is not None and rules.items.kind(c.items[index].kind).id == "first_aid":
            return index
    return None


def treatable(ch: Character) -> bool:
    """Whether first aid can help ``ch``: a \\ mark to erase or cross (004: X "cannot be
    treated by first aid"; rules notes 57). Without one, every outcome but a critical
    failure changes nothing, and that one only makes X marks permanent."""
    return any(Mark.SLASH.value in marks for marks in ch.wounds.values())


def first_aid(c: Combat, cmd: FirstAid, ctx: Context) -> Combat:
    rules = ctx.rules
    f = acting_fighter(c, cmd.fighter, ctx)
    t = c.fighter(cmd.target)
    if status(t.character, rules=rules) is Status.DEAD:
        raise RuleError(phrase("{target} is dead; first aid cannot help.", target=t.name))
    if t.area != f.area:
        raise RuleError(phrase("First aid has range 0: {target} is in {target_area}, {fighter} "
                               "in {area}.", target=t.name, target_area=t.area,
                               fighter=f.name, area=f.area))
    index = _aid_item(f.character, rules)
    if index is None:
        raise RuleError(phrase("{fighter} needs a first aid item in a usable hand.",
                               fighter=f.name))
    may_be_sure = sure_success(f.character, Action.FIRST_AID)
    if cmd.sure and not may_be_sure:
        raise RuleError(phrase(
            "{fighter} does not have the First Aid ability's sure success; roll instead.",
            fighter=f.name))
    if not treatable(t.character) and (ctx.actor.gm or not figures_hidden(c, t)):
        # (a player is not told what a hidden NPC's marks are: the GM sees the aid play out)
        raise RuleError(phrase("{target} has no \\ mark for first aid to treat: it would "
                               "change nothing, so nothing is spent.", target=t.name))
    item = f.character.items[index]
    ch, _ = destroy_item(f.character, index, rules=rules)
    f = spend_action(f.model_copy(update={"character": ch}), ctx, ActionKind.FIRST_AID)
    c = put(c, f)
    seq = c.action_seq + 1
    aid = AidAction(seq=seq, treater=f.key, target=t.key)
    what = phrase("{fighter} gives first aid to {target} with {item} (used up)",
                  fighter=f.name, target=t.name, item=item.name)
    if cmd.sure:
        ctx.emit(EventKind.FIRST_AID, _sure_said(what), f.key)
        aid = _sure(aid)
    elif cmd.sure is None and may_be_sure:
        ctx.emit(EventKind.FIRST_AID, phrase("{what}.", what=what), f.key)
    else:
        aid = _roll(c, aid, what, ctx)
    return push(c.model_copy(update={"action_seq": seq}), aid)


def _sure(aid: AidAction) -> AidAction:
    """The sure success: one \\ erased (the ability's wording: "erase only 1 \\ mark")."""
    return aid.model_copy(update={"sure": True, "boxes": 1, "extra_locations": 0})


def _sure_said(what: Phrase) -> Phrase:
    return phrase("{what}: a sure success, no roll.", what=what)


def _roll(c: Combat, aid: AidAction, what: Phrase, ctx: Context) -> AidAction:
    f = c.fighter(aid.treater)
    state = make_roll(roll_spec(f, ctx.rules, Action.FIRST_AID, "first_aid"), ctx.dice)
    ctx.say_roll(EventKind.FIRST_AID, what, f, state.roll.result)
    return aid.model_copy(update={"roll": state})


def _die_number(die: int, value: int) -> int:
    """A die read as a number (RULINGS 3: a 0 on a roll of 100 reads as 10)."""
    return 10 if value == 100 else die


def advance(c: Combat, ctx: Context) -> tuple[Combat, bool]:
    """The first aid on top, as far as it goes without a choice; done, it leaves the stack."""
    rules = ctx.rules
    aid = c.step
    assert isinstance(aid, AidAction)
    if aid.roll is None and not aid.sure:
        # (a treater who can no longer choose has lapsed already: ``engine.combat.lapse``)
        return c, True  # the treater chooses: a sure success, or the roll
    if aid.roll is not None and (
        wants_reroll(aid.roll) or aid.roll.roll.awaits_critical_choice
    ):
        return c, True
    res = aid.roll.roll.result if aid.roll is not None else None
    t = c.fighter(aid.target)
    ch = t.character
    if res is None:  # the sure success: one \ erased, wherever the treater says
        options = _box_options(ch, aid)
        if len(options) > 1:
            return c, True
        plan = {options[0]: 1} if options else aid.plan
        new, report = first_aid_success(ch, plan, boxes=1, extra_locations=0, rules=rules)
    elif res.critical_failure:
        crosses = sum(m.count("X") for m in ch.wounds.values())
        die = _die_number(res.tens, res.value)
        due = min(die, crosses)
        if aid.due is None:
            aid = aid.model_copy(update={"due": due})
            c = replace_top(c, aid)
        if sum(aid.plan.values()) < due and crosses > due:
            return c, True
        plan = aid.plan if crosses > due else {k: v.count("X") for k, v in ch.wounds.items()}
        new, report = first_aid_critical_failure(ch, plan, die=die, rules=rules)
    elif not res.success:
        new, report = first_aid_failure(ch, rules=rules)
    else:
        if aid.boxes is None:
            if res.tens != res.ones:
                return c, True
            aid = aid.model_copy(update={"boxes": res.tens, "extra_locations": res.ones})
            c = replace_top(c, aid)
        if _box_options(ch, aid):
            return c, True
        assert aid.boxes is not None and aid.extra_locations is not None
        new, report = first_aid_success(
            ch, aid.plan, boxes=aid.boxes, extra_locations=aid.extra_locations, rules=rules
        )
    done = phrase("First aid on {target} is done.", target=t.name)
    if report.status_after is not report.status_before:
        done = phrase("{done} {now}", done=done, now=status_sentence(t.name, report.status_after))
    ctx.emit(EventKind.FIRST_AID_RESULT, report.summary, t.key, public=done, of=t)
    c = put(c, settle_status(t.model_copy(update={"character": new}), rules))
    return pop(c), False


def _box_options(ch: Character, aid: AidAction) -> tuple[str, ...]:
    """Locations where the treated player may still erase a \\ (empty: the plan is final)."""
    if aid.boxes is None or aid.extra_locations is None or aid.due is not None:
        return ()
    if sum(aid.plan.values()) >= aid.boxes:
        return ()
    places = [k for k, v in aid.plan.items() if v]
    return tuple(
        loc
        for loc, marks in ch.wounds.items()
        if marks.count("\\") > aid.plan.get(loc, 0)
        and (loc in places or len(places) < 1 + aid.extra_locations)
    )


def _permanent_options(ch: Character, aid: AidAction) -> tuple[str, ...]:
    return tuple(loc for loc, marks in ch.wounds.items() if marks.count("X") > aid.plan.get(loc, 0))


def prompts(c: Combat, aid: AidAction) -> tuple[Prompt, ...]:
    s = aid.roll
    if s is None and not aid.sure:
        return (prompt(c, PromptKind.AID_SURE, aid.treater, ("roll", "sure")),)
    if s is not None and wants_reroll(s):
        return (prompt(c, PromptKind.REROLL, s.fighter, ("tens", "ones", "both", "keep")),)
    if s is not None and s.roll.awaits_critical_choice:
        return (prompt(c, PromptKind.CRITICAL, s.fighter, CRITICAL_OPTIONS),)
    treated = c.fighter(aid.target)
    ch = treated.character
    # Which marks to erase shows where they are: for a hidden NPC the GM picks them.
    eraser = aid.target if figures_hidden(c, treated) else aid.treater
    if aid.sure:  # exactly one \ is erased: no "done"
        return (prompt(c, PromptKind.AID_BOXES, eraser, _box_options(ch, aid)),)
    if aid.due is not None:
        return (prompt(c, PromptKind.AID_PERMANENT, aid.target, _permanent_options(ch, aid)),)
    if aid.boxes is None:
        return (prompt(c, PromptKind.AID_DICE, aid.treater, ("tens", "ones")),)
    options = _box_options(ch, aid)
    return (prompt(c, PromptKind.AID_BOXES, eraser, (*options, "done")),)


def aid_mark(c: Combat, cmd: AidMark, ctx: Context) -> Combat:
    require_phase(c, Phase.RESOLUTION)
    aid = c.aid
    f = c.fighter(cmd.fighter)
    asked = next(
        (p for p in c.prompts if p.fighter == f.key and p.kind in _AID_PROMPTS),
        None,
    )
    if aid is None or asked is None:
        raise RuleError(phrase("Nothing is waiting for {fighter} to decide about first aid now.",
                               fighter=f.name))
    require_control(ctx.actor, f)
    if cmd.option not in asked.options:
        raise RuleError(phrase("Choose one of: {options}.", options=", ".join(asked.options)))
    rules = ctx.rules
    if asked.kind is PromptKind.AID_SURE:
        t = c.fighter(aid.target)
        what = phrase("{fighter} gives first aid to {target}", fighter=f.name, target=t.name)
        if cmd.option == "sure":
            ctx.emit(EventKind.AID_SURE, _sure_said(what), f.key)
            aid = _sure(aid)
        else:
            aid = _roll(c, aid, what, ctx)
    elif asked.kind is PromptKind.AID_DICE:
        assert aid.roll is not None
        tens, ones = aid.roll.roll.result.tens, aid.roll.roll.result.ones
        boxes, extra = (tens, ones) if cmd.option == "tens" else (ones, tens)
        ctx.emit(
            EventKind.AID_DICE,
            phrase("{fighter} chooses {boxes} and {locations}.", fighter=f.name,
                   boxes=plural_phrase("{count} box", "{count} boxes", "count", count=boxes),
                   locations=plural_phrase("{count} additional location",
                                           "{count} additional locations", "count",
                                           count=extra)),
            f.key,
            (boxes, extra),
        )
        aid = aid.model_copy(update={"boxes": boxes, "extra_locations": extra})
    elif cmd.option == "done":
        ctx.emit(EventKind.AID_BOXES, phrase("{fighter} erases no more boxes.", fighter=f.name),
                 f.key)
        aid = aid.model_copy(update={"boxes": sum(aid.plan.values())})
    else:
        where = _location(cmd.option, rules)
        treated = c.fighter(aid.target)  # whoever chose it, the marks are the treated one's
        if asked.kind is PromptKind.AID_BOXES:
            said = phrase("{fighter}'s {where}: a \\ erased.", fighter=treated.name, where=where)
        else:
            said = phrase("{fighter}'s {where}: an X becomes ■.", fighter=treated.name,
                          where=where)
        ctx.emit(EventKind.AID_MARK, said, treated.key, of=treated,
                 public=phrase("{fighter}'s wounds: one mark chosen.", fighter=treated.name))
        plan = {**aid.plan, cmd.option: aid.plan.get(cmd.option, 0) + 1}
        aid = aid.model_copy(update={"plan": plan})
    return replace_top(c, aid)


def _location(location: str, rules: Rules) -> Phrase:
    """A hit location's name as a sentence says it: "right arm"."""
    return rules.body.location(location).said_lower
