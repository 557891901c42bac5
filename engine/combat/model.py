"""The combat state: a frozen pydantic value the bot stores as JSON and reloads.

Everything the fight is waiting for is in the state itself (``Combat.prompts``), so a reloaded
combat carries on exactly where it was, reaction windows and their deadlines included.

This module holds the fight's phases, prompts, events, who gives a command, the fighters and
``Combat`` itself; the values of the steps being resolved (an attack, a move, ...) are in
``engine.combat.step_values``.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal

from pydantic import model_validator

from engine.character import Character
from engine.combat.order_values import StandingOrder
from engine.combat.step_values import (
    AidAction,
    AnyStep,
    AttackAction,
    Direction,
    MoveAction,
    RollState,
    Step,
)
from engine.errors import RuleError
from engine.frozen import FrozenModel
from engine.maps import GameMap, parse_map
from engine.names import name_key
from engine.phrases import Phrase, phrase

__all__ = [
    "Actor",
    "AreaEffect",
    "Combat",
    "Dropped",
    "Event",
    "EventKind",
    "Fighter",
    "InitiativeRoll",
    "Phase",
    "Prompt",
    "PromptKind",
    "RollerChoice",
    "Tally",
    "TurnEnd",
    "game_map_of",
]



class Phase(StrEnum):
    """Where the fight is."""

    SETUP = "setup"  # adding fighters; Begin starts round 1
    INITIATIVE = "initiative"  # good re-rolls and the winner's choice of order
    TURN = "turn"  # the acting team declares actions
    REACTION = "reaction"  # a reaction window is open
    RESOLUTION = "resolution"  # dice rolled; choices during resolution
    ENDING = "ending"  # one team is left: its leaders may rally before the end (004 "Leader")
    ENDED = "ended"


class TurnEnd(StrEnum):
    """What a team's turn does when its deadline passes (``Combat.turn_seconds``)."""

    ASK = "ask"  # the GM is told who has not acted, once, and decides
    AUTO = "auto"  # the turn ends, as if its team pressed Done


class PromptKind(StrEnum):
    ACT = "act"  # a fighter of the acting team may act (options: attack, done)
    CHOOSE_ORDER = "choose_order"  # options: team names (the team to go first)
    CHOOSE_NEXT = "choose_next"  # options: team names (the team to go next; 3 or more teams)
    CHOOSE_ROLLER = "choose_roller"  # options: the names of a team's fighters tied for its
    # highest level, and its leaders below it (who rolls initiative; asked of the team,
    # ``fighter`` None)
    LEADER_ROLLS = "leader_rolls"  # options: the team's one highest-level fighter (asked) and
    # the leaders below it (who rolls initiative: the highest may let a leader roll)
    DIRECTED = "directed"  # options: refuse (a leader directed the fighter: act, or refuse)
    END_RALLY = "end_rally"  # options: rally, skip (a leader's rally at the end of combat)
    REACT = "react"  # options: defend, counterattack, intercept (each + "_less_lethal"), pass
    REROLL = "reroll"  # options: tens, ones, both, keep
    CRITICAL = "critical"  # options: extra_action, adjust (+ target_loses_action: 1H Melee)
    DESTROY = "destroy"  # options: item numbers of the target (1-based, as on the sheet), none
    CHOOSE_DICE = "choose_dice"  # options: tens, ones (the die used for damage)
    MODIFIER = "modifier"  # options: precise+1, precise-1, powerful, none
    ARMOR = "armor"  # options: use, keep
    STOP_AREA = "stop_area"  # options: the two areas a stopped mover may end in, and
    # ``GO_ON`` when the stop is the interceptor's choice and a second step would follow
    AID_DICE = "aid_dice"  # options: tens, ones (the die for the number of boxes)
    AID_BOXES = "aid_boxes"  # options: location ids (erase one \ there), done
    AID_PERMANENT = "aid_permanent"  # options: location ids (one X there becomes ■)
    ALL_OUT_DEFEND = "all_out_defend"  # options: declare (an offer: the fight does not wait)
    AID_SURE = "aid_sure"  # options: roll, sure (the First Aid ability's sure success)
    AOE_DICE = "aoe_dice"  # options: tens, ones (the die for damage, or for rounds: Cover)
    AOE_TARGET = "aoe_target"  # options: names of who a Blast may still take as a target
    AOE_DEFEND = "aoe_defend"  # options: defend, pass (a Blast's target, once chosen)
    AOE_PLACE = "aoe_place"  # options: location ids (one point of AoE damage there per answer)
    AOE_ARMOR = "aoe_armor"  # options: use, keep (armor where AoE damage was placed)


