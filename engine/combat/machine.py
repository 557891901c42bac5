"""The combat state machine: ``apply(combat, command, ...) -> (new combat, events)``.

Each command kind has one handler (``_HANDLERS``); a handler checks everything before it rolls
a die, so a refused command raises ``RuleError`` and changes nothing. After every handler,
``_settle`` ends turns and rounds that have nothing left, ends the fight when one team is left
standing, and works out what the fight waits for next (``Combat.prompts``).

Dice order: initiative rolls tens then ones per team (the previous holder first; round 1: the
PCs' team first), an attack rolls the attacker's two dice and then the reactor's two.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from pydantic import ValidationError

from engine.catalog import Hand, ItemKind, Rules
from engine.character import (
    Character,
    Mark,
    Status,
    can_move,
    character_problems,
    destroy_item,
    first_aid_critical_failure,
    first_aid_failure,
    first_aid_success,
    full_locations,
    hold,
    status,
    stow,
    surrender,
    take_damage,
    usable_hands,
)
from engine.combat.commands import (
    AddFighter,
    AidMark,
    Armor,
    Attack,
    Begin,
    ChooseDice,
    ChooseOrder,
    CloseWindow,
    Command,
    CriticalChoice,
    Done,
    Door,
    EndCombat,
    FirstAid,
    GMSet,
    ManageItems,
    Modifier,
    Move,
    React,
    RemoveFighter,
    Reroll,
    StopArea,
    Surrender,
)
from engine.combat.model import (
    Actor,
    AidAction,
    AttackAction,
    Combat,
    Dropped,
    Event,
    Fighter,
    Hit,
    InitiativeRoll,
    MoveAction,
    Phase,
    Prompt,
    PromptKind,
    Reactor,
    RollState,
    Weapon,
)
from engine.dice import Check, DiceSource, Roll, Side, opposed, powerful, precise
from engine.dice import Modifier as DiceModifier
from engine.dice import Reroll as DiceReroll
from engine.errors import RuleError
from engine.maps import Kind, UnknownAreaError

__all__ = [
    "apply",
    "legal_doors",
    "legal_items",
    "legal_moves",
    "legal_targets",
    "legal_weapons",
    "new_combat",
]

HANDS: tuple[Hand, Hand] = ("right", "left")
UNARMED = "unarmed"
TEAM_NAME_MAX = 32


def new_combat(map_text: str, *, reaction_seconds: int = 45) -> Combat:
    """A combat in SETUP on this map (the map is parsed now, so a bad map is refused now).

    >>> new_combat("Bar -- Kitchen").phase
    <Phase.SETUP: 'setup'>
    """
    if reaction_seconds < 1:
        raise RuleError("The reaction window lasts at least 1 second.")
    c = Combat(map_text=map_text, reaction_seconds=reaction_seconds)
    c.game_map()
    return c


@dataclass
class _Ctx:
    actor: Actor
    dice: DiceSource
    rules: Rules
    now: float
    events: list[Event] = field(default_factory=list)

    def emit(
        self, kind: str, text: str, fighter: str | None = None, dice: tuple[int, ...] = ()
    ) -> None:
        self.events.append(Event(kind=kind, text=text, fighter=fighter, dice=dice))


def apply(
    combat: Combat, command: Command, *, actor: Actor, dice: DiceSource, rules: Rules, now: float
) -> tuple[Combat, tuple[Event, ...]]:
    """Apply one command; a new Combat and what happened, or RuleError (nothing changed)."""
    if combat.phase is Phase.ENDED:
        raise RuleError("This combat is over.")
    ctx = _Ctx(actor=actor, dice=dice, rules=rules, now=now)
    handler = _HANDLERS[type(command)]
    new = handler(combat, command, ctx)
    new = _settle(new, ctx)
    return new, tuple(ctx.events)


# ---- small helpers ----------------------------------------------------------------------------


def _ok(f: Fighter, rules: Rules) -> bool:
    return status(f.character, rules=rules) is Status.FINE


def _put(c: Combat, f: Fighter) -> Combat:
    return c.model_copy(update={"fighters": tuple(f if g.key == f.key else g for g in c.fighters)})


def _change(c: Combat, key: str, **changes: Any) -> Combat:
    return _put(c, c.fighter(key).model_copy(update=changes))


def _controls(actor: Actor, f: Fighter) -> bool:
    return actor.gm or (f.owner_id is not None and f.owner_id == actor.user_id)


def _require_control(actor: Actor, f: Fighter) -> None:
    if not _controls(actor, f):
        who = "the GM" if f.owner_id is None else "their player"
        raise RuleError(f"Only {who} or a GM can give orders to {f.name}.")


def _require_gm(actor: Actor, what: str) -> None:
    if not actor.gm:
        raise RuleError(f"Only a GM can {what}.")


def _require_phase(c: Combat, *phases: Phase) -> None:
    if c.phase in phases:
        return
    reasons = {
        Phase.SETUP: "The fight has not begun yet.",
        Phase.INITIATIVE: "Initiative is being decided.",
        Phase.TURN: "No attack is waiting for that now.",
        Phase.REACTION: "Wait: an attack is waiting for reactions.",
        Phase.RESOLUTION: "Wait: an attack is being resolved.",
        Phase.ENDED: "This combat is over.",
    }
    raise RuleError(reasons[c.phase])


def _prompt_for(c: Combat, kind: PromptKind, key: str) -> Prompt:
    for p in c.prompts:
        if p.kind is kind and p.fighter == key:
            return p
    name = c.fighter(key).name
    raise RuleError(f"Nothing is waiting for {name} to {_PROMPT_VERBS[kind]} now.")


_PROMPT_VERBS = {
    PromptKind.ACT: "act",
    PromptKind.CHOOSE_ORDER: "choose the order of teams",
    PromptKind.REACT: "react",
    PromptKind.REROLL: "re-roll",
    PromptKind.CRITICAL: "use a critical success",
    PromptKind.CHOOSE_DICE: "choose the damage die",
    PromptKind.MODIFIER: "use a modifier",
    PromptKind.ARMOR: "decide about armor",
    PromptKind.STOP_AREA: "choose where the mover stops",
    PromptKind.AID_DICE: "choose the first aid dice",
    PromptKind.AID_BOXES: "choose which boxes first aid erases",
    PromptKind.AID_PERMANENT: "choose where the permanent wounds go",
}


def _has(c: Character, rules: Rules, modifier: str, action: str, item: str | None) -> bool:
    """Whether one of the character's abilities gives ``modifier`` to ``action`` with ``item``."""
    for ability_id in c.abilities:
        try:
            ability = rules.abilities.ability(ability_id)
        except RuleError:
            continue
        if ability.modifier == modifier and action in ability.actions and ability.item == item:
            return True
    return False


def _team_name(c: Combat, name: str) -> str | None:
    key = " ".join(name.split()).casefold()
    return next((t for t in c.teams if t.casefold() == key), None)


def _standing_teams(c: Combat, rules: Rules) -> tuple[str, ...]:
    return tuple(t for t in c.teams if any(f.team == t and _ok(f, rules) for f in c.fighters))


def _pc_team(c: Combat, among: tuple[str, ...]) -> str | None:
    return next(
        (t for t in among if any(f.team == t and not f.character.npc for f in c.fighters)), None
    )


def _side(f: Fighter) -> Side:
    return Side.NPC if f.character.npc else Side.PC


def _roll_text(r: Check) -> str:
    return f"{r.value} ({r.tens}·{r.ones}) vs {r.level} — {r.outcome}"


def _lose_action(f: Fighter) -> Fighter:
    if f.actions > 0:
        return f.model_copy(update={"actions": f.actions - 1})
    return f.model_copy(update={"lose_next": f.lose_next + 1})


def _settle_status(f: Fighter, rules: Rules) -> Fighter:
    """Unconscious, surrendered and dead fighters have no actions."""
    if f.actions and not _ok(f, rules):
        return f.model_copy(update={"actions": 0})
    return f


# ---- weapons ----------------------------------------------------------------------------------


def _held_shield(c: Character, rules: Rules) -> bool:
    hands = usable_hands(c, rules=rules)
    for hand in HANDS:
        index = c.held(hand)
        if (
            index is not None
            and hand in hands
            and rules.items.kind(c.items[index].kind).defender_chooses_dice
        ):
            return True
    return False


def _ammo_slot(c: Character, rules: Rules, *, less_lethal: bool) -> int | None:
    """The index of an intact ammo slot of that sort (less-lethal or not), if any."""
    for index, it in enumerate(c.items):
        if (
            not it.destroyed
            and it.less_lethal == less_lethal
            and rules.items.kind(it.kind).is_ammo
        ):
            return index
    return None


def _ammo_problem(f: Fighter, kind: ItemKind, lethal: bool, rules: Rules) -> str | None:
    """Why a ranged attack cannot be made for want of ammo: a lethal one needs a slot of ammo,
    a less-lethal one a less-lethal slot ("a separate ammo slot dedicated to that effect")."""
    if not kind.needs_ammo:
        return None
    c = f.character
    if _ammo_slot(c, rules, less_lethal=not lethal) is not None:
        return None
    if lethal:
        return f"{c.name} has no ammo left for a {kind.short} attack (one slot is needed)."
    return f"{c.name} has no less-lethal ammo for a less-lethal ranged attack."


def _weapons(f: Fighter, rules: Rules) -> tuple[Weapon, ...]:
    """Everything the fighter could attack with now, range aside: held items, then unarmed."""
    c = f.character
    usable = usable_hands(c, rules=rules)
    found: list[Weapon] = []
    seen: set[int] = set()
    for hand in HANDS:
        index = c.held(hand)
        if index is None or index in seen:
            continue
        seen.add(index)
        if _item_problem(c, index, rules, usable) is None:
            item = c.items[index]
            kind = rules.items.kind(item.kind)
            found.append(Weapon(name=item.name, kind=kind.id, mark=kind.wound_mark))
    if _unarmed_ok(c, rules, usable):
        found.append(Weapon(name=UNARMED, kind=UNARMED))
    return tuple(found)


def _unarmed_ok(c: Character, rules: Rules, usable: tuple[Hand, ...]) -> bool:
    if "unarmed.fight" not in c.abilities:
        return False
    empty_hand = any(c.held(h) is None for h in usable)
    legs = [loc for loc in rules.body.locations if loc.penalty.value == "leg"]
    legs_ok = all(len(c.marks(loc.id)) < loc.boxes for loc in legs)
    return empty_hand or legs_ok


