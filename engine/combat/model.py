"""The combat state: a frozen pydantic value the bot stores as JSON and reloads.

Everything the fight is waiting for is in the state itself (``Combat.prompts``), so a reloaded
combat carries on exactly where it was, reaction windows and their deadlines included.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.character import Character
from engine.dice import Roll
from engine.errors import RuleError
from engine.maps import GameMap, parse_map
from engine.names import name_key

__all__ = [
    "Actor",
    "AidAction",
    "AoEAction",
    "AoEWound",
    "AreaEffect",
    "AttackAction",
    "Combat",
    "ContinuousBurn",
    "Direction",
    "Dropped",
    "Event",
    "EventKind",
    "Fighter",
    "Hit",
    "InitiativeRoll",
    "MoveAction",
    "Phase",
    "Prompt",
    "PromptKind",
    "RallyAction",
    "Reactor",
    "RollState",
    "RollerChoice",
    "Step",
    "Tally",
    "Weapon",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Phase(StrEnum):
    """Where the fight is."""

    SETUP = "setup"  # adding fighters; Begin starts round 1
    INITIATIVE = "initiative"  # good re-rolls and the winner's choice of order
    TURN = "turn"  # the acting team declares actions
    REACTION = "reaction"  # a reaction window is open
    RESOLUTION = "resolution"  # dice rolled; choices during resolution
    ENDING = "ending"  # one team is left: its leaders may rally before the end (004 "Leader")
    ENDED = "ended"


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


class Prompt(_Frozen):
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
    WINDOW = "window"
    WINDOW_CLOSED = "window_closed"


class Event(_Frozen):
    """One thing that happened, as one plain sentence. ``text`` is what everyone may read;
    ``gm_text``, when set, is the same sentence with the figures ``text`` leaves out (a
    hidden NPC's level and marks, ``engine.combat.secrets``), for the GM's eyes only."""

    kind: EventKind
    text: str
    gm_text: str | None = None
    fighter: str | None = None
    dice: tuple[int, ...] = ()


class Actor(_Frozen):
    """Who gives a command: a Discord user, and whether they are a GM here."""

    user_id: int
    gm: bool = False


class Dropped(_Frozen):
    """An item of the fighter's that lies on the floor of an area until picked up."""

    index: int  # into the character's items
    area: str


class Direction(_Frozen):
    """A leader's direction waiting on a teammate (004 "Leader": Direct): the teammate's next
    action costs none of their own. ``extra``: it used the leader's action that can only
    direct (from initiative), which is what the leader gets back on a refusal."""

    by: str  # the leader's key
    leader: str = ""  # the leader's name, to say whose direction is taken
    extra: bool = False


class Tally(_Frozen):
    """What a fighter did and suffered in this fight, for the recap at its end. Kept with the
    fighter (not read back from the log), so an undone step takes its counts back with it."""

    dealt: int = 0  # levels others lost to this fighter's damage
    taken: int = 0  # levels this fighter lost to damage (armor that took a hit: none)
    out_by: str | None = None  # who dealt the damage that last put them out of action
    out_round: int | None = None  # the round it happened
    used_up: tuple[str, ...] = ()  # items spent or destroyed in this fight, in order


class Fighter(_Frozen):
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
    directed: Direction | None = None  # a direction waiting to be taken or refused
    directed_by: str | None = None  # the leader whose direction this fighter took this round
    declared: tuple[str, ...] = ()  # ability ids declared for this round (All-Out Defend)
    # Stealth holds: gained on joining and after a Move into an area without enemies, lost on
    # starting a Move, Attack or Intercept. Its mark counts only while no enemy is in the
    # area (``engine.combat.stealth.hidden``).
    hidden: bool = False
    tally: Tally = Tally()


class Weapon(_Frozen):
    """What an attack is made with: an item in hand, or ``unarmed``."""

    name: str  # item name, or "unarmed"
    kind: str  # item kind id, or "unarmed"
    mark: Literal["\\", "X"] = "\\"


class Reactor(_Frozen):
    """Someone who may react to the step, and once they have, their answer.

    Before the answer, ``weapon`` is the first weapon a lethal Counterattack or Intercept
    could use and ``less_lethal_weapon`` the first a less-lethal one could (a melee weapon, or
    a ranged one with less-lethal ammo); either is None when none can. After it, ``weapon`` is
    the one used and ``lethal`` says which sort of damage the reactor chose.

    A reactor other than the attack's target may only Defend it (the Shield ability's Defend
    another character); ``free`` marks a Defend that spends no action (All-Out Defend)."""

    fighter: str
    options: tuple[str, ...]  # without "pass"
    weapon: Weapon | None = None  # for a counterattack or an intercept
    answer: str | None = None
    less_lethal_weapon: Weapon | None = None
    lethal: bool = True
    free: bool = False


class RollState(_Frozen):
    fighter: str
    purpose: Literal[
        "attack", "defend", "counterattack", "initiative", "first_aid", "move", "rally"
    ]
    roll: Roll
    good: bool = False  # the roller may re-roll (a good ability applies)
    reroll_decided: bool = False


class Hit(_Frozen):
    """A successful, unstopped attack or counterattack on its way to damage."""

    attacker: str
    target: str
    weapon: Weapon
    purpose: Literal["attack", "counterattack"]
    lethal: bool = True
    tens: int
    ones: int
    chooser: str
    damage_die: int | None = None
    location_die: int | None = None
    modifier_offers: tuple[str, ...] | None = None  # None: not yet looked at
    modifier_decided: bool = False
    armor_offered: bool | None = None
    use_armor: bool | None = None
    done: bool = False


class AttackAction(_Frozen):
    """A declared Attack (or an Intercept pushed above a Move): its reaction window, its rolls
    and its hits. A step of the fight's stack (``Combat.steps``)."""

    kind: Literal["attack"] = "attack"
    seq: int
    attacker: str
    target: str
    weapon: Weapon
    lethal: bool = True
    reactors: tuple[Reactor, ...] = ()
    deadline: float | None = None
    rolled: bool = False
    reaction: Literal["defend", "counterattack"] | None = None  # the first reactor's
    reactor: str | None = None  # (the rolls say every reaction: a Defend and a Counterattack)
    rolls: tuple[RollState, ...] = ()
    outcome_done: bool = False
    hits: tuple[Hit, ...] = ()
    intercept: bool = False  # an Intercept of the Move below it: no cover, no reaction
    destroying: tuple[str, ...] = ()  # rollers whose critical may still destroy a target's item

    @property
    def window_open(self) -> bool:
        return not self.rolled and any(r.answer is None for r in self.reactors)

    @property
    def involved(self) -> set[str]:
        return {self.attacker, self.target, *(r.fighter for r in self.reactors)}


class MoveAction(_Frozen):
    """A declared Move: its Intercept window, then each Intercept in turn (an
    ``AttackAction`` with ``intercept=True`` pushed above this step), then where the mover
    ends.

    A Speed move (``then`` set) rolls once its window closes: on a success this step, once
    done, gives way to a second ``MoveAction`` (``second``) from ``to`` to ``then`` with its
    own window; on a failure the mover stays in ``frm``, its interceptors attacking all the
    same."""

    kind: Literal["move"] = "move"
    seq: int
    mover: str
    frm: str
    to: str
    reactors: tuple[Reactor, ...] = ()
    deadline: float | None = None
    window_closed: bool = False
    resolved: tuple[str, ...] = ()  # interceptors whose attack is done
    intercepting: str | None = None  # the interceptor whose attack is above this step
    full_before: tuple[str, ...] = ()  # the mover's full locations before that intercept
    stop_chooser: str | None = None  # the interceptor whose attack stopped the mover
    stop_area: str | None = None  # where the stopped mover ends (chosen by ``stop_chooser``)
    stop_optional: bool = False  # the stop is the chooser's to make (Unarmed), not forced
    landed: tuple[str, ...] = ()  # interceptors whose Intercept roll succeeded
    then: str | None = None  # Speed: the second step's area (this is the first step)
    roll: RollState | None = None  # Speed: the roll to move twice
    roll_done: bool = False  # Speed: the roll is final and its outcome said
    second: bool = False  # the second step of a Speed move (its action is already spent)

    @property
    def window_open(self) -> bool:
        return not self.window_closed and any(r.answer is None for r in self.reactors)

    @property
    def stays(self) -> bool:
        """A Speed roll failed: the mover stays in ``frm`` (still a move for Intercept)."""
        return self.roll_done and self.roll is not None and not self.roll.roll.result.success

    @property
    def goes_on(self) -> bool:
        """A Speed roll succeeded: a second step follows this one unless the mover stops."""
        return self.then is not None and self.roll_done and not self.stays

    @property
    def involved(self) -> set[str]:
        return {self.mover, *(r.fighter for r in self.reactors)}


class AidAction(_Frozen):
    """A First Aid: its roll, then the treater's choice of dice and the treated player's
    choice of boxes (success) or of permanent wounds (critical failure).

    A treater with the First Aid ability may take a sure success instead of the roll
    (``sure``): no roll, one \\ erased. Until they say which (``roll`` None and not
    ``sure``), the fight waits for them."""

    kind: Literal["first_aid"] = "first_aid"
    seq: int
    treater: str
    target: str
    roll: RollState | None = None
    sure: bool = False
    boxes: int | None = None  # success: the dice as the treater assigned them
    extra_locations: int | None = None
    plan: dict[str, int] = {}  # location -> \ erased (success) or X made ■ (critical failure)
    due: int | None = None  # critical failure: how many X must become ■

    @property
    def window_open(self) -> bool:
        return False

    @property
    def involved(self) -> set[str]:
        return {self.treater, self.target}


class RallyAction(_Frozen):
    """A leader's rally (004 "Leader"): its roll, waiting for a critical success's choice."""

    kind: Literal["rally"] = "rally"
    seq: int
    leader: str
    roll: RollState

    @property
    def window_open(self) -> bool:
        return False

    @property
    def involved(self) -> set[str]:
        return {self.leader}


class AoEWound(_Frozen):
    """AoE damage one character takes: its player spreads it over locations (one point per
    answer), then says whether armor takes the damage at each location that has some."""

    fighter: str
    amount: int
    plan: dict[str, int] = {}  # location id -> points placed there
    armor: tuple[str, ...] = ()  # locations where armor takes that location's points
    kept: tuple[str, ...] = ()  # locations where the damage is taken despite armor
    done: bool = False

    @property
    def placed(self) -> int:
        return sum(self.plan.values())


class AoETarget(_Frozen):
    """A Blast's target: whether it Defends (``answer``), and its roll when it does."""

    fighter: str
    answer: Literal["defend", "pass"] | None = None
    free: bool = False  # All-Out Defend: the Defend spends no action
    roll: RollState | None = None


class AoEAction(_Frozen):
    """An AoE attack on an area (004 "Abilities": AoE): the roll, the user's choices (which
    die does what; a Blast's targets), the targets' Defends, then each damaged character's
    placement of the damage. ``variety`` is blast, continuous, cover or demolish."""

    kind: Literal["aoe"] = "aoe"
    seq: int
    attacker: str
    area: str
    item: str  # the item's name (destroyed on declaring)
    ability: str  # the ability id the item is for
    variety: Literal["blast", "continuous", "cover", "demolish"]
    roll: RollState
    first: int | None = None  # the chosen die: damage (Blast, Continuous) or rounds (Cover)
    second: int | None = None  # the other die: extra targets (Blast), rounds (Continuous)
    targets: tuple[AoETarget, ...] = ()
    offered: tuple[str, ...] = ()  # the keys a Blast's user is choosing among now
    targets_done: bool = False
    rolled: bool = False  # the Defends are rolled
    outcome_done: bool = False
    wounds: tuple[AoEWound, ...] = ()

    @property
    def window_open(self) -> bool:
        return False

    @property
    def involved(self) -> set[str]:
        return {self.attacker, *(t.fighter for t in self.targets)}


class ContinuousBurn(_Frozen):
    """Continuous damage (004 "Abilities": AoE Continuous) dealt to a character who starts an
    action other than Move in an area with a Continuous effect: pushed on top of that action's
    own step, so its player places the damage (as any AoE damage) before the action goes on."""

    kind: Literal["burn"] = "burn"
    area: str
    by: str = ""  # the effect's user
    wounds: tuple[AoEWound, ...] = ()

    @property
    def window_open(self) -> bool:
        return False

    @property
    def involved(self) -> set[str]:
        return {w.fighter for w in self.wounds}


class AreaEffect(_Frozen):
    """A lasting AoE effect on an area (004 "Abilities": AoE; RULINGS 13, 18): Continuous
    damage, Cover, or Demolish. ``until``: the last round it holds (it ends at that round's
    end); None: the rest of the fight (Demolish)."""

    area: str
    kind: Literal["continuous", "cover", "demolish"]
    value: int = 0  # Continuous: the damage
    until: int | None = None
    by: str = ""  # the user's name


#: What the fight is in the middle of, innermost last (an Intercept stands above its Move).
Step = Annotated[
    AttackAction | MoveAction | AidAction | RallyAction | AoEAction | ContinuousBurn,
    Field(discriminator="kind"),
]


class InitiativeRoll(_Frozen):
    team: str
    state: RollState


class RollerChoice(_Frozen):
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


class Combat(_Frozen):
    """One fight. Change it only through :func:`engine.combat.apply`."""

    schema_version: Literal[1, 2] = 2
    map_text: str
    reaction_seconds: int = 45
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
    ending: str | None = None  # while ENDING: why the fight ends (said once the leaders rallied)
    action_seq: int = 0
    steps: tuple[Step, ...] = ()  # what is being resolved, innermost last
    prompts: tuple[Prompt, ...] = ()
    effects: tuple[AreaEffect, ...] = ()  # lasting AoE effects, oldest first
    ended_by_gm: bool = False  # the GM ended the fight (rather than one team being left)

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
    def step(
        self,
    ) -> AttackAction | MoveAction | AidAction | RallyAction | AoEAction | ContinuousBurn | None:
        """The innermost step being resolved, if any."""
        return self.steps[-1] if self.steps else None

    @property
    def attack(self) -> AttackAction | None:
        """The attack being resolved (an Intercept included), when it is the innermost step."""
        return self.step if isinstance(self.step, AttackAction) else None

    @property
    def move(self) -> MoveAction | None:
        """The Move being resolved, at any depth (its Intercept may stand above it)."""
        return next((s for s in self.steps if isinstance(s, MoveAction)), None)

    @property
    def aid(self) -> AidAction | None:
        return self.step if isinstance(self.step, AidAction) else None

    def waiting_for(self) -> tuple[Prompt, ...]:
        """What the fight waits for right now, and from whom."""
        return self.prompts

    def fighter(self, name_or_key: str) -> Fighter:
        key = name_key(name_or_key)
        for f in self.fighters:
            if f.key == key:
                return f
        raise RuleError(f"There is no fighter called {name_or_key.strip()!r} in this combat.")

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