class Prompt(FrozenModel):
    """Something the fight waits for, and from whom (``user_id`` None: the GM decides)."""

    kind: PromptKind
    fighter: str | None = None
    team: str | None = None
    user_id: int | None = None
    options: tuple[str, ...] = ()
    deadline: float | None = None


class EventKind(StrEnum):
    """What kind of thing an event tells."""

    ADDED = "added"
    ADJUST = "adjust"
    ALL_OUT_DEFEND = "all_out_defend"  # a fighter declared All-Out Defend for the round
    AID_BOXES = "aid_boxes"
    AID_DICE = "aid_dice"
    AID_MARK = "aid_mark"
    AID_SURE = "aid_sure"  # the treater takes a sure success, or rolls
    AMMO = "ammo"
    ARMOR = "armor"  # a GM chose for a player's fighter whether armor takes the damage
    AOE = "aoe"  # an AoE attack on an area: declared, its choices, its effect
    AOE_DAMAGE = "aoe_damage"  # AoE damage placed by the damaged character's player
    AOE_EFFECT = "aoe_effect"  # a lasting AoE effect begins or ends
    CONTINUOUS = "continuous"  # someone starts an action inside a Continuous effect
    BEGIN = "begin"
    CANCELLED = "cancelled"
    DAMAGE = "damage"
    DECLARE = "declare"
    DEFEND_FAILED = "defend_failed"
    DEFENDED = "defended"
    DICE = "dice"
    DIRECT = "direct"  # a leader directs a teammate
    DIRECT_ACTION = "direct_action"  # a leader's initiative gives an action only to direct
    DIRECT_ENDED = "direct_ended"  # a direction refused, or lapsed at the end of the turn
    DIRECT_USED = "direct_used"  # a directed fighter acts without spending their own action
    DOOR = "door"
    ENDED = "ended"
    ENDING = "ending"  # one team is left; its leaders may rally before the fight ends
    EXTRA_ACTION = "extra_action"
    EXTRA_ACTION_LOST = "extra_action_lost"  # a critical's extra action unused at round end
    FIRST_AID = "first_aid"
    FIRST_AID_RESULT = "first_aid_result"
    GM_SET = "gm_set"
    HIT = "hit"
    INITIATIVE = "initiative"
    INITIATIVE_WON = "initiative_won"
    ITEM_DESTROYED = "item_destroyed"  # a critical success destroys an item of the target
    ITEMS = "items"
    LOST_ACTION = "lost_action"
    MISS = "miss"
    MODIFIER = "modifier"
    MOVED = "moved"
    ORDER = "order"
    RALLY = "rally"  # a leader's rally roll
    RALLY_LEVEL = "rally_level"  # a teammate's level rises to a rally's roll
    REACT = "react"
    REMOVED = "removed"
    REROLL = "reroll"
    ROLL = "roll"
    ROLLER = "roller"  # a team chose who of its tied fighters rolls initiative
    ROLLER_TIE = "roller_tie"  # several share a team's highest level: the team chooses
    ROLLER_LEADER = "roller_leader"  # a leader below the highest level may roll instead
    ROUND = "round"
    ROUND_END = "round_end"
    STOP_AREA = "stop_area"
    STOPPED = "stopped"
    SETTINGS = "settings"  # the GM changed a fight setting (the bot says so)
    SPEED = "speed"  # a Speed roll's outcome: moving twice, or staying
    STEALTH = "stealth"  # a fighter becomes hidden, or is hidden no more
    SURRENDER = "surrender"
    TURN = "turn"
    TURN_END = "turn_end"
    TURN_DEADLINE = "turn_deadline"  # a team's turn reached its deadline, or was extended
    WINDOW = "window"
    WINDOW_CLOSED = "window_closed"