def _item_problem(c: Character, index: int, rules: Rules, usable: tuple[Hand, ...]) -> str | None:
    item = c.items[index]
    kind = rules.items.kind(item.kind)
    if kind.attack is None:
        return f"{item.name} is not a weapon."
    if kind.attack == "aoe":
        return "AoE attacks are not supported yet; the GM can resolve them by hand."
    if kind.attack_requires and kind.attack_requires not in c.abilities:
        ability = rules.abilities.ability(kind.attack_requires)
        return f"{c.name} needs the ability {ability.title} to attack with {item.name}."
    hands = [h for h in HANDS if c.held(h) == index]
    if len(hands) < kind.hands:
        return f"{item.name} needs both hands."
    if any(h not in usable for h in hands):
        return f"{c.name} cannot use the hand holding {item.name}."
    for h in HANDS:
        other = c.held(h)
        if other is not None and other != index and c.items[other].kind in kind.not_held_with:
            return f"{c.name} cannot use {item.name} while holding {c.items[other].name}."
    return None


def _pick_weapon(f: Fighter, name: str | None, rules: Rules) -> Weapon | None:
    """The named weapon (RuleError if it cannot be used), or None when no name was given."""
    if name is None:
        return None
    c = f.character
    key = " ".join(name.split()).casefold()
    for w in _weapons(f, rules):
        if w.name.casefold() == key:
            return w
    if key == UNARMED:
        raise RuleError(f"{c.name} cannot fight unarmed (that needs the Unarmed Combat ability).")
    for index, item in enumerate(c.items):
        if item.name.casefold() == key and not item.destroyed:
            if index not in (c.right_hand, c.left_hand):
                raise RuleError(f"{item.name} is not in {c.name}'s hands.")
            problem = _item_problem(c, index, rules, usable_hands(c, rules=rules))
            raise RuleError(problem or f"{c.name} cannot attack with {item.name}.")
    raise RuleError(f"{c.name} has no item called {name.strip()!r}.")


def _in_range(w: Weapon, distance: int, rules: Rules) -> bool:
    if w.kind == UNARMED:
        return distance == 0
    return rules.items.kind(w.kind).in_range(distance)


def _reach_problem(c: Combat, f: Fighter, t: Fighter, w: Weapon, rules: Rules) -> str | None:
    m = c.game_map()
    distance = m.range(f.area, t.area)
    label = _weapon_label(w)
    if distance is None:
        return f"{t.name} is out of range: no path leads from {f.area} to {t.area}."
    if not _in_range(w, distance, rules):
        return f"{t.name} is out of range for {label}: range {distance} ({_range_text(w, rules)})."
    blocks = 2
    if w.kind == "ranged_2h" and "ranged_2h.long_sight" in f.character.abilities:
        blocks = 3
    if not m.line_of_sight(f.area, t.area, marks_to_block=blocks):
        return f"{f.name} has no line of sight from {f.area} to {t.area}."
    return None


def _range_text(w: Weapon, rules: Rules) -> str:
    if w.kind == UNARMED:
        return "reaches range 0"
    kind = rules.items.kind(w.kind)
    low, high = kind.min_range, kind.max_range
    if high is None:
        return f"reaches range {low} or more"
    return f"reaches range {low}" if low == high else f"reaches range {low}-{high}"


def _weapon_label(w: Weapon) -> str:
    return "bare hands" if w.kind == UNARMED else w.name


def _attack_problem(
    c: Combat, f: Fighter, t: Fighter, w: Weapon, rules: Rules, lethal: bool = True
) -> str | None:
    """Why ``f`` cannot attack ``t`` with ``w`` now: range, sight or ammo; None when it can."""
    problem = _reach_problem(c, f, t, w, rules)
    if problem is None and w.kind != UNARMED:
        problem = _ammo_problem(f, rules.items.kind(w.kind), lethal, rules)
    return problem


def _choose_weapon(
    c: Combat, f: Fighter, t: Fighter, name: str | None, rules: Rules, lethal: bool = True
) -> Weapon:
    picked = _pick_weapon(f, name, rules)
    if picked is not None:
        problem = _attack_problem(c, f, t, picked, rules, lethal)
        if problem:
            raise RuleError(problem)
        return picked
    options = _weapons(f, rules)
    if not options:
        raise RuleError(f"{f.name} has no weapon in hand to attack with.")
    problems = [_attack_problem(c, f, t, w, rules, lethal) for w in options]
    for w, problem in zip(options, problems, strict=True):
        if problem is None:
            return w
    raise RuleError(str(problems[0]))


