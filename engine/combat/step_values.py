"""The values of the steps a fight resolves (``Combat.steps``, innermost last): a declared
Attack (004 "Attack"; an Intercept, 004 "Intercept", is an attack pushed above its Move), a
Move (004 "Move"; Speed's second step, 004 "Abilities": Speed), a First Aid (004 "First Aid"),
a leader's rally (004 "Leader") and an AoE attack and its Continuous damage (004 "Abilities":
AoE), with what they carry: the weapon, the reactors, the rolls and the hits.

Each step's ``kind`` literal is what tells the steps apart in a stored fight's JSON.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from engine.dice import Roll
from engine.frozen import FrozenModel

__all__ = [
    "UNARMED",
    "AidAction",
    "AnyStep",
    "AoEAction",
    "AoETarget",
    "AoEWound",
    "AttackAction",
    "ContinuousBurn",
    "Direction",
    "Hit",
    "MoveAction",
    "RallyAction",
    "Reactor",
    "RollState",
    "Step",
    "Weapon",
]

UNARMED = "unarmed"  # the name and kind of the Weapon of a fighter with no weapon in hand



class Direction(FrozenModel):
    """A leader's direction waiting on a teammate (004 "Leader": Direct): the teammate's next
    action costs none of their own. ``extra``: it used the leader's action that can only
    direct (from initiative), which is what the leader gets back on a refusal."""

    by: str  # the leader's key
    leader: str = ""  # the leader's name, to say whose direction is taken
    extra: bool = False


class Weapon(FrozenModel):
    """What an attack is made with: an item in hand, or ``unarmed``."""

    name: str  # item name, or UNARMED
    kind: str  # item kind id, or UNARMED
    mark: Literal["\\", "X"] = "\\"


class Reactor(FrozenModel):
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


class RollState(FrozenModel):
    fighter: str
    purpose: Literal[
        "attack", "defend", "counterattack", "initiative", "first_aid", "move", "rally"
    ]
    roll: Roll
    good: bool = False  # the roller may re-roll (a good ability applies)
    reroll_decided: bool = False


class Hit(FrozenModel):
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


class AttackAction(FrozenModel):
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
    direction: Direction | None = None  # the direction the attacker acted on, if any
    destroying: tuple[str, ...] = ()  # rollers whose critical may still destroy a target's item

    @property
    def window_open(self) -> bool:
        return not self.rolled and any(r.answer is None for r in self.reactors)

    @property
    def involved(self) -> set[str]:
        return {self.attacker, self.target, *(r.fighter for r in self.reactors)}


class MoveAction(FrozenModel):
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
    direction: Direction | None = None  # the direction the mover acted on, if any

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


class AidAction(FrozenModel):
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
    # location -> \ erased (success) or X made ■ (critical failure); pydantic copies a default
    plan: dict[str, int] = {}  # noqa: RUF012
    due: int | None = None  # critical failure: how many X must become ■

    @property
    def window_open(self) -> bool:
        return False

    @property
    def involved(self) -> set[str]:
        return {self.treater, self.target}


class RallyAction(FrozenModel):
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


class AoEWound(FrozenModel):
    """AoE damage one character takes: its player spreads it over locations (one point per
    answer), then says whether armor takes the damage at each location that has some."""

    fighter: str
    amount: int
    plan: dict[str, int] = {}  # noqa: RUF012  location id -> points placed there
    armor: tuple[str, ...] = ()  # locations where armor takes that location's points
    kept: tuple[str, ...] = ()  # locations where the damage is taken despite armor
    done: bool = False

    @property
    def placed(self) -> int:
        return sum(self.plan.values())


class AoETarget(FrozenModel):
    """A Blast's target: whether it Defends (``answer``), and its roll when it does."""

    fighter: str
    answer: Literal["defend", "pass"] | None = None
    free: bool = False  # All-Out Defend: the Defend spends no action
    roll: RollState | None = None


class AoEAction(FrozenModel):
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
    deadline: float | None = None  # when the targets' chance to Defend closes by itself
    rolled: bool = False  # the Defends are rolled
    outcome_done: bool = False
    wounds: tuple[AoEWound, ...] = ()

    @property
    def window_open(self) -> bool:
        return False

    @property
    def involved(self) -> set[str]:
        return {self.attacker, *(t.fighter for t in self.targets)}


class ContinuousBurn(FrozenModel):
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


#: Any one step, for annotations (``Step`` is the same union as a stored field reads it).
AnyStep = AttackAction | MoveAction | AidAction | RallyAction | AoEAction | ContinuousBurn

#: What the fight is in the middle of, innermost last (an Intercept stands above its Move).
Step = Annotated[AnyStep, Field(discriminator="kind")]