class Event(FrozenModel):
    """One thing that happened, as one plain sentence. ``text`` is what everyone may read;
    ``gm_text``, when set, is the same sentence with the figures ``text`` leaves out (a
    hidden NPC's level and marks, ``engine.combat.hidden_npcs``), for the GM's eyes only."""

    kind: EventKind
    text: Phrase | str
    gm_text: Phrase | str | None = None
    fighter: str | None = None
    dice: tuple[int, ...] = ()


class Actor(FrozenModel):
    """Who gives a command: a Discord user, and whether they are a GM here."""

    user_id: int
    gm: bool = False


class Dropped(FrozenModel):
    """An item of the fighter's that lies on the floor of an area until picked up."""

    index: int  # into the character's items
    area: str


class Tally(FrozenModel):
    """What a fighter did and suffered in this fight, for the recap at its end. Kept with the
    fighter (not read back from the log), so an undone step takes its counts back with it."""

    dealt: int = 0  # levels others lost to this fighter's damage
    taken: int = 0  # levels this fighter lost to damage (armor that took a hit: none)
    out_by: str | None = None  # who dealt the damage that last put them out of action
    out_round: int | None = None  # the round it happened
    used_up: tuple[str, ...] = ()  # items spent or destroyed in this fight, in order


class Fighter(FrozenModel):
    key: str  # casefolded name
    name: str
    team: str
    area: str  # canonical map name
    owner_id: int | None = None  # None: an NPC run by the GM
    character_id: int | None = None  # the bot's DB id, carried through untouched
    character: Character
    actions: int = 0  # left this round
    lose_next: int = 0  # actions lost at the start of next round
    reacted_to: int | None = None  # the action sequence number last reacted to
    spent: int = 0  # actions spent this round (acting or reacting)
    reactions: int = 0  # reactions this round that spent an action (each counts in spent)
    dropped: tuple[Dropped, ...] = ()  # items on the floor (dropped, or fallen from a hurt arm)
    rallied: bool = False  # attempted a rally this fight (004 "Leader": once per combat)
    direct_actions: int = 0  # actions left this round that can only direct others
    gained: int = 0  # actions gained from critical successes this round (used this round)
    directed: Direction | None = None  # a direction waiting to be taken or refused
    directed_by: str | None = None  # the leader whose direction this fighter took this round
    declared: tuple[str, ...] = ()  # ability ids declared for this round (All-Out Defend)
    # Stealth holds: gained on joining and after a Move into an area without enemies, lost on
    # starting a Move, Attack or Intercept. Its mark counts only while no enemy is in the
    # area (``engine.combat.stealth.hidden``).
    hidden: bool = False
    tally: Tally = Tally()


class AreaEffect(FrozenModel):
    """A lasting AoE effect on an area (004 "Abilities": AoE; RULINGS 13, 18): Continuous
    damage, Cover, or Demolish. ``until``: the last round it holds (it ends at that round's
    end); None: the rest of the fight (Demolish)."""

    area: str
    kind: Literal["continuous", "cover", "demolish"]
    value: int = 0  # Continuous: the damage
    until: int | None = None
    by: str = ""  # the user's name


class InitiativeRoll(FrozenModel):
    team: str
    state: RollState


class RollerChoice(FrozenModel):
    """Who a team chose to roll initiative this round, among those sharing its highest level."""

    team: str
    fighter: str


@lru_cache(maxsize=64)
def game_map_of(text: str) -> GameMap:
    """The map a fight's ``map_text`` describes (parsed once per text)."""
    return parse_map(text)


@lru_cache(maxsize=64)
def _changed_map(text: str, changes: tuple[tuple[str, str], ...]) -> GameMap:
    m = game_map_of(text)
    for kind, area in changes:
        m = m.with_area_cover(area) if kind == "cover" else m.demolished(area)
    return m


