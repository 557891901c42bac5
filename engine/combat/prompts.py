"""One spec per kind of prompt (what the fight waits for): the verb the engine refuses with,
the few words the board shows, the question the table is asked, each option's label and tone
(a chance taken, a chance declined) and the command an answer makes. The board and the bot
read this table; nothing else describes a prompt kind.

>>> SPECS[PromptKind.ARMOR].label("use").english()
'Destroy armor'
>>> SPECS[PromptKind.REROLL].command("keep", "ana")
Reroll(kind='reroll', fighter='ana', which='keep')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from engine.catalog import BodyPlan, HitLocation, Rules
from engine.combat.commands import (
    AidMark,
    AllOutDefend,
    AoEChoice,
    Armor,
    ChooseDice,
    ChooseOrder,
    ChooseRoller,
    Command,
    CriticalChoice,
    DestroyItem,
    Modifier,
    Rally,
    React,
    RefuseDirection,
    Reroll,
    StopArea,
)
from engine.combat.context import require_control
from engine.combat.hidden_npcs import figures_hidden
from engine.combat.model import Actor, Combat, Fighter, Prompt, PromptKind
from engine.combat.rolls import target_of
from engine.combat.step_values import AoEAction, AttackAction, ContinuousBurn, Reactor
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase, plural_phrase
from engine.words import series_phrase

__all__ = [
    "LESS_LETHAL", "SPECS", "PromptSpec", "Tone", "answering", "asked_users", "location_word",
    "option_label", "prompt", "prompt_dice", "prompt_for", "question", "react_options",
    "team_prompt", "waited_for", "window_prompts",
]

Dice = tuple[int, int] | None


class Tone(StrEnum):
    """How an option reads beside the others: the bot colours its button by it."""

    PLAIN = "plain"  # an answer like any other
    TAKE = "take"  # takes up a chance the rules offer (Defend, Extra action, All-Out Defend)
    DECLINE = "decline"  # lets the chance go (Pass, Keep, No modifier)


@dataclass(frozen=True)
class PromptSpec:
    verb: Phrase  # "Nothing is waiting for Ana to <verb> now."
    waiting: Phrase  # the board's "Waiting for: Ana (<waiting>)"
    question: Phrase  # the prompt's "**Ana** <question>"
    command: Callable[[str, str], Command]  # (option, fighter key) -> the answer's command
    labels: Mapping[str, Phrase] = field(default_factory=dict)
    dice_label: Callable[[str, tuple[int, int]], Phrase] | None = None  # the dice known
    other_label: Callable[[str], Phrase] | None = None  # options that are names (areas, teams)
    slash: str = "combat status"  # the command to use when the buttons do not fit
    offer: bool = False  # an offer the fight does not wait for: the board does not list it
    tones: Mapping[str, Tone] = field(default_factory=dict)  # the others are PLAIN

    def tone(self, option: str) -> Tone:
        """How ``option`` reads beside the others."""
        return self.tones.get(option, Tone.PLAIN)

    def label(self, option: str, dice: Dice = None) -> Said:
        if dice is not None and self.dice_label is not None:
            return self.dice_label(option, dice)
        if option in self.labels:
            return self.labels[option]
        return self.other_label(option) if self.other_label else option


#: The book's hit locations by id, as a sentence names them and as a label starts with them
#: (a body plan of other locations shows their names as the rules give them).
_LOCATION_WORDS = {
    "head": (phrase("head"), phrase("Head")),
    "torso": (phrase("torso"), phrase("Torso")),
    "right_arm": (phrase("right arm"), phrase("Right arm")),
    "left_arm": (phrase("left arm"), phrase("Left arm")),
    "right_leg": (phrase("right leg"), phrase("Right leg")),
    "left_leg": (phrase("left leg"), phrase("Left leg")),
}


def location_word(location_id: str, *, label: bool = False) -> Said:
    """A hit location by its id as a sentence names it ("left arm"), or as a label starts
    with it (``label``: "Left arm")."""
    words = _LOCATION_WORDS.get(location_id)
    if words is not None:
        return words[label]
    spelled = location_id.replace("_", " ")
    return spelled.capitalize() if label else spelled


def _location_of(location: HitLocation) -> Said:
    words = _LOCATION_WORDS.get(location.id)
    return location.name.lower() if words is None else words[0]


def _damage_dice(option: str, dice: tuple[int, int], body: BodyPlan | None = None) -> Phrase:
    """A damage die's answer: the damage, and the hit location the other die gives, named
    when the body plan is at hand ("3 damage · 9: head")."""
    damage, die = dice if option == "tens" else dice[::-1]
    if body is None:
        return phrase("{damage} damage · location {die}", damage=damage, die=die)
    return phrase("{damage} damage · {die}: {location}", damage=damage, die=die,
                  location=_location_of(body.for_die(die)))


def _aid_dice(option: str, dice: tuple[int, int]) -> Phrase:
    boxes, extra = dice if option == "tens" else dice[::-1]
    return phrase("{boxes} · {locations}",
                  boxes=plural_phrase("{count} box", "{count} boxes", "count", count=boxes),
                  locations=plural_phrase("{count} more location", "{count} more locations",
                                          "count", count=extra))


def _act_by_command(option: str, fighter: str) -> Command:
    raise RuleError(phrase("Act with a slash command such as /attack or /move."))


#: The suffix of a reaction window's option for the less-lethal version of a Counterattack or
#: an Intercept ("counterattack_less_lethal"): its own button, the same reaction.
LESS_LETHAL = "_less_lethal"


def _react(option: str, fighter: str) -> Command:
    reaction = option.removesuffix(LESS_LETHAL)
    return React(fighter=fighter, reaction=reaction, lethal=reaction == option)


def react_options(r: Reactor) -> tuple[str, ...]:
    """A reactor's answers, one button each: a Counterattack or an Intercept as it can be made,
    lethal (its weapon) and less-lethal (a melee weapon, or ranged with less-lethal ammo)."""
    found: list[str] = []
    for option in r.options:
        if option not in ("counterattack", "intercept"):
            found.append(option)
            continue
        if r.weapon is not None:
            found.append(option)
        if r.less_lethal_weapon is not None:
            found.append(f"{option}{LESS_LETHAL}")
    return (*found, "pass")


def _location(option: str) -> Phrase:
    word = location_word(option, label=True)
    return word if isinstance(word, Phrase) else phrase("{location}", location=word)


def _critical(option: str, fighter: str) -> Command:
    if option == "adjust":  # the bot asks for the value in a form, then makes the command
        raise RuleError(phrase("Adjust needs the value to adjust the roll to."))
    return CriticalChoice(fighter=fighter, choice=option)


def _aoe(option: str, fighter: str) -> Command:
    return AoEChoice(fighter=fighter, option=option)


def _die(option: str, dice: tuple[int, int]) -> Phrase:
    if option == "tens":
        return phrase("Tens die: {value}", value=dice[0])
    return phrase("Ones die: {value}", value=dice[1])


def _item_number(option: str) -> Phrase:
    return phrase("Destroy item {number}", number=option)


SPECS: dict[PromptKind, PromptSpec] = {
    PromptKind.ACT: PromptSpec(phrase("act"), phrase("act"), phrase("may act"), _act_by_command),
    PromptKind.CHOOSE_ORDER: PromptSpec(
        phrase("choose the order of teams"), phrase("choose the order"),
        phrase("won initiative: which team goes first?"),
        lambda option, fighter: ChooseOrder(first_team=option),
        other_label=lambda team: phrase("{team} first", team=team), slash="combat order"),
    PromptKind.CHOOSE_NEXT: PromptSpec(
        phrase("choose the order of teams"), phrase("choose the order"),
        phrase("won initiative: which team goes next?"),
        lambda option, fighter: ChooseOrder(order=(option,)),
        other_label=lambda team: phrase("{team} next", team=team), slash="combat order"),
    # Asked of a whole team (the prompt has no fighter): the options are the tied names.
    PromptKind.CHOOSE_ROLLER: PromptSpec(
        phrase("choose who rolls initiative"), phrase("choose who rolls"),
        phrase("have more than one fighter at their highest level: who rolls initiative?"),
        lambda option, fighter: ChooseRoller(fighter=option),
        other_label=lambda name: phrase("{name} rolls", name=name)),
    # Asked of a team's one highest-level fighter, the options are that fighter and the
    # leaders below (004 "Leader": "they can choose to let you roll initiative").
    PromptKind.LEADER_ROLLS: PromptSpec(
        phrase("choose who rolls initiative"), phrase("choose who rolls"),
        phrase("has the highest level: roll initiative, or let a leader roll?"),
        lambda option, fighter: ChooseRoller(fighter=option),
        other_label=lambda name: phrase("{name} rolls", name=name)),
    # A leader's direction: the fighter acts with a slash command (on the direction, without
    # spending an action of their own) or refuses it with the button.
    PromptKind.DIRECTED: PromptSpec(
        phrase("refuse a direction"), phrase("directed: act or refuse"),
        phrase("was directed: act now with a slash command, without spending your own "
               "action, or refuse"),
        lambda option, fighter: RefuseDirection(fighter=fighter),
        {"refuse": phrase("Refuse the direction")}, tones={"refuse": Tone.DECLINE}),
    PromptKind.END_RALLY: PromptSpec(
        phrase("rally at the end of the fight"), phrase("rally before the end?"),
        phrase("may rally the team before the fight ends (once per fight)"),
        lambda option, fighter: Rally(fighter=fighter, skip=option == "skip"),
        {"rally": phrase("Rally"), "skip": phrase("End without rallying")}, slash="rally"),
    PromptKind.REACT: PromptSpec(
        phrase("react"), phrase("react"), phrase("may react before the dice are rolled"),
        _react,
        {"defend": phrase("Defend"), "counterattack": phrase("Counterattack"),
         "intercept": phrase("Intercept"), "pass": phrase("Pass"),
         f"counterattack{LESS_LETHAL}": phrase("Counterattack (less-lethal)"),
         f"intercept{LESS_LETHAL}": phrase("Intercept (less-lethal)")},
        slash="defend, /counterattack or /intercept",
        tones={"defend": Tone.TAKE, "counterattack": Tone.TAKE, "intercept": Tone.TAKE,
               f"counterattack{LESS_LETHAL}": Tone.TAKE, f"intercept{LESS_LETHAL}": Tone.TAKE,
               "pass": Tone.DECLINE}),
    PromptKind.REROLL: PromptSpec(
        phrase("re-roll"), phrase("re-roll?"), phrase("is good at this: re-roll or keep?"),
        lambda option, fighter: Reroll(fighter=fighter, which=option),
        {"tens": phrase("Re-roll tens"), "ones": phrase("Re-roll ones"),
         "both": phrase("Re-roll both"), "keep": phrase("Keep")},
        tones={"keep": Tone.DECLINE}),
    PromptKind.CRITICAL: PromptSpec(
        phrase("use a critical success"), phrase("critical choice"),
        phrase("rolled a critical success: extra action or adjust?"),
        # Adjust needs a value: the bot asks for it in a form before making the command.
        _critical,
        {"extra_action": phrase("Extra action"), "adjust": phrase("Adjust"),
         "target_loses_action": phrase("Target loses next action")},
        tones={"extra_action": Tone.TAKE, "adjust": Tone.TAKE, "target_loses_action": Tone.TAKE}),
    PromptKind.DESTROY: PromptSpec(
        phrase("destroy an item"), phrase("destroy an item?"),
        phrase("may also destroy one of the target's items (the critical success, 2H Melee)"),
        lambda option, fighter: DestroyItem(fighter=fighter, item=option),
        {"none": phrase("Destroy nothing")}, other_label=_item_number,
        tones={"none": Tone.DECLINE}),
    PromptKind.CHOOSE_DICE: PromptSpec(
        phrase("choose the damage die"), phrase("damage die"),
        phrase("chooses which die is damage (the other is hit location)"),
        lambda option, fighter: ChooseDice(fighter=fighter, damage=option),
        {"tens": phrase("Damage: tens die"), "ones": phrase("Damage: ones die")},
        dice_label=_damage_dice),
    PromptKind.MODIFIER: PromptSpec(
        phrase("use a modifier"), phrase("modifier"), phrase("may use a modifier"),
        lambda option, fighter: Modifier(fighter=fighter, use=option),
        {"precise+1": phrase("Precise +1"), "precise-1": phrase("Precise −1"),
         "powerful": phrase("Powerful"), "none": phrase("No modifier")},
        tones={"none": Tone.DECLINE}),
    PromptKind.ARMOR: PromptSpec(
        phrase("decide about armor"), phrase("armor?"),
        phrase("has armor there: destroy it instead of taking the damage?"),
        lambda option, fighter: Armor(fighter=fighter, use=option == "use"),
        {"use": phrase("Destroy armor"), "keep": phrase("Take the damage")},
        tones={"keep": Tone.DECLINE}),
    PromptKind.STOP_AREA: PromptSpec(
        phrase("choose where the mover stops"), phrase("where the mover stops"),
        phrase("stopped the move: which area does the mover end in?"),
        lambda option, fighter: StopArea(fighter=fighter, area=option),
        {StopArea.GO_ON: phrase("Let them go on")},
        other_label=lambda area: phrase("Stop in {area}", area=area)),
    PromptKind.AID_DICE: PromptSpec(
        phrase("choose the first aid dice"), phrase("first aid dice"),
        phrase("succeeded at first aid: which die is the number of boxes?"),
        lambda option, fighter: AidMark(fighter=fighter, option=option), dice_label=_aid_dice),
    PromptKind.AID_BOXES: PromptSpec(
        phrase("choose which boxes first aid erases"), phrase("boxes to erase"),
        phrase("chooses the \\ marks first aid erases, one per click"),
        lambda option, fighter: AidMark(fighter=fighter, option=option),
        {"done": phrase("Done")}, other_label=_location),
    PromptKind.AID_SURE: PromptSpec(
        phrase("choose a sure success or a roll"), phrase("sure success or roll"),
        phrase("may take a sure success instead of rolling (one \\ erased, the rest become X)"),
        lambda option, fighter: AidMark(fighter=fighter, option=option),
        {"roll": phrase("Roll"), "sure": phrase("Sure success")}),
    PromptKind.AID_PERMANENT: PromptSpec(
        phrase("choose where the permanent wounds go"), phrase("permanent wounds"),
        phrase("chooses where an X becomes a permanent wound ■, one per click"),
        lambda option, fighter: AidMark(fighter=fighter, option=option),
        {"done": phrase("Done")}, other_label=_location),
    PromptKind.ALL_OUT_DEFEND: PromptSpec(
        phrase("declare All-Out Defend"), phrase("all-out defend?"),
        phrase("may declare All-Out Defend before anyone acts this round: Defend every attack "
               "on them without spending an action (not good, never critical), and take no "
               "other action"),
        lambda option, fighter: AllOutDefend(fighter=fighter),
        {"declare": phrase("All-Out Defend")}, slash="alloutdefend", offer=True,
        tones={"declare": Tone.TAKE}),
    PromptKind.AOE_DICE: PromptSpec(
        phrase("choose the AoE's dice"), phrase("AoE dice"),
        phrase("chooses a die for the AoE (Blast: damage, the other more targets; Continuous: "
               "damage, the other rounds; Cover: rounds)"), _aoe,
        {"tens": phrase("Tens die"), "ones": phrase("Ones die")}, dice_label=_die, slash="aoe"),
    PromptKind.AOE_TARGET: PromptSpec(
        phrase("choose the blast's targets"), phrase("blast targets"),
        phrase("chooses a target of the blast, one per click (enemies first)"), _aoe,
        other_label=lambda name: phrase("Hit {name}", name=name), slash="aoe"),
    PromptKind.AOE_DEFEND: PromptSpec(
        phrase("defend against the blast"), phrase("defend the blast?"),
        # One question for every target: a Defend in All-Out Defend costs no action (the
        # window's announcement says which for each target; RULINGS 22).
        phrase("is caught in a blast: Defend (beat the roll: no damage; it spends an action, "
               "none in All-Out Defend)?"), _aoe,
        {"defend": phrase("Defend"), "pass": phrase("Take the damage")}, slash="aoe",
        tones={"defend": Tone.TAKE, "pass": Tone.DECLINE}),
    PromptKind.AOE_PLACE: PromptSpec(
        phrase("place the AoE damage"), phrase("place AoE damage"),
        phrase("places the AoE damage, one point per click"), _aoe,
        other_label=_location, slash="aoe"),
    PromptKind.AOE_ARMOR: PromptSpec(
        phrase("decide about armor"), phrase("armor vs AoE?"),
        phrase("has armor where the AoE damage goes: destroy it instead of taking that "
               "damage?"),
        _aoe, {"use": phrase("Destroy armor"), "keep": phrase("Take the damage")},
        slash="aoe", tones={"keep": Tone.DECLINE}),
}


def prompt(
    c: Combat, kind: PromptKind, key: str, options: tuple[str, ...], deadline: float | None = None
) -> Prompt:
    """``kind`` asked of the fighter ``key`` (and so of its player, or of the GM)."""
    f = c.fighter(key)
    return Prompt(
        kind=kind, fighter=key, team=f.team, user_id=f.owner_id, options=options, deadline=deadline
    )


def team_prompt(kind: PromptKind, team: str, options: tuple[str, ...]) -> Prompt:
    """``kind`` asked of a whole team: any of its players (or the GM, for a team of NPCs)."""
    return Prompt(kind=kind, team=team, options=options)


def asked_users(c: Combat, p: Prompt) -> tuple[int, ...]:
    """The players ``p`` asks (none: the GM decides): its fighter's player, or for a prompt
    to a whole team, each player with a fighter in that team."""
    if p.user_id is not None:
        return (p.user_id,)
    if p.fighter is not None or p.team is None:
        return ()
    owners = (f.owner_id for f in c.fighters if f.team == p.team and f.owner_id is not None)
    return tuple(dict.fromkeys(owners))


def waited_for(c: Combat) -> Said | None:
    """Who the fight waits for and who answers, to end a refusal ("NPCs to choose who rolls
    initiative (a GM answers)"; several joined by "; "); None when it waits for nobody."""
    parts: list[Phrase] = []
    for p in c.prompts:
        spec = SPECS[p.kind]
        if spec.offer:
            continue
        if p.fighter is not None:
            who = c.fighter(p.fighter).name
            part = (phrase("{who} to {verb} (a GM answers)", who=who, verb=spec.verb)
                    if p.user_id is None else
                    phrase("{who} to {verb} (their player or a GM answers)", who=who,
                           verb=spec.verb))
        else:
            team: Said = p.team or phrase("the GM")
            part = (phrase("{who} to {verb} (their players or a GM answer)", who=team,
                           verb=spec.verb)
                    if asked_users(c, p) else
                    phrase("{who} to {verb} (a GM answers)", who=team, verb=spec.verb))
        if part not in parts:
            parts.append(part)
    if not parts:
        return None
    said: Phrase = parts[-1]
    for part in reversed(parts[:-1]):
        # Translators: two of what the fight waits for, one after the other.
        said = phrase("{first}; {rest}", first=part, rest=said)
    return said


def prompt_for(c: Combat, kind: PromptKind, key: str) -> Prompt:
    """The prompt of ``kind`` the fight waits on ``key`` for (RuleError when there is none)."""
    for p in c.prompts:
        if p.kind is kind and p.fighter == key:
            return p
    raise RuleError(phrase("Nothing is waiting for {name} to {verb} now.",
                           name=c.fighter(key).name, verb=SPECS[kind].verb))


def answering(c: Combat, kind: PromptKind, name: str, actor: Actor) -> tuple[Fighter, Prompt]:
    """The fighter answering a prompt of ``kind``, and that prompt (RuleError when it is not
    asked of them, or ``actor`` may not answer for them)."""
    f = c.fighter(name)
    asked = prompt_for(c, kind, f.key)
    require_control(actor, f)
    return f, asked


def window_prompts(
    c: Combat, reactors: tuple[Reactor, ...], deadline: float | None
) -> tuple[Prompt, ...]:
    """A reaction window's prompts: each reactor that has not answered yet."""
    return tuple(
        prompt(c, PromptKind.REACT, r.fighter, react_options(r), deadline)
        for r in reactors
        if r.answer is None
    )


def prompt_dice(c: Combat, p: Prompt) -> Dice:
    """The tens and ones a prompt about dice asks about, to label its options."""
    aid = c.aid
    if p.kind is PromptKind.AID_DICE and aid is not None and aid.roll is not None:
        result = aid.roll.roll.result
        return result.tens, result.ones
    if p.kind is PromptKind.AOE_DICE and isinstance(c.step, AoEAction):
        result = c.step.roll.roll.result
        return result.tens, result.ones
    attack = c.attack
    if p.kind is not PromptKind.CHOOSE_DICE or not isinstance(attack, AttackAction):
        return None
    for hit in attack.hits:
        if hit.chooser == p.fighter and hit.damage_die is None:
            return hit.tens, hit.ones
    return None


def option_label(c: Combat, p: Prompt, option: str, rules: Rules | None = None) -> Said:
    """An option's label as the table reads it now: the dice where they are known (with
    ``rules``, a damage die names the body part its other die hits), a Defend of another
    character (Shield) names whom it defends ("Defend Ana"), and a critical success's names
    the target who loses an action or the item it destroys."""
    dice = prompt_dice(c, p)
    if p.kind is PromptKind.CHOOSE_DICE and dice is not None and rules is not None:
        return _damage_dice(option, dice, rules.body)
    attack = c.attack
    if (
        p.kind is PromptKind.REACT
        and option == "defend"
        and isinstance(attack, AttackAction)
        and p.fighter != attack.target
    ):
        return phrase("Defend {name}", name=c.fighter(attack.target).name)
    if attack is not None and p.fighter is not None:
        if p.kind is PromptKind.CRITICAL and option == "target_loses_action":
            target = target_of(attack, p.fighter)
            if target is not None:
                return phrase("{name} loses next action", name=c.fighter(target).name)
        if p.kind is PromptKind.DESTROY and option.isdigit():
            target = target_of(attack, p.fighter)
            items = c.fighter(target).character.items if target is not None else ()
            if 0 < int(option) <= len(items):
                return phrase("Destroy {item}", item=items[int(option) - 1].name)
    return SPECS[p.kind].label(option, dice)


def question(c: Combat, p: Prompt) -> Phrase:
    """The question ``p`` asks as the table reads it now: placing AoE damage says how many
    points are left and where those placed went (where, not for a fighter whose marks are
    hidden from the players)."""
    spec = SPECS[p.kind]
    step = c.step
    if p.kind is not PromptKind.AOE_PLACE or not isinstance(step, AoEAction | ContinuousBurn):
        return spec.question
    w = next((w for w in step.wounds if w.fighter == p.fighter and not w.done), None)
    if w is None:
        return spec.question
    left, amount = w.amount - w.placed, w.amount
    if not w.plan or figures_hidden(c, c.fighter(w.fighter)):
        return phrase("{question}: {left} of {amount} left", question=spec.question,
                      left=left, amount=amount)
    placed = [phrase("{location} {points}", location=location_word(loc), points=n)
              for loc, n in w.plan.items()]
    return phrase("{question}: {left} of {amount} left (placed: {placed})",
                  question=spec.question, left=left, amount=amount,
                  placed=series_phrase(placed))