def legal_weapons(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """Item names in hand usable to attack (plus ``unarmed`` with the Unarmed Combat ability)."""
    return tuple(w.name for w in _weapons(combat.fighter(fighter_key), rules))


def legal_targets(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """Names of the fighters this fighter could Attack now (range, sight, a weapon in hand);
    other teams first."""
    f = combat.fighter(fighter_key)
    weapons = _weapons(f, rules)
    found = [
        t
        for t in combat.fighters
        if t.key != f.key
        and status(t.character, rules=rules) not in (Status.DEAD, Status.SURRENDERED)
        and any(_attack_problem(combat, f, t, w, rules) is None for w in weapons)
    ]
    found.sort(key=lambda t: t.team == f.team)
    return tuple(t.name for t in found)


# ---- setup ------------------------------------------------------------------------------------


def _add_fighter(c: Combat, cmd: AddFighter, ctx: _Ctx) -> Combat:
    actor, rules = ctx.actor, ctx.rules
    ch = cmd.character
    if c.phase is not Phase.SETUP:
        _require_gm(actor, "add fighters once the fight has begun")
    elif not actor.gm and (ch.npc or cmd.owner_id != actor.user_id):
        raise RuleError("Players can add only their own PCs; a GM places everyone else.")
    problems = character_problems(ch, rules=rules)
    if problems:
        raise RuleError(" ".join(problems))
    key = " ".join(ch.name.split()).casefold()
    if any(f.key == key for f in c.fighters):
        raise RuleError(f"{ch.name} is already in this combat.")
    try:
        area = c.game_map().area(cmd.area)
    except UnknownAreaError:
        raise RuleError(
            f"There is no area called {cmd.area.strip()!r} on this map; "
            f"the areas are {', '.join(c.game_map().areas)}."
        ) from None
    team = " ".join((cmd.team or ("NPCs" if ch.npc else "PCs")).split())
    if not team or len(team) > TEAM_NAME_MAX:
        raise RuleError(f"A team name is 1-{TEAM_NAME_MAX} characters.")
    team = _team_name(c, team) or team
    f = Fighter(
        key=key,
        name=ch.name,
        team=team,
        area=area,
        owner_id=cmd.owner_id,
        character_id=cmd.character_id,
        character=ch,
    )
    teams = c.teams if team in c.teams else (*c.teams, team)
    ctx.emit("added", f"{ch.name} joins the fight for {team} in {area}.", key)
    return c.model_copy(update={"fighters": (*c.fighters, f), "teams": teams})


def _remove_fighter(c: Combat, cmd: RemoveFighter, ctx: _Ctx) -> Combat:
    f = c.fighter(cmd.fighter)
    if c.phase is Phase.SETUP:
        _require_control(ctx.actor, f)
    else:
        _require_gm(ctx.actor, "remove a fighter once the fight has begun")
        if c.pending is not None and f.key in _involved(c.pending):
            raise RuleError(f"{f.name} is part of the attack being resolved; remove them after it.")
        mv = c.moving
        if mv is not None and f.key in {mv.mover, *(r.fighter for r in mv.reactors)}:
            raise RuleError(f"{f.name} is part of the move being resolved; remove them after it.")
        if c.phase is Phase.INITIATIVE and any(r.state.fighter == f.key for r in c.initiative):
            raise RuleError(f"{f.name} is rolling initiative; remove them after it.")
    fighters = tuple(g for g in c.fighters if g.key != f.key)
    teams = tuple(t for t in c.teams if any(g.team == t for g in fighters))
    ctx.emit("removed", f"{f.name} leaves the fight.", f.key)
    return c.model_copy(update={"fighters": fighters, "teams": teams})


def _involved(a: AttackAction) -> set[str]:
    return {a.attacker, a.target, *(r.fighter for r in a.reactors)}


def _begin(c: Combat, cmd: Begin, ctx: _Ctx) -> Combat:
    _require_gm(ctx.actor, "begin the fight")
    _require_phase(c, Phase.SETUP)
    if len(_standing_teams(c, ctx.rules)) < 2:
        raise RuleError("A fight needs at least two teams with conscious fighters.")
    ctx.emit("begin", "The fight begins.")
    return _start_round(c, ctx)


def _end_combat(c: Combat, cmd: EndCombat, ctx: _Ctx) -> Combat:
    _require_gm(ctx.actor, "end the combat")
    return _end(c, ctx, "The GM ends the combat.")


def _end(c: Combat, ctx: _Ctx, why: str) -> Combat:
    rules = ctx.rules
    lines = [f"{why} Combat over after round {c.round}."]
    for f in c.fighters:
        ch = f.character
        wounds = ", ".join(
            f"{rules.body.location(loc).name.lower()} {marks}" for loc, marks in ch.wounds.items()
        )
        lines.append(
            f"{f.name} ({f.team}): level {ch.level}/{ch.max_level}, "
            f"{status(ch, rules=rules).value}, wounds: {wounds or 'none'}."
        )
    ctx.emit("ended", "\n".join(lines))
    fighters = tuple(f.model_copy(update={"actions": 0}) for f in c.fighters)
    return c.model_copy(
        update={
            "phase": Phase.ENDED,
            "pending": None,
            "moving": None,
            "aid": None,
            "turn": None,
            "fighters": fighters,
        }
    )


# ---- rounds and initiative --------------------------------------------------------------------


def _start_round(c: Combat, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    fighters: list[Fighter] = []
    for f in c.fighters:
        base = 1 if _ok(f, rules) else 0
        lost = min(base, f.lose_next)
        fighters.append(
            f.model_copy(
                update={
                    "actions": base - lost,
                    "lose_next": f.lose_next - lost,
                    "spent": 0,
                    "reactions": 0,
                }
            )
        )
        if lost:
            ctx.emit("lost_action", f"{f.name} loses this round's action.", f.key)
    rnd = c.round + 1
    c = c.model_copy(
        update={
            "fighters": tuple(fighters),
            "round": rnd,
            "phase": Phase.INITIATIVE,
            "order": (),
            "turn": None,
            "initiative": (),
            "initiative_done": False,
        }
    )
    ctx.emit("round", f"Round {rnd} begins.")
    standing = _standing_teams(c, rules)
    first = c.initiative_winner if c.initiative_winner in standing else _pc_team(c, standing)
    teams = sorted(standing, key=lambda t: t != first)
    rolls: list[InitiativeRoll] = []
    for team in teams:
        members = [f for f in c.fighters if f.team == team and _ok(f, rules)]
        top = max(f.character.level for f in members)
        roller = next(f for f in members if f.character.level == top)
        ch = roller.character
        r = Roll.first(ch.level, ctx.dice, max_level=ch.max_level)
        good = _has(ch, rules, "good", "initiative", None)
        rolls.append(
            InitiativeRoll(
                team=team,
                state=RollState(fighter=roller.key, purpose="initiative", roll=r, good=good),
            )
        )
        res = r.result
        ctx.emit(
            "initiative",
            f"{ch.name} rolls initiative for {team}: {_roll_text(res)}.",
            roller.key,
            (res.tens, res.ones),
        )
    c = c.model_copy(update={"initiative": tuple(rolls)})
    return _initiative_advance(c, ctx)


def _initiative_advance(c: Combat, ctx: _Ctx) -> Combat:
    if any(_wants_reroll(r.state) for r in c.initiative):
        return c
    rolls = c.initiative
    # Criticals on initiative: automatic (+1 action, or the next action lost).
    for r in rolls:
        res = r.state.roll.result
        f = c.fighter(r.state.fighter)
        if res.critical_success:
            c = _put(c, f.model_copy(update={"actions": f.actions + 1}))
            ctx.emit("extra_action", f"{f.name} gains an extra action this round.", f.key)
        elif res.critical_failure:
            c = _put(c, _lose_action(f))
            ctx.emit("lost_action", f"{f.name} loses the next action.", f.key)
    succeeded = [r for r in rolls if r.state.roll.result.success]
    if succeeded:
        best = max(r.state.roll.result.value for r in succeeded)
        tied = tuple(r.team for r in succeeded if r.state.roll.result.value == best)
    else:
        tied = tuple(r.team for r in rolls)
    if len(tied) == 1:
        winner = tied[0]
        why = ""
    else:
        previous = c.initiative_winner
        winner = previous if previous in tied else (_pc_team(c, tied) or tied[0])
        why = " on a tie" + (
            " (they had it last round)" if previous in tied else " (the PCs win the first tie)"
        )
    ctx.emit("initiative_won", f"{winner} win initiative{why} and choose which team goes first.")
    return c.model_copy(update={"initiative_winner": winner, "initiative_done": True})


def _wants_reroll(s: RollState) -> bool:
    return s.good and not s.reroll_decided and s.roll.can_reroll


def _choose_order(c: Combat, cmd: ChooseOrder, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.INITIATIVE)
    if not c.initiative_done:
        raise RuleError("Initiative rolls are not final yet.")
    winner = c.initiative_winner
    roller = next(r for r in c.initiative if r.team == winner)
    f = c.fighter(roller.state.fighter)
    if not (
        ctx.actor.gm
        or any(g.team == winner and g.owner_id == ctx.actor.user_id for g in c.fighters)
    ):
        raise RuleError(f"{winner} won initiative: only they (or a GM) choose the order.")
    first = _team_name(c, cmd.first_team)
    rolled = [r.team for r in c.initiative]
    if first is None or first not in rolled:
        raise RuleError(f"Choose the team to go first among: {', '.join(rolled)}.")

    def rank(r: InitiativeRoll) -> tuple[bool, int]:
        res = r.state.roll.result
        return (res.success, res.value if res.success else -res.value)

    rest = [r.team for r in sorted(c.initiative, key=rank, reverse=True) if r.team != first]
    order = (first, *rest)
    ctx.emit("order", f"{f.team} choose the order: {', then '.join(order)}.", f.key)
    c = c.model_copy(update={"order": order, "turn": 0, "phase": Phase.TURN})
    return _announce_turn(c, ctx)


def _announce_turn(c: Combat, ctx: _Ctx) -> Combat:
    team = c.acting_team
    if team is not None and _team_can_act(c, team, ctx.rules):
        ctx.emit("turn", f"Turn: {team}.")
    return c


def _team_can_act(c: Combat, team: str, rules: Rules) -> bool:
    return any(f.team == team and f.actions > 0 and _ok(f, rules) for f in c.fighters)


def _next_turn(c: Combat, ctx: _Ctx) -> Combat:
    turn = (c.turn if c.turn is not None else -1) + 1
    if turn < len(c.order):
        return _announce_turn(c.model_copy(update={"turn": turn}), ctx)
    ctx.emit("round_end", f"Round {c.round} ends.")
    return _start_round(c, ctx)


def _done(c: Combat, cmd: Done, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.TURN)
    acting = c.acting_team
    if cmd.team is not None:
        team = _team_name(c, cmd.team)
        if team != acting:
            raise RuleError(f"It is not {cmd.team.strip()}'s turn; {acting} are acting.")
    if not (
        ctx.actor.gm
        or any(f.team == acting and f.owner_id == ctx.actor.user_id for f in c.fighters)
    ):
        raise RuleError(f"It is {acting}'s turn; only they (or a GM) can end it.")
    ctx.emit("turn_end", f"{acting} are done.")
    return _next_turn(c, ctx)


# ---- attack -----------------------------------------------------------------------------------


def _attack(c: Combat, cmd: Attack, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    f = _acting_fighter(c, cmd.fighter, ctx)
    t = c.fighter(cmd.target)
    if t.key == f.key:
        raise RuleError(f"{f.name} cannot attack themselves.")
    tst = status(t.character, rules=rules)
    if tst in (Status.DEAD, Status.SURRENDERED):
        raise RuleError(f"{t.name} is {tst.value}; they are out of the fight.")
    weapon = _choose_weapon(c, f, t, cmd.weapon, rules, cmd.lethal)
    seq = c.action_seq + 1
    c = _put(c, f.model_copy(update={"actions": f.actions - 1, "spent": f.spent + 1}))
    reactors = _reactors(c, c.fighter(f.key), t, weapon, seq, rules)
    action = AttackAction(
        seq=seq,
        attacker=f.key,
        target=t.key,
        weapon=weapon,
        lethal=cmd.lethal,
        reactors=reactors,
        deadline=ctx.now + c.reaction_seconds if reactors else None,
    )
    less = "" if cmd.lethal else " (less-lethal)"
    ctx.emit("declare", f"{f.name} attacks {t.name} with {_weapon_label(weapon)}{less}.", f.key)
    c = c.model_copy(update={"action_seq": seq, "pending": action})
    if reactors:
        for r in reactors:
            name = c.fighter(r.fighter).name
            ctx.emit(
                "window",
                f"{name} may {' or '.join((*r.options, 'pass'))} "
                f"(within {c.reaction_seconds} seconds).",
                r.fighter,
            )
        return c.model_copy(update={"phase": Phase.REACTION})
    return _roll_attack(c, ctx)


def _reactors(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, seq: int, rules: Rules
) -> tuple[Reactor, ...]:
    if not _ok(t, rules) or t.actions <= 0 or t.reacted_to == seq:
        return ()
    options = ["defend"]
    counter = _counter_weapon(c, f, t, weapon, rules)
    if counter is not None:
        options.append("counterattack")
    return (Reactor(fighter=t.key, options=tuple(options), weapon=counter),)


def _counter_weapons(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules
) -> list[Weapon]:
    """What ``t`` could counterattack ``f``'s attack with: same area, weapon effective at 0."""
    if c.game_map().range(f.area, t.area) != 0:
        return []
    if f"{weapon.kind}.no_counterattack" in f.character.abilities:
        return []
    return [
        w
        for w in _weapons(t, rules)
        if _in_range(w, 0, rules)
        and (w.kind == UNARMED or _ammo_problem(t, rules.items.kind(w.kind), True, rules) is None)
    ]


def _counter_weapon(
    c: Combat, f: Fighter, t: Fighter, weapon: Weapon, rules: Rules
) -> Weapon | None:
    options = _counter_weapons(c, f, t, weapon, rules)
    return options[0] if options else None


def _spend_reaction(c: Combat, f: Fighter, seq: int) -> Combat:
    """``f`` uses an action to react to action ``seq`` (at most once per action)."""
    return _put(
        c,
        f.model_copy(
            update={
                "actions": f.actions - 1,
                "spent": f.spent + 1,
                "reactions": f.reactions + 1,
                "reacted_to": seq,
            }
        ),
    )


def _react(c: Combat, cmd: React, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.REACTION)
    if c.pending is None and c.moving is not None:
        return _react_move(c, cmd, ctx)
    a = c.pending
    assert a is not None
    f = c.fighter(cmd.fighter)
    reactor = next((r for r in a.reactors if r.fighter == f.key), None)
    if reactor is None:
        raise RuleError(f"{f.name} cannot react to this attack.")
    _require_control(ctx.actor, f)
    if reactor.answer is not None:
        raise RuleError(f"{f.name} has already answered ({reactor.answer}).")
    if cmd.reaction == "intercept":
        raise RuleError(f"{f.name} cannot intercept an attack: Intercept reacts to a Move.")
    if cmd.reaction != "pass" and cmd.reaction not in reactor.options:
        raise RuleError(
            f"{f.name} cannot {cmd.reaction} here; the choices are "
            f"{', '.join((*reactor.options, 'pass'))}."
        )
    weapon = reactor.weapon
    if cmd.reaction == "counterattack" and cmd.weapon is not None:
        attacker = c.fighter(a.attacker)
        weapon = _pick_weapon(f, cmd.weapon, ctx.rules)
        if weapon not in _counter_weapons(c, attacker, f, a.weapon, ctx.rules):
            raise RuleError(f"{f.name} cannot counterattack with {cmd.weapon.strip()} here.")
    if cmd.reaction == "pass":
        ctx.emit("react", f"{f.name} does not react.", f.key)
    else:
        if f.actions <= 0:
            raise RuleError(f"{f.name} has no action left this round.")
        c = _spend_reaction(c, f, a.seq)
        verb = "defends" if cmd.reaction == "defend" else "counterattacks"
        with_ = (
            "" if cmd.reaction == "defend" or weapon is None else f" with {_weapon_label(weapon)}"
        )
        ctx.emit("react", f"{f.name} {verb}{with_}.", f.key)
    reactors = tuple(
        r.model_copy(update={"answer": cmd.reaction, "weapon": weapon}) if r.fighter == f.key else r
        for r in a.reactors
    )
    c = c.model_copy(update={"pending": a.model_copy(update={"reactors": reactors})})
    if all(r.answer is not None for r in reactors):
        return _roll_attack(c, ctx)
    return c


def _close_window(c: Combat, cmd: CloseWindow, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.REACTION)
    if c.pending is None and c.moving is not None:
        return _close_move_window(c, cmd, ctx)
    a = c.pending
    assert a is not None
    reactors = _closed_window(a.reactors, a.deadline, cmd, ctx)
    c = c.model_copy(update={"pending": a.model_copy(update={"reactors": reactors})})
    return _roll_attack(c, ctx)


def _closed_window(
    reactors: tuple[Reactor, ...], deadline: float | None, cmd: CloseWindow, ctx: _Ctx
) -> tuple[Reactor, ...]:
    """The reactors once the window closes (on time, or early by a GM): the silent pass."""
    if cmd.by_timeout:
        if deadline is not None and ctx.now < deadline:
            left = deadline - ctx.now
            raise RuleError(f"The reaction window is still open for {left:.0f} more seconds.")
    else:
        _require_gm(ctx.actor, "close the reaction window early")
    why = "time is up" if cmd.by_timeout else "the GM resolves it now"
    ctx.emit("window_closed", f"The reaction window closes: {why}.")
    return tuple(
        r if r.answer is not None else r.model_copy(update={"answer": "pass"}) for r in reactors
    )


def _roll_attack(c: Combat, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    a = c.pending
    assert a is not None
    f = c.fighter(a.attacker)
    t = c.fighter(a.target)
    reaction: Literal["defend", "counterattack"] | None = None
    reactor: Reactor | None = None
    for r in a.reactors:
        if r.answer in ("defend", "counterattack"):
            reaction = cast(Literal["defend", "counterattack"], r.answer)
            reactor = r
            break
    ch = f.character
    roll = Roll.first(ch.level, ctx.dice, max_level=ch.max_level)
    rolls = [
        RollState(
            fighter=f.key,
            purpose="attack",
            roll=roll,
            good=_has(ch, rules, "good", "intercept" if a.intercept else "attack", a.weapon.kind),
        )
    ]
    res = roll.result
    ctx.emit(
        "roll",
        f"{f.name} attacks {t.name} with {_weapon_label(a.weapon)}: {_roll_text(res)}.",
        f.key,
        (res.tens, res.ones),
    )
    if reaction is not None and reactor is not None:
        r_f = c.fighter(reactor.fighter)
        rch = r_f.character
        r_roll = Roll.first(rch.level, ctx.dice, max_level=rch.max_level)
        if reaction == "defend":
            good = _held_shield(rch, rules) and _has(rch, rules, "good", "defend", "shield")
            text = f"{r_f.name} defends: {_roll_text(r_roll.result)}."
        else:
            kind = reactor.weapon.kind if reactor.weapon else UNARMED
            good = _has(rch, rules, "good", "counterattack", kind)
            label = _weapon_label(reactor.weapon) if reactor.weapon else "bare hands"
            text = f"{r_f.name} counterattacks {f.name} with {label}: {_roll_text(r_roll.result)}."
        rolls.append(RollState(fighter=r_f.key, purpose=reaction, roll=r_roll, good=good))
        ctx.emit("roll", text, r_f.key, (r_roll.result.tens, r_roll.result.ones))
    a = a.model_copy(
        update={
            "rolled": True,
            "reaction": reaction,
            "reactor": reactor.fighter if reactor else None,
            "rolls": tuple(rolls),
            "deadline": None,
        }
    )
    c = c.model_copy(update={"pending": a, "phase": Phase.RESOLUTION})
    return _advance_attack(c, ctx)


def _set_pending(c: Combat, a: AttackAction) -> Combat:
    return c.model_copy(update={"pending": a})


def _advance_attack(c: Combat, ctx: _Ctx) -> Combat:
    """Take every automatic step until a decision is needed or the attack is over."""
    rules = ctx.rules
    while True:
        a = c.pending
        assert a is not None
        if any(_wants_reroll(s) for s in a.rolls):
            return c
        if any(s.roll.awaits_critical_choice for s in a.rolls):
            return c
        if not a.outcome_done:
            c = _outcome(c, ctx)
            continue
        index = next((i for i, h in enumerate(a.hits) if not h.done), None)
        if index is None:
            return _attack_finished(c, ctx)
        hit = a.hits[index]
        if hit.damage_die is None:
            if hit.tens != hit.ones:
                return c
            hit = hit.model_copy(update={"damage_die": hit.tens, "location_die": hit.ones})
            ctx.emit("dice", f"Both dice show {hit.tens}: damage {hit.tens}, location {hit.ones}.")
        elif hit.modifier_offers is None:
            offers = _modifier_offers(c, hit, rules)
            hit = hit.model_copy(update={"modifier_offers": offers, "modifier_decided": not offers})
        elif not hit.modifier_decided:
            return c
        elif hit.armor_offered is None:
            offered = bool(hit.damage_die) and _armor_available(
                c.fighter(hit.target).character, int(hit.location_die or 0), rules
            )
            hit = hit.model_copy(
                update={"armor_offered": offered, "use_armor": None if offered else False}
            )
        elif hit.use_armor is None:
            return c
        else:
            c = _apply_hit(c, hit, ctx)
            hit = hit.model_copy(update={"done": True})
            a = c.pending
            assert a is not None
        hits = tuple(hit if i == index else h for i, h in enumerate(a.hits))
        c = _set_pending(c, a.model_copy(update={"hits": hits}))


def _outcome(c: Combat, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    a = c.pending
    assert a is not None
    f = c.fighter(a.attacker)
    t = c.fighter(a.target)
    att = a.rolls[0].roll.result
    hits: list[Hit] = []
    for s in a.rolls:
        if s.roll.result.critical_failure:
            c = _put(c, _lose_action(c.fighter(s.fighter)))
            name = c.fighter(s.fighter).name
            ctx.emit(
                "lost_action",
                f"{name} rolled a critical failure and loses the next action.",
                s.fighter,
            )
            c = _spend_ammo_on_fumble(c, a, s, ctx)
    m = c.game_map()
    lethal = a.lethal
    intercept = a.intercept

    def hit_on(
        attacker: Fighter,
        target: Fighter,
        roll: Check,
        weapon: Weapon,
        purpose: Literal["attack", "counterattack"],
    ) -> Hit:
        cover = not intercept and m.has_cover(attacker.area, target.area)  # RULINGS 10
        shield = _held_shield(target.character, rules)
        chooser = target if cover or shield else attacker
        if chooser is target:
            why = "has cover" if cover else "holds a shield"
            ctx.emit(
                "hit",
                f"{attacker.name} hits {target.name}; {target.name} {why} and "
                f"chooses which die is damage.",
                attacker.key,
                (roll.tens, roll.ones),
            )
        else:
            ctx.emit(
                "hit",
                f"{attacker.name} hits {target.name} and chooses which die is damage.",
                attacker.key,
                (roll.tens, roll.ones),
            )
        return Hit(
            attacker=attacker.key,
            target=target.key,
            weapon=weapon,
            purpose=purpose,
            lethal=lethal if purpose == "attack" else True,
            tens=roll.tens,
            ones=roll.ones,
            chooser=chooser.key,
        )

    if a.reaction == "defend":
        d = a.rolls[1].roll.result
        r = c.fighter(a.rolls[1].fighter)
        winner = opposed(att, d, a_side=_side(f), b_side=_side(r))
        if not att.success:
            ctx.emit("miss", f"{f.name}'s attack misses.", f.key)
        elif winner == 1:
            ctx.emit(
                "defended",
                f"{r.name}'s Defend ({d.value}) beats {att.value}: the attack misses.",
                r.key,
            )
        else:
            if d.success:
                word = "beats" if winner == 0 else "only ties"
                ctx.emit(
                    "defend_failed",
                    f"{att.value} {word} {r.name}'s Defend ({d.value}): the attack is not stopped.",
                    r.key,
                )
            else:
                ctx.emit("defend_failed", f"{r.name}'s Defend fails.", r.key)
            hits.append(hit_on(f, t, att, a.weapon, "attack"))
    else:
        if att.success:
            hits.append(hit_on(f, t, att, a.weapon, "attack"))
        else:
            ctx.emit("miss", f"{f.name}'s attack misses.", f.key)
        if a.reaction == "counterattack":
            cr = a.rolls[1].roll.result
            r = c.fighter(a.rolls[1].fighter)
            reactor = next(x for x in a.reactors if x.fighter == r.key)
            weapon = reactor.weapon or Weapon(name=UNARMED, kind=UNARMED)
            if cr.success:
                hits.append(hit_on(r, f, cr, weapon, "counterattack"))
            else:
                ctx.emit("miss", f"{r.name}'s counterattack misses.", r.key)
    a = a.model_copy(update={"outcome_done": True, "hits": tuple(hits)})
    return _set_pending(c, a)


def _spend_ammo_on_fumble(c: Combat, a: AttackAction, s: RollState, ctx: _Ctx) -> Combat:
    """A critical failure on a ranged attack also destroys one slot of ammo (of the sort used)."""
    rules = ctx.rules
    weapon: Weapon | None
    if s.purpose == "attack":
        weapon, lethal = a.weapon, a.lethal
    elif s.purpose == "counterattack":
        reactor = next((r for r in a.reactors if r.fighter == s.fighter), None)
        weapon, lethal = (reactor.weapon if reactor else None), True
    else:
        return c
    if weapon is None or weapon.kind == UNARMED or not rules.items.kind(weapon.kind).needs_ammo:
        return c
    f = c.fighter(s.fighter)
    index = _ammo_slot(f.character, rules, less_lethal=not lethal)
    if index is None:
        index = _ammo_slot(f.character, rules, less_lethal=lethal)
    if index is None:
        return c
    ch, report = destroy_item(f.character, index, rules=rules)
    ctx.emit("ammo", f"{report.summary[:-1]} (a ranged critical failure).", f.key)
    return _put(c, f.model_copy(update={"character": ch}))


def _modifier_offers(c: Combat, hit: Hit, rules: Rules) -> tuple[str, ...]:
    a = c.pending
    assert a is not None
    state = next(s for s in a.rolls if s.fighter == hit.attacker and s.purpose == hit.purpose)
    if state.roll.modifier is not None:
        return ()
    ch = c.fighter(hit.attacker).character
    action = "intercept" if a.intercept and hit.purpose == "attack" else hit.purpose
    offers: list[str] = []
    loc = int(hit.location_die or 0)
    dmg = int(hit.damage_die or 0)
    if _has(ch, rules, "precise", action, hit.weapon.kind):
        if loc < 9:
            offers.append("precise+1")
        if loc > 0:
            offers.append("precise-1")
    if _has(ch, rules, "powerful", action, hit.weapon.kind) and dmg < 9:
        offers.append("powerful")
    return tuple(offers)


def _armor_available(ch: Character, location_die: int, rules: Rules) -> bool:
    loc = rules.body.for_die(location_die)
    eligible = {loc.id}
    if len(ch.marks(loc.id)) >= loc.boxes:
        eligible.add(rules.body.overflow)
    return any(
        rules.items.kind(it.kind).per_location and not it.destroyed and it.location in eligible
        for it in ch.items
    )


def _apply_hit(c: Combat, hit: Hit, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    t = c.fighter(hit.target)
    damage = int(hit.damage_die or 0)
    location = int(hit.location_die or 0)
    mark = Mark(hit.weapon.mark)
    new, report = take_damage(
        t.character,
        damage,
        location,
        rules=rules,
        mark=mark,
        less_lethal=not hit.lethal,
        use_armor=bool(hit.use_armor),
    )
    ctx.emit("damage", report.summary, t.key, (damage, location))
    fallen = tuple(Dropped(index=i, area=t.area) for i in report.dropped)
    t = t.model_copy(update={"character": new, "dropped": (*t.dropped, *fallen)})
    return _put(c, _settle_status(t, rules))


def _current_hit(c: Combat) -> tuple[int, Hit]:
    a = c.pending
    assert a is not None
    for i, h in enumerate(a.hits):
        if not h.done:
            return i, h
    raise RuleError("No hit is being resolved now.")


def _replace_hit(c: Combat, index: int, hit: Hit) -> Combat:
    a = c.pending
    assert a is not None
    hits = tuple(hit if i == index else h for i, h in enumerate(a.hits))
    return _set_pending(c, a.model_copy(update={"hits": hits}))


# ---- choices during resolution ----------------------------------------------------------------


def _roll_states(c: Combat) -> list[RollState]:
    if c.phase is Phase.INITIATIVE:
        return [r.state for r in c.initiative]
    if c.aid is not None:
        return [c.aid.roll]
    if c.pending is not None:
        return list(c.pending.rolls)
    return []


def _replace_state(c: Combat, new: RollState) -> Combat:
    if c.phase is Phase.INITIATIVE:
        rolls = tuple(
            r.model_copy(update={"state": new}) if r.state.fighter == new.fighter else r
            for r in c.initiative
        )
        return c.model_copy(update={"initiative": rolls})
    if c.aid is not None:
        return c.model_copy(update={"aid": c.aid.model_copy(update={"roll": new})})
    a = c.pending
    assert a is not None
    states = tuple(
        new if (s.fighter, s.purpose) == (new.fighter, new.purpose) else s for s in a.rolls
    )
    return _set_pending(c, a.model_copy(update={"rolls": states}))


def _continue(c: Combat, ctx: _Ctx) -> Combat:
    if c.phase is Phase.INITIATIVE:
        return _initiative_advance(c, ctx)
    if c.aid is not None:
        return _advance_aid(c, ctx)
    return _advance_attack(c, ctx)


def _reroll(c: Combat, cmd: Reroll, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.INITIATIVE, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    prompt = _prompt_for(c, PromptKind.REROLL, f.key)
    _require_control(ctx.actor, f)
    if cmd.which not in prompt.options:
        raise RuleError(f"Choose one of: {', '.join(prompt.options)}.")
    state = next(s for s in _roll_states(c) if s.fighter == f.key and _wants_reroll(s))
    if cmd.which == "keep":
        ctx.emit("reroll", f"{f.name} keeps the roll.", f.key)
        new = state.model_copy(update={"reroll_decided": True})
    else:
        roll = state.roll.reroll(DiceReroll(cmd.which), ctx.dice)
        res = roll.result
        ctx.emit(
            "reroll",
            f"{f.name} re-rolls {cmd.which}: {_roll_text(res)}.",
            f.key,
            (res.tens, res.ones),
        )
        new = state.model_copy(update={"roll": roll, "reroll_decided": True})
    return _continue(_replace_state(c, new), ctx)


def _critical(c: Combat, cmd: CriticalChoice, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    _prompt_for(c, PromptKind.CRITICAL, f.key)
    _require_control(ctx.actor, f)
    state = next(s for s in _roll_states(c) if s.fighter == f.key and s.roll.awaits_critical_choice)
    if cmd.choice == "extra_action":
        roll = state.roll.take_extra_action()
        c = _put(c, f.model_copy(update={"actions": f.actions + 1}))
        ctx.emit("extra_action", f"{f.name} takes an extra action this round.", f.key)
    else:
        if cmd.value is None:
            limit = state.roll.adjust_limit
            raise RuleError(f"Say which value to adjust the roll to (1-{limit}).")
        roll = state.roll.adjust(cmd.value)
        res = roll.result
        ctx.emit(
            "adjust", f"{f.name} adjusts the roll to {res.value}.", f.key, (res.tens, res.ones)
        )
    return _continue(_replace_state(c, state.model_copy(update={"roll": roll})), ctx)


def _choose_dice(c: Combat, cmd: ChooseDice, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    _prompt_for(c, PromptKind.CHOOSE_DICE, f.key)
    _require_control(ctx.actor, f)
    index, hit = _current_hit(c)
    damage, location = (hit.tens, hit.ones) if cmd.damage == "tens" else (hit.ones, hit.tens)
    ctx.emit(
        "dice",
        f"{f.name} chooses {damage} for damage and {location} for location "
        f"({ctx.rules.body.for_die(location).name.lower()}).",
        f.key,
        (damage, location),
    )
    c = _replace_hit(
        c, index, hit.model_copy(update={"damage_die": damage, "location_die": location})
    )
    return _advance_attack(c, ctx)


def _modifier(c: Combat, cmd: Modifier, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    prompt = _prompt_for(c, PromptKind.MODIFIER, f.key)
    _require_control(ctx.actor, f)
    if cmd.use not in prompt.options:
        raise RuleError(f"Choose one of: {', '.join(prompt.options)}.")
    index, hit = _current_hit(c)
    damage, location = int(hit.damage_die or 0), int(hit.location_die or 0)
    if cmd.use == "none":
        ctx.emit("modifier", f"{f.name} uses no modifier.", f.key)
    else:
        a = c.pending
        assert a is not None
        state = next(s for s in a.rolls if s.fighter == f.key and s.purpose == hit.purpose)
        if cmd.use == "powerful":
            damage = powerful(damage)
            c = _replace_state(
                c, state.model_copy(update={"roll": state.roll.use_modifier(DiceModifier.POWERFUL)})
            )
            ctx.emit(
                "modifier", f"{f.name} is powerful: damage {damage}.", f.key, (damage, location)
            )
        else:
            location = precise(location, 1 if cmd.use == "precise+1" else -1)
            c = _replace_state(
                c, state.model_copy(update={"roll": state.roll.use_modifier(DiceModifier.PRECISE)})
            )
            where = ctx.rules.body.for_die(location).name.lower()
            ctx.emit(
                "modifier",
                f"{f.name} is precise: location {location} ({where}).",
                f.key,
                (damage, location),
            )
    new = hit.model_copy(
        update={"damage_die": damage, "location_die": location, "modifier_decided": True}
    )
    return _advance_attack(_replace_hit(c, index, new), ctx)


def _armor(c: Combat, cmd: Armor, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    _prompt_for(c, PromptKind.ARMOR, f.key)
    _require_control(ctx.actor, f)
    index, hit = _current_hit(c)
    return _advance_attack(
        _replace_hit(c, index, hit.model_copy(update={"use_armor": cmd.use})), ctx
    )


# ---- move and intercept -----------------------------------------------------------------------


def _move_problem(c: Combat, f: Fighter, to: str, rules: Rules) -> str | None:
    """Why ``f`` cannot Move to ``to`` (a canonical area) now, or None."""
    ch = f.character
    m = c.game_map()
    if to == f.area:
        return f"{f.name} is already in {to}."
    if not m.can_move(f.area, to):
        conn = m.connection(f.area, to)
        if conn is not None and conn.kind is Kind.DOOR:
            return f"The door between {f.area} and {to} is closed: open it first (an action)."
        if conn is not None and conn.kind is Kind.ARROW:
            return f"The way between {f.area} and {to} goes one way only: from {conn.a}."
        if conn is not None and conn.kind is Kind.SIGHT:
            return f"{f.area} and {to} are joined by sight only; nobody can move between them."
        steps = ", ".join(m.moves_from(f.area)) or "nowhere"
        return f"{to} is not one step from {f.area}; from there {f.name} can move to: {steps}."
    if not can_move(ch, rules=rules):
        legs = [loc for loc in rules.body.locations if loc.penalty.value == "leg"]
        full = [loc for loc in legs if len(ch.marks(loc.id)) >= loc.boxes]
        if len(full) == len(legs):
            return f"Both of {f.name}'s legs are full: they cannot move."
        return (
            f"{f.name}'s {full[0].name.lower()} is full: moving needs both hands usable and empty."
        )
    return None


def legal_moves(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """The areas this fighter could Move to now (one step, arrows and doors respected)."""
    f = combat.fighter(fighter_key)
    return tuple(
        a
        for a in combat.game_map().moves_from(f.area)
        if _move_problem(combat, f, a, rules) is None
    )


def _intercept_weapon(c: Combat, g: Fighter, frm: str, to: str, rules: Rules) -> Weapon | None:
    """The first weapon ``g`` could Intercept a move between ``frm`` and ``to`` with
    (RULINGS 11: the smaller range, sight to either area)."""
    m = c.game_map()
    distance = m.intercept_range(g.area, frm, to)
    if distance is None or not m.intercept_sight(g.area, frm, to):
        return None
    for w in _weapons(g, rules):
        if not _in_range(w, distance, rules):
            continue
        if w.kind != UNARMED and _ammo_problem(g, rules.items.kind(w.kind), True, rules):
            continue
        return w
    return None


def _move(c: Combat, cmd: Move, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    f = _acting_fighter(c, cmd.fighter, ctx)
    try:
        to = c.game_map().area(cmd.to)
    except UnknownAreaError:
        raise RuleError(f"There is no area called {cmd.to.strip()!r} on this map.") from None
    problem = _move_problem(c, f, to, rules)
    if problem:
        raise RuleError(problem)
    seq = c.action_seq + 1
    c = _put(c, f.model_copy(update={"actions": f.actions - 1, "spent": f.spent + 1}))
    ctx.emit("declare", f"{f.name} moves from {f.area} to {to}.", f.key)
    reactors = tuple(
        Reactor(fighter=g.key, options=("intercept",), weapon=w)
        for g in c.fighters
        if g.team != f.team
        and _ok(g, rules)
        and g.actions > 0
        and g.reacted_to != seq
        and (w := _intercept_weapon(c, g, f.area, to, rules)) is not None
    )
    mv = MoveAction(
        seq=seq,
        mover=f.key,
        frm=f.area,
        to=to,
        reactors=reactors,
        deadline=ctx.now + c.reaction_seconds if reactors else None,
    )
    c = c.model_copy(update={"action_seq": seq, "moving": mv})
    if not reactors:
        return _finish_move(c, to, ctx)
    for r in reactors:
        ctx.emit(
            "window",
            f"{c.fighter(r.fighter).name} may intercept or pass "
            f"(within {c.reaction_seconds} seconds).",
            r.fighter,
        )
    return c.model_copy(update={"phase": Phase.REACTION})


def _acting_fighter(c: Combat, name: str, ctx: _Ctx) -> Fighter:
    """The fighter who takes an action now: their turn, their player, conscious, an action."""
    _require_phase(c, Phase.TURN)
    f = c.fighter(name)
    _require_control(ctx.actor, f)
    if f.team != c.acting_team:
        raise RuleError(f"It is not {f.name}'s turn: {c.acting_team} are acting.")
    st = status(f.character, rules=ctx.rules)
    if st is not Status.FINE:
        raise RuleError(f"{f.name} is {st.value} and cannot act.")
    if f.actions <= 0:
        raise RuleError(f"{f.name} has no action left this round.")
    return f


def _react_move(c: Combat, cmd: React, ctx: _Ctx) -> Combat:
    mv = c.moving
    assert mv is not None
    f = c.fighter(cmd.fighter)
    mover = c.fighter(mv.mover)
    reactor = next((r for r in mv.reactors if r.fighter == f.key), None)
    if reactor is None:
        raise RuleError(f"{f.name} cannot intercept {mover.name}'s move.")
    _require_control(ctx.actor, f)
    if reactor.answer is not None:
        raise RuleError(f"{f.name} has already answered ({reactor.answer}).")
    if cmd.reaction not in ("intercept", "pass"):
        raise RuleError(f"{mover.name} is moving: {f.name} may intercept or pass.")
    weapon = reactor.weapon
    if cmd.reaction == "intercept":
        if cmd.weapon is not None:
            weapon = _pick_weapon(f, cmd.weapon, ctx.rules)
            assert weapon is not None
            distance = c.game_map().intercept_range(f.area, mv.frm, mv.to)
            if distance is None or not _in_range(weapon, distance, ctx.rules):
                raise RuleError(
                    f"{f.name} cannot intercept with {_weapon_label(weapon)}: "
                    f"out of its range ({_range_text(weapon, ctx.rules)})."
                )
        if f.actions <= 0:
            raise RuleError(f"{f.name} has no action left this round.")
        c = _spend_reaction(c, f, mv.seq)
        label = "bare hands" if weapon is None else _weapon_label(weapon)
        ctx.emit("react", f"{f.name} intercepts with {label}.", f.key)
    else:
        ctx.emit("react", f"{f.name} does not intercept.", f.key)
    reactors = tuple(
        r.model_copy(update={"answer": cmd.reaction, "weapon": weapon}) if r.fighter == f.key else r
        for r in mv.reactors
    )
    mv = mv.model_copy(update={"reactors": reactors})
    c = c.model_copy(update={"moving": mv})
    if all(r.answer is not None for r in reactors):
        return _resolve_move(c, ctx)
    return c


def _close_move_window(c: Combat, cmd: CloseWindow, ctx: _Ctx) -> Combat:
    mv = c.moving
    assert mv is not None
    reactors = _closed_window(mv.reactors, mv.deadline, cmd, ctx)
    return _resolve_move(
        c.model_copy(update={"moving": mv.model_copy(update={"reactors": reactors})}), ctx
    )


def _resolve_move(c: Combat, ctx: _Ctx) -> Combat:
    """Each Intercept in turn (in the order the interceptors were offered), then the move."""
    rules = ctx.rules
    mv = c.moving
    assert mv is not None
    mv = mv.model_copy(update={"window_closed": True, "deadline": None})
    mover = c.fighter(mv.mover)
    for r in mv.reactors:
        if r.answer != "intercept" or r.fighter in mv.resolved:
            continue
        g = c.fighter(r.fighter)
        if not _ok(g, rules) or r.weapon is None:
            mv = mv.model_copy(update={"resolved": (*mv.resolved, g.key)})
            continue
        mv = mv.model_copy(update={"full_before": full_locations(mover.character, rules=rules)})
        action = AttackAction(
            seq=mv.seq, attacker=g.key, target=mover.key, weapon=r.weapon, intercept=True
        )
        c = c.model_copy(update={"moving": mv, "pending": action})
        return _roll_attack(c, ctx)
    return _finish_move(c.model_copy(update={"moving": mv}), mv.stop_area or mv.to, ctx)


def _attack_finished(c: Combat, ctx: _Ctx) -> Combat:
    a = c.pending
    c = c.model_copy(update={"pending": None, "phase": Phase.TURN})
    mv = c.moving
    if a is None or not a.intercept or mv is None:
        return c
    rules = ctx.rules
    mover = c.fighter(mv.mover)
    legs = {loc.id for loc in rules.body.locations if loc.penalty.value == "leg"}
    newly_full = set(full_locations(mover.character, rules=rules)) - set(mv.full_before)
    mv = mv.model_copy(update={"resolved": (*mv.resolved, a.attacker)})
    if mv.stop_area is None and (newly_full & legs or not _ok(mover, rules)):
        g = c.fighter(a.attacker)
        ctx.emit(
            "stopped",
            f"{mover.name} must stop moving; {g.name} chooses where: {mv.frm} or {mv.to}.",
            mover.key,
        )
        mv = mv.model_copy(update={"stop_chooser": g.key})
        return c.model_copy(update={"moving": mv, "phase": Phase.RESOLUTION})
    return _resolve_move(c.model_copy(update={"moving": mv}), ctx)


def _stop_area(c: Combat, cmd: StopArea, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    prompt = _prompt_for(c, PromptKind.STOP_AREA, f.key)
    _require_control(ctx.actor, f)
    key = " ".join(cmd.area.split()).casefold()
    area = next((o for o in prompt.options if o.casefold() == key), None)
    if area is None:
        raise RuleError(f"Choose one of: {', '.join(prompt.options)}.")
    mv = c.moving
    assert mv is not None
    mover = c.fighter(mv.mover)
    ctx.emit("stop_area", f"{f.name} puts {mover.name} in {area}.", mover.key)
    mv = mv.model_copy(update={"stop_area": area, "stop_chooser": None})
    c = c.model_copy(update={"moving": mv, "phase": Phase.TURN})
    return _resolve_move(_put(c, mover.model_copy(update={"area": area})), ctx)


def _finish_move(c: Combat, area: str, ctx: _Ctx) -> Combat:
    mv = c.moving
    assert mv is not None
    mover = c.fighter(mv.mover)
    c = _put(c, mover.model_copy(update={"area": area}))
    if mv.stop_area is None:
        ctx.emit("moved", f"{mover.name} is now in {area}.", mover.key)
    return c.model_copy(update={"moving": None, "pending": None, "phase": Phase.TURN})


# ---- doors ------------------------------------------------------------------------------------


def legal_doors(combat: Combat, fighter_key: str, rules: Rules) -> tuple[str, ...]:
    """The areas on the other side of the doors of this fighter's area."""
    f = combat.fighter(fighter_key)
    return tuple(other for other, _ in combat.game_map().doors_of(f.area))


def _door(c: Combat, cmd: Door, ctx: _Ctx) -> Combat:
    f = _acting_fighter(c, cmd.fighter, ctx)
    m = c.game_map()
    try:
        other = m.area(cmd.other)
    except UnknownAreaError:
        raise RuleError(f"There is no area called {cmd.other.strip()!r} on this map.") from None
    conn = m.connection(f.area, other)
    if conn is None or conn.kind is not Kind.DOOR:
        doors = ", ".join(o for o, _ in m.doors_of(f.area))
        raise RuleError(
            f"There is no door between {f.area} and {other}"
            + (f"; {f.area}'s doors lead to {doors}." if doors else f"; {f.area} has no doors.")
        )
    verb = "open" if cmd.open else "closed"
    if conn.is_open == cmd.open:
        raise RuleError(f"The door between {f.area} and {other} is already {verb}.")
    c = _put(c, f.model_copy(update={"actions": f.actions - 1, "spent": f.spent + 1}))
    text = m.with_door(f.area, other, cmd.open).to_text()
    does = "opens" if cmd.open else "closes"
    ctx.emit("door", f"{f.name} {does} the door between {f.area} and {other}.", f.key)
    return c.model_copy(update={"map_text": text, "action_seq": c.action_seq + 1})


# ---- first aid --------------------------------------------------------------------------------


def _aid_item(c: Character, rules: Rules) -> int | None:
    """The index of a first aid item in a usable hand, if any."""
    for hand in usable_hands(c, rules=rules):
        index = c.held(hand)
        if index is not None and rules.items.kind(c.items[index].kind).id == "first_aid":
            return index
    return None


def _first_aid(c: Combat, cmd: FirstAid, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    f = _acting_fighter(c, cmd.fighter, ctx)
    t = c.fighter(cmd.target)
    if status(t.character, rules=rules) is Status.DEAD:
        raise RuleError(f"{t.name} is dead; first aid cannot help.")
    if t.area != f.area:
        raise RuleError(f"First aid has range 0: {t.name} is in {t.area}, {f.name} in {f.area}.")
    index = _aid_item(f.character, rules)
    if index is None:
        raise RuleError(f"{f.name} needs a first aid item in a usable hand.")
    item = f.character.items[index]
    ch, _ = destroy_item(f.character, index, rules=rules)
    f = f.model_copy(update={"character": ch, "actions": f.actions - 1, "spent": f.spent + 1})
    c = _put(c, f)
    seq = c.action_seq + 1
    roll = Roll.first(ch.level, ctx.dice, max_level=ch.max_level)
    good = _has(ch, rules, "good", "first_aid", "first_aid")
    res = roll.result
    ctx.emit(
        "first_aid",
        f"{f.name} gives first aid to {t.name} with {item.name} (used up): {_roll_text(res)}.",
        f.key,
        (res.tens, res.ones),
    )
    aid = AidAction(
        seq=seq,
        treater=f.key,
        target=t.key,
        roll=RollState(fighter=f.key, purpose="first_aid", roll=roll, good=good),
    )
    c = c.model_copy(update={"action_seq": seq, "aid": aid, "phase": Phase.RESOLUTION})
    return _advance_aid(c, ctx)


def _die_number(die: int, value: int) -> int:
    """A die read as a number (RULINGS 3: a 0 on a roll of 100 reads as 10)."""
    return 10 if value == 100 else die


def _advance_aid(c: Combat, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    aid = c.aid
    assert aid is not None
    if _wants_reroll(aid.roll) or aid.roll.roll.awaits_critical_choice:
        return c
    res = aid.roll.roll.result
    t = c.fighter(aid.target)
    ch = t.character
    if res.critical_failure:
        crosses = sum(m.count("X") for m in ch.wounds.values())
        die = _die_number(res.tens, res.value)
        due = min(die, crosses)
        if aid.due is None:
            aid = aid.model_copy(update={"due": due})
            c = c.model_copy(update={"aid": aid})
        if sum(aid.plan.values()) < due and crosses > due:
            return c
        plan = aid.plan if crosses > due else {k: v.count("X") for k, v in ch.wounds.items()}
        new, report = first_aid_critical_failure(ch, plan, die=die, rules=rules)
    elif not res.success:
        new, report = first_aid_failure(ch, rules=rules)
    else:
        if aid.boxes is None:
            if res.tens != res.ones:
                return c
            aid = aid.model_copy(update={"boxes": res.tens, "extra_locations": res.ones})
            c = c.model_copy(update={"aid": aid})
        if _aid_box_options(ch, aid):
            return c
        assert aid.boxes is not None and aid.extra_locations is not None
        new, report = first_aid_success(
            ch, aid.plan, boxes=aid.boxes, extra_locations=aid.extra_locations, rules=rules
        )
    ctx.emit("first_aid_result", report.summary, t.key)
    c = _put(c, _settle_status(t.model_copy(update={"character": new}), rules))
    return c.model_copy(update={"aid": None, "phase": Phase.TURN})


def _aid_box_options(ch: Character, aid: AidAction) -> tuple[str, ...]:
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


def _aid_permanent_options(ch: Character, aid: AidAction) -> tuple[str, ...]:
    return tuple(loc for loc, marks in ch.wounds.items() if marks.count("X") > aid.plan.get(loc, 0))


def _aid_prompts(c: Combat, aid: AidAction, rules: Rules) -> tuple[Prompt, ...]:
    s = aid.roll
    if _wants_reroll(s):
        return (_prompt(c, PromptKind.REROLL, s.fighter, ("tens", "ones", "both", "keep")),)
    if s.roll.awaits_critical_choice:
        return (_prompt(c, PromptKind.CRITICAL, s.fighter, ("extra_action", "adjust")),)
    ch = c.fighter(aid.target).character
    if aid.due is not None:
        return (_prompt(c, PromptKind.AID_PERMANENT, aid.target, _aid_permanent_options(ch, aid)),)
    if aid.boxes is None:
        return (_prompt(c, PromptKind.AID_DICE, aid.treater, ("tens", "ones")),)
    options = _aid_box_options(ch, aid)
    return (_prompt(c, PromptKind.AID_BOXES, aid.target, (*options, "done")),)


def _aid_mark(c: Combat, cmd: AidMark, ctx: _Ctx) -> Combat:
    _require_phase(c, Phase.RESOLUTION)
    aid = c.aid
    f = c.fighter(cmd.fighter)
    prompt = next(
        (
            p
            for p in c.prompts
            if p.fighter == f.key
            and p.kind in (PromptKind.AID_DICE, PromptKind.AID_BOXES, PromptKind.AID_PERMANENT)
        ),
        None,
    )
    if aid is None or prompt is None:
        raise RuleError(f"Nothing is waiting for {f.name} to decide about first aid now.")
    _require_control(ctx.actor, f)
    if cmd.option not in prompt.options:
        raise RuleError(f"Choose one of: {', '.join(prompt.options)}.")
    rules = ctx.rules
    if prompt.kind is PromptKind.AID_DICE:
        tens, ones = aid.roll.roll.result.tens, aid.roll.roll.result.ones
        boxes, extra = (tens, ones) if cmd.option == "tens" else (ones, tens)
        ctx.emit(
            "aid_dice",
            f"{f.name} chooses {boxes} boxes and {extra} additional location"
            f"{'' if extra == 1 else 's'}.",
            f.key,
            (boxes, extra),
        )
        aid = aid.model_copy(update={"boxes": boxes, "extra_locations": extra})
    elif cmd.option == "done":
        ctx.emit("aid_boxes", f"{f.name} erases no more boxes.", f.key)
        aid = aid.model_copy(update={"boxes": sum(aid.plan.values())})
    else:
        where = rules.body.location(cmd.option).name.lower()
        what = "a \\ erased" if prompt.kind is PromptKind.AID_BOXES else "an X becomes ■"
        ctx.emit("aid_mark", f"{f.name}'s {where}: {what}.", f.key)
        plan = {**aid.plan, cmd.option: aid.plan.get(cmd.option, 0) + 1}
        aid = aid.model_copy(update={"plan": plan})
    return _advance_aid(c.model_copy(update={"aid": aid}), ctx)


# ---- using and managing items -----------------------------------------------------------------


def _on_floor(f: Fighter, index: int) -> Dropped | None:
    return next((d for d in f.dropped if d.index == index), None)


def _find_item(f: Fighter, name: str, rules: Rules) -> int:
    """The index of the fighter's intact item called ``name`` (RuleError when there is none)."""
    c = f.character
    key = " ".join(name.split()).casefold()
    matches = [i for i, it in enumerate(c.items) if it.name.casefold() == key]
    intact = [i for i in matches if not c.items[i].destroyed]
    if intact:
        return intact[0]
    if matches:
        raise RuleError(f"{c.items[matches[0]].name} is destroyed; recovery replaces it.")
    raise RuleError(f"{c.name} has no item called {name.strip()!r}.")


def legal_items(combat: Combat, fighter_key: str, rules: Rules, op: str) -> tuple[str, ...]:
    """What ``/item <op>`` could name for this fighter now: items to hold (not in hand nor on
    the floor), items on the floor of their area to pick up, items in hand to drop, and for
    ``use`` the items in hand and the things noted on their area of the map."""
    f = combat.fighter(fighter_key)
    c = f.character
    in_hand = tuple(dict.fromkeys(i for i in (c.right_hand, c.left_hand) if i is not None))
    if op == "hold":
        found = [
            it.name
            for i, it in enumerate(c.items)
            if _on_floor(f, i) is None and i not in in_hand and _can_hold(c, i, rules)
        ]
    elif op == "pickup":
        found = [
            c.items[d.index].name
            for d in f.dropped
            if d.area == f.area and _can_hold(c, d.index, rules)
        ]
    elif op == "drop":
        found = [c.items[i].name for i in in_hand]
    elif op == "use":
        found = [c.items[i].name for i in in_hand]
        found += list(combat.game_map().notes(f.area))
    else:
        found = []
    return tuple(dict.fromkeys(found))


def _hold(c: Character, index: int, hand: Hand | None, rules: Rules) -> tuple[Character, str]:
    """``c`` holding item ``index``; with no hand named, the first hand that works (so a
    shield replaces the pistol it cannot be used with rather than being refused)."""
    if hand is not None:
        new, report = hold(c, index, hand, rules=rules)
        return new, report.summary
    first: RuleError | None = None
    for choice in (None, *HANDS):
        try:
            new, report = hold(c, index, choice, rules=rules)
        except RuleError as error:
            first = first or error
            continue
        return new, report.summary
    assert first is not None
    raise first


def _can_hold(c: Character, index: int, rules: Rules) -> bool:
    try:
        _hold(c, index, None, rules)
    except RuleError:
        return False
    return True


def _hand_arg(hand: str | None) -> Literal["right", "left"] | None:
    return None if hand in (None, "both") else cast(Literal["right", "left"], hand)


_VERBS = {"hold": "hold", "pickup": "pick up"}


def _manage_items(c: Combat, cmd: ManageItems, ctx: _Ctx) -> Combat:
    if cmd.op == "drop":
        return _drop(c, cmd, ctx)
    rules = ctx.rules
    f = _acting_fighter(c, cmd.fighter, ctx)
    ch = f.character
    dropped = f.dropped
    if cmd.op == "use":
        text = _use_text(c, f, cmd.item, rules)
    elif cmd.op == "stow":
        if ch.right_hand is None and ch.left_hand is None:
            raise RuleError(f"{f.name} has nothing in hand to stow.")
        hand = _hand_arg(cmd.hand)
        if hand is not None and ch.held(hand) is None:
            raise RuleError(f"{f.name}'s {hand} hand is empty.")
        ch, report = stow(ch, hand, rules=rules)
        text = f"{f.name} stows: {report.summary}"
    else:
        if cmd.item is None:
            raise RuleError(f"Say which item {f.name} should {_VERBS[cmd.op]}.")
        index = _find_item(f, cmd.item, rules)
        item = ch.items[index]
        floor = _on_floor(f, index)
        if cmd.op == "pickup":
            if floor is None:
                raise RuleError(f"{item.name} is not on the floor: use /item hold.")
            if floor.area != f.area:
                raise RuleError(
                    f"{item.name} lies in {floor.area}; {f.name} is in {f.area}."
                )
            dropped = tuple(d for d in dropped if d.index != index)
        elif floor is not None:
            raise RuleError(
                f"{item.name} lies on the floor of {floor.area}: pick it up first (/item pickup)."
            )
        kind = rules.items.kind(item.kind)
        hand = _hand_arg(cmd.hand)
        if kind.hands == 2 and cmd.hand in ("right", "left"):
            raise RuleError(f"{item.name} needs both hands.")
        if kind.hands == 1 and cmd.hand == "both":
            raise RuleError(f"{item.name} needs one hand: say right or left.")
        if (
            cmd.op == "hold"
            and (ch.right_hand == index or ch.left_hand == index)
            and (hand is None or ch.held(hand) == index)
        ):
            raise RuleError(f"{f.name} already holds {item.name}.")
        ch, summary = _hold(ch, index, hand, rules)
        verb = "picks up" if cmd.op == "pickup" else "takes"
        text = f"{f.name} {verb} {item.name}: {summary}"
    c = _put(
        c,
        f.model_copy(
            update={
                "character": ch,
                "dropped": dropped,
                "actions": f.actions - 1,
                "spent": f.spent + 1,
            }
        ),
    )
    ctx.emit("items", f"{text} (one action)", f.key)
    return c.model_copy(update={"action_seq": c.action_seq + 1})


def _use_text(c: Combat, f: Fighter, name: str | None, rules: Rules) -> str:
    """What using an item in hand, or a thing noted on the area, says (the GM rules on it)."""
    ch = f.character
    if name is None:
        raise RuleError(f"Say what {f.name} uses: an item in hand or something in {f.area}.")
    key = " ".join(name.split()).casefold()
    for note in c.game_map().notes(f.area):
        if note.casefold() == key:
            return f"{f.name} uses {note} in {f.area}; the GM says what it does."
    index = _find_item(f, name, rules)
    item = ch.items[index]
    hands = [h for h in HANDS if ch.held(h) == index]
    if not hands:
        notes = c.game_map().notes(f.area)
        where = f" or one of {f.area}'s: {', '.join(notes)}" if notes else ""
        raise RuleError(f"{item.name} is not in {f.name}'s hands; use an item in hand{where}.")
    kind = rules.items.kind(item.kind)
    if kind.id == "first_aid":
        raise RuleError(f"{item.name} is first aid: use /firstaid.")
    if kind.attack == "aoe":
        raise RuleError(f"{item.name} is an AoE weapon: AoE attacks are resolved by the GM.")
    usable = usable_hands(ch, rules=rules)
    if len(hands) < kind.hands or any(h not in usable for h in hands):
        raise RuleError(f"{f.name} cannot use {item.name}: it needs {kind.hands} usable hands.")
    return f"{f.name} uses {item.name}; the GM says what it does."


def _drop(c: Combat, cmd: ManageItems, ctx: _Ctx) -> Combat:
    """Dropping what is in hand is free: it takes no action (004 "Actions")."""
    _require_phase(c, Phase.TURN)
    f = c.fighter(cmd.fighter)
    _require_control(ctx.actor, f)
    ch = f.character
    if cmd.item is not None:
        index = _find_item(f, cmd.item, ctx.rules)
        held = [h for h in HANDS if ch.held(h) == index]
        if not held:
            raise RuleError(f"{ch.items[index].name} is not in {f.name}'s hands.")
        leaving = {index}
    else:
        hands = HANDS if cmd.hand in (None, "both") else (cast(Literal["right", "left"], cmd.hand),)
        leaving = {i for h in hands if (i := ch.held(h)) is not None}
        if not leaving:
            raise RuleError(f"{f.name} has nothing in that hand to drop.")
    ctx.emit("items", f"{f.name} drops {_names(ch, leaving)} in {f.area} (no action).", f.key)
    return _put(c, _let_fall(f, leaving, ctx.rules))


def _names(ch: Character, indices: set[int]) -> str:
    return " and ".join(ch.items[i].name for i in sorted(indices))


def _let_fall(f: Fighter, indices: set[int], rules: Rules) -> Fighter:
    """``f`` with those items out of its hands and on the floor of its area."""
    ch = f.character
    for hand in HANDS:
        if ch.held(hand) in indices:
            ch, _ = stow(ch, hand, rules=rules)
    fallen = tuple(Dropped(index=i, area=f.area) for i in sorted(indices))
    return f.model_copy(update={"character": ch, "dropped": (*f.dropped, *fallen)})


# ---- surrender and GM corrections -------------------------------------------------------------


def _surrender(c: Combat, cmd: Surrender, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    if c.phase is Phase.SETUP:
        raise RuleError("The fight has not begun; remove the fighter instead.")
    f = c.fighter(cmd.fighter)
    _require_control(ctx.actor, f)
    mv = c.moving
    if mv is not None and f.key in {mv.mover, *(r.fighter for r in mv.reactors)}:
        if mv.window_closed:
            raise RuleError(
                f"The dice are already rolled for the move involving {f.name}; "
                "they can surrender once it is resolved."
            )
        c = _cancel_move_part(c, f, ctx)
        f = c.fighter(f.key)
    a = c.pending
    if a is not None and f.key in _involved(a):
        if a.rolled:
            raise RuleError(
                f"The dice are already rolled for the attack involving {f.name}; "
                "they can surrender once it is resolved."
            )
        # The action isn't spent and doesn't take effect.
        att = c.fighter(a.attacker)
        c = _refund(c, att.key, reaction=False)
        for r in a.reactors:
            if r.answer in ("defend", "counterattack"):
                c = _refund(c, r.fighter, reaction=True)
        ctx.emit(
            "cancelled",
            f"{att.name}'s attack does not take effect; {att.name} keeps the action.",
            att.key,
        )
        c = c.model_copy(update={"pending": None, "phase": Phase.TURN})
        f = c.fighter(f.key)
    new, report = surrender(f.character, rules=rules)
    ctx.emit("surrender", report.summary, f.key)
    return _put(c, f.model_copy(update={"character": new, "actions": 0}))


def _refund(c: Combat, key: str, reaction: bool) -> Combat:
    """Give back an action whose use did not take effect (a surrender before the dice)."""
    g = c.fighter(key)
    update: dict[str, Any] = {"actions": g.actions + 1, "spent": g.spent - 1}
    if reaction:
        update.update(reactions=g.reactions - 1, reacted_to=None)
    return _put(c, g.model_copy(update=update))


def _cancel_move_part(c: Combat, f: Fighter, ctx: _Ctx) -> Combat:
    """``f`` surrenders while a Move's Intercept window is open (no dice rolled yet): a mover's
    move does not happen and every action spent on it comes back; an interceptor leaves the
    window (its action back), and the move goes on without them."""
    mv = c.moving
    assert mv is not None
    if f.key == mv.mover:
        c = _refund(c, f.key, reaction=False)
        for r in mv.reactors:
            if r.answer == "intercept":
                c = _refund(c, r.fighter, reaction=True)
        ctx.emit("cancelled", f"{f.name}'s move does not take effect.", f.key)
        return c.model_copy(update={"moving": None, "phase": Phase.TURN})
    mine = next(r for r in mv.reactors if r.fighter == f.key)
    if mine.answer == "intercept":
        c = _refund(c, f.key, reaction=True)
    reactors = tuple(r for r in mv.reactors if r.fighter != f.key)
    c = c.model_copy(update={"moving": mv.model_copy(update={"reactors": reactors})})
    if all(r.answer is not None for r in reactors):
        if any(r.answer == "intercept" for r in reactors):
            return _resolve_move(c, ctx)
        return _finish_move(c, mv.to, ctx)
    return c


def _gm_set(c: Combat, cmd: GMSet, ctx: _Ctx) -> Combat:
    _require_gm(ctx.actor, "correct a fighter")
    rules = ctx.rules
    f = c.fighter(cmd.fighter)
    ch = f.character
    changes: list[str] = []
    update: dict[str, Any] = {}
    data: dict[str, Any] = {}
    if cmd.level is not None:
        if cmd.level > ch.max_level:
            raise RuleError(f"{f.name}'s level cannot be above their max level ({ch.max_level}).")
        data["level"] = cmd.level
        changes.append(f"level {ch.level} → {cmd.level}")
    if cmd.marks is not None:
        wounds = dict(ch.wounds)
        for loc_id, marks in cmd.marks.items():
            loc = rules.body.location(loc_id)
            if any(m not in "■X\\" for m in marks) or len(marks) > loc.boxes:
                raise RuleError(
                    f"The {loc.name.lower()} takes up to {loc.boxes} marks of ■, X or \\."
                )
            wounds[loc.id] = marks
            changes.append(
                f"{loc.name.lower()} marks {ch.marks(loc.id) or 'none'} → {marks or 'none'}"
            )
        data["wounds"] = wounds
    if data:
        try:
            new = Character.model_validate({**ch.model_dump(), **data})
        except ValidationError as error:
            raise RuleError(f"That correction is not valid: {error.errors()[0]['msg']}.") from None
        update["character"] = new
    if cmd.area is not None:
        try:
            area = c.game_map().area(cmd.area)
        except UnknownAreaError:
            raise RuleError(f"There is no area called {cmd.area.strip()!r} on this map.") from None
        update["area"] = area
        changes.append(f"area {f.area} → {area}")
    if cmd.actions is not None:
        if not 0 <= cmd.actions <= 9:
            raise RuleError("A fighter has 0-9 actions.")
        update["actions"] = cmd.actions
        changes.append(f"actions {f.actions} → {cmd.actions}")
    if not changes:
        raise RuleError("Say what to correct: level, area, actions or marks.")
    ctx.emit("gm_set", f"GM correction to {f.name}: {'; '.join(changes)}.", f.key)
    f = _drop_from_useless_hands(f.model_copy(update=update), rules, ctx)
    return _put(c, _settle_status(f, rules))


def _drop_from_useless_hands(f: Fighter, rules: Rules, ctx: _Ctx) -> Fighter:
    """A full arm drops what its hand holds (004 "Hit Location"), after a GM correction too."""
    ch = f.character
    usable = usable_hands(ch, rules=rules)
    falling = {i for h in HANDS if h not in usable and (i := ch.held(h)) is not None}
    if not falling:
        return f
    ctx.emit("items", f"{f.name} drops {_names(ch, falling)} in {f.area}.", f.key)
    return _let_fall(f, falling, rules)


# ---- settling and prompts ---------------------------------------------------------------------


def _settle(c: Combat, ctx: _Ctx) -> Combat:
    rules = ctx.rules
    for _ in range(1000):  # every pass either stops or moves the turn on
        if c.phase in (Phase.SETUP, Phase.ENDED) or c.pending is not None:
            break
        standing = _standing_teams(c, rules)
        if len(standing) < 2:
            who = (
                f"Only {standing[0]} are left standing." if standing else "Nobody is left standing."
            )
            c = _end(c, ctx, who)
            break
        if c.phase is Phase.TURN:
            team = c.acting_team
            if team is None or not _team_can_act(c, team, rules):
                c = _next_turn(c, ctx)
                continue
        break
    return c.model_copy(update={"prompts": _prompts(c, rules)})


def _prompt(
    c: Combat, kind: PromptKind, key: str, options: tuple[str, ...], deadline: float | None = None
) -> Prompt:
    f = c.fighter(key)
    return Prompt(
        kind=kind, fighter=key, team=f.team, user_id=f.owner_id, options=options, deadline=deadline
    )


def _prompts(c: Combat, rules: Rules) -> tuple[Prompt, ...]:
    if c.phase is Phase.INITIATIVE:
        if not c.initiative_done:
            return tuple(
                _prompt(c, PromptKind.REROLL, r.state.fighter, ("tens", "ones", "both", "keep"))
                for r in c.initiative
                if _wants_reroll(r.state)
            )
        roller = next(r for r in c.initiative if r.team == c.initiative_winner)
        return (
            _prompt(
                c,
                PromptKind.CHOOSE_ORDER,
                roller.state.fighter,
                tuple(r.team for r in c.initiative),
            ),
        )
    if c.phase is Phase.TURN:
        return tuple(
            _prompt(c, PromptKind.ACT, f.key, ("attack", "done"))
            for f in c.fighters
            if f.team == c.acting_team and f.actions > 0 and _ok(f, rules)
        )
    if c.aid is not None:
        return _aid_prompts(c, c.aid, rules)
    mv = c.moving
    if mv is not None and c.pending is None:
        if c.phase is Phase.REACTION:
            return tuple(
                _prompt(c, PromptKind.REACT, r.fighter, (*r.options, "pass"), mv.deadline)
                for r in mv.reactors
                if r.answer is None
            )
        if mv.stop_chooser is not None:
            return (_prompt(c, PromptKind.STOP_AREA, mv.stop_chooser, (mv.frm, mv.to)),)
        return ()
    a = c.pending
    if a is None:
        return ()
    if c.phase is Phase.REACTION:
        return tuple(
            _prompt(c, PromptKind.REACT, r.fighter, (*r.options, "pass"), a.deadline)
            for r in a.reactors
            if r.answer is None
        )
    rerolls = tuple(
        _prompt(c, PromptKind.REROLL, s.fighter, ("tens", "ones", "both", "keep"))
        for s in a.rolls
        if _wants_reroll(s)
    )
    if rerolls:
        return rerolls
    crits = tuple(
        _prompt(c, PromptKind.CRITICAL, s.fighter, ("extra_action", "adjust"))
        for s in a.rolls
        if s.roll.awaits_critical_choice
    )
    if crits:
        return crits
    hit = next((h for h in a.hits if not h.done), None)
    if hit is None:
        return ()
    if hit.damage_die is None:
        return (_prompt(c, PromptKind.CHOOSE_DICE, hit.chooser, ("tens", "ones")),)
    if not hit.modifier_decided:
        return (
            _prompt(c, PromptKind.MODIFIER, hit.attacker, (*(hit.modifier_offers or ()), "none")),
        )
    if hit.use_armor is None:
        return (_prompt(c, PromptKind.ARMOR, hit.target, ("use", "keep")),)
    return ()


_HANDLERS: dict[type, Callable[[Combat, Any, _Ctx], Combat]] = {
    AddFighter: _add_fighter,
    RemoveFighter: _remove_fighter,
    Begin: _begin,
    ChooseOrder: _choose_order,
    Attack: _attack,
    Move: _move,
    Door: _door,
    FirstAid: _first_aid,
    AidMark: _aid_mark,
    ManageItems: _manage_items,
    StopArea: _stop_area,
    Done: _done,
    React: _react,
    CloseWindow: _close_window,
    Reroll: _reroll,
    CriticalChoice: _critical,
    ChooseDice: _choose_dice,
    Modifier: _modifier,
    Armor: _armor,
    Surrender: _surrender,
    EndCombat: _end_combat,
    GMSet: _gm_set,
}