class Combat(FrozenModel):
    """One fight. Change it only through :func:`engine.combat.apply`."""

    schema_version: Literal[1, 2] = 2
    map_text: str
    reaction_seconds: int = 45
    # A team's turn's length (None: no deadline) and what its deadline does; the running
    # turn's deadline (``engine.combat.pace``), and whether the GM was told it passed.
    turn_seconds: int | None = None
    turn_end: TurnEnd = TurnEnd.ASK
    turn_deadline: float | None = None
    turn_deadline_told: bool = False
    # The questions between turns (initiative, the order, the rallies at the end) share one
    # deadline, a turn's length from when the first was asked, and its GM told once.
    between_turns_deadline: float | None = None
    between_turns_told: bool = False
    # When the late are reminded (``engine.combat.reminders``): with this part of a question's
    # time left, else this many seconds before its deadline; neither: never.
    remind_fraction: float | None = 0.25
    remind_seconds: int | None = None
    hide_npcs: bool = False  # the players see NPCs' levels and marks only as a band
    phase: Phase = Phase.SETUP
    round: int = 0
    fighters: tuple[Fighter, ...] = ()
    teams: tuple[str, ...] = ()  # in order of first appearance
    order: tuple[str, ...] = ()  # this round's team order (while it is chosen: the teams so far)
    turn: int | None = None  # index into order while a team acts
    initiative: tuple[InitiativeRoll, ...] = ()
    initiative_winner: str | None = None  # this round's (or the last round's) holder
    initiative_done: bool = False  # this round's rolls are final and the winner is known
    rollers: tuple[RollerChoice, ...] = ()  # this round's choices of who rolls initiative
    # while ENDING: why the fight ends (said once the leaders rallied)
    ending: Phrase | str | None = None
    action_seq: int = 0
    steps: tuple[Step, ...] = ()  # what is being resolved, innermost last
    prompts: tuple[Prompt, ...] = ()
    effects: tuple[AreaEffect, ...] = ()  # lasting AoE effects, oldest first
    ended_by_gm: bool = False  # the GM ended the fight (rather than one team being left)
    standing_orders: tuple[StandingOrder, ...] = ()  # what fighters answer when not there

    @model_validator(mode="before")
    @classmethod
    def _upgrade(cls, data: Any) -> Any:
        """A fight stored before the step stack kept one slot per kind of step."""
        if not isinstance(data, dict) or not {"pending", "moving", "aid"} & data.keys():
            return data
        data = dict(data)
        pending, moving, aid = data.pop("pending", None), data.pop("moving", None), data.pop(
            "aid", None)
        steps: list[dict[str, Any]] = []
        if moving is not None:
            moving = {**moving, "kind": "move"}
            if pending is not None and pending.get("intercept"):
                moving["intercepting"] = pending["attacker"]
            steps.append(moving)
        if pending is not None:
            steps.append({**pending, "kind": "attack"})
        if aid is not None:
            steps.append({**aid, "kind": "first_aid"})
        data["steps"] = steps
        data["schema_version"] = 2
        return data

    @property
    def step(self) -> AnyStep | None:
        """The innermost step being resolved, if any."""
        steps = self.steps
        return steps[-1] if steps else None

    @property
    def attack(self) -> AttackAction | None:
        """The attack being resolved (an Intercept included), when it is the innermost step."""
        step = self.step
        return step if isinstance(step, AttackAction) else None

    @property
    def move(self) -> MoveAction | None:
        """The Move being resolved, at any depth (its Intercept may stand above it)."""
        return next((s for s in self.steps if isinstance(s, MoveAction)), None)

    @property
    def aid(self) -> AidAction | None:
        step = self.step
        return step if isinstance(step, AidAction) else None

    def waiting_for(self) -> tuple[Prompt, ...]:
        """What the fight waits for right now, and from whom."""
        return self.prompts

    def fighter(self, name_or_key: str) -> Fighter:
        key = name_key(name_or_key)
        for f in self.fighters:
            if f.key == key:
                return f
        raise RuleError(phrase("There is no fighter called {name} in this combat.",
                               name=repr(name_or_key.strip())))

    def game_map(self) -> GameMap:
        """The fight's map as it stands: the drawn map, with the AoE Cover and Demolish
        effects in play applied in the order they were made (RULINGS 13)."""
        changes = tuple((e.kind, e.area) for e in self.effects if e.kind != "continuous")
        return _changed_map(self.map_text, changes)

    def fighters_of(self, user_id: int) -> tuple[Fighter, ...]:
        return tuple(f for f in self.fighters if f.owner_id == user_id)

    @property
    def acting_team(self) -> str | None:
        if self.turn is None or not 0 <= self.turn < len(self.order):
            return None
        return self.order[self.turn]
