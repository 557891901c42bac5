"""Combat commands: one pydantic model per command, one discriminated union to log them as JSON.

>>> cmd = command_adapter.validate_json('{"kind": "attack", "fighter": "Ana", "target": "Bob"}')
>>> type(cmd).__name__, cmd.lethal
('Attack', True)
>>> command_adapter.dump_python(Done(), mode="json")
{'kind': 'done', 'team': None}
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from engine.character import Character
from engine.combat.order_values import OrderedReaction, Situation

__all__ = [
    "AddFighter",
    "AddFighters",
    "AidMark",
    "AllOutDefend",
    "Answers",
    "AoE",
    "AoEChoice",
    "Armor",
    "Attack",
    "Begin",
    "BetweenTurnsDeadline",
    "ChooseDice",
    "ChooseOrder",
    "ChooseRoller",
    "CloseWindow",
    "Command",
    "CriticalChoice",
    "DestroyItem",
    "Direct",
    "Done",
    "Door",
    "EndCombat",
    "ExtendTurn",
    "FirstAid",
    "GMSet",
    "ManageItems",
    "Modifier",
    "Move",
    "Rally",
    "React",
    "Rearrange",
    "RefuseDirection",
    "RemoveFighter",
    "Reroll",
    "SetOrder",
    "StopArea",
    "Surrender",
    "TurnDeadline",
    "command_adapter",
]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class AddFighter(_Command):
    kind: Literal["add_fighter"] = "add_fighter"
    character: Character
    area: str
    team: str | None = None  # default: actions.setup.default_team, in English
    owner_id: int | None = None
    character_id: int | None = None


class AddFighters(_Command):
    """Several fighters join in one step (a GM placing a group): all of them, or, when one of
    them is refused, none."""

    kind: Literal["add_fighters"] = "add_fighters"
    fighters: tuple[AddFighter, ...] = Field(min_length=1)


class RemoveFighter(_Command):
    kind: Literal["remove_fighter"] = "remove_fighter"
    fighter: str


class Begin(_Command):
    kind: Literal["begin"] = "begin"


class ChooseOrder(_Command):
    """The initiative winner's order of teams (004 "Initiative"). ``first_team``: the team to
    go first; ``order``: the next teams in order, after those already chosen (one button press
    gives one; the GM's ``/combat order`` may give them all). When one team is left it goes
    last, so with two teams one choice makes the whole order."""

    kind: Literal["choose_order"] = "choose_order"
    first_team: str = ""
    order: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _one_way(self) -> ChooseOrder:
        if bool(self.first_team.strip()) == bool(self.order):
            raise ValueError("give either first_team or order")
        return self


class ChooseRoller(_Command):
    """Who rolls initiative for a team whose highest level is shared (004 "Initiative": "it's
    up to that team who rolls"): one of the tied fighters, named by name or key."""

    kind: Literal["choose_roller"] = "choose_roller"
    fighter: str


class Attack(_Command):
    kind: Literal["attack"] = "attack"
    fighter: str
    target: str
    weapon: str | None = None
    lethal: bool = True


class AoE(_Command):
    """An AoE attack on an area with the AoE item in both hands (``item``: its name; None:
    the one held), for the AoE ability the item is for (004 "Abilities": AoE)."""

    kind: Literal["aoe"] = "aoe"
    fighter: str
    area: str
    item: str | None = None


class AoEChoice(_Command):
    """One answer to what an AoE asks: the die (tens, ones), a Blast's target (a name),
    defend or pass, a location for one point of damage, use or keep armor."""

    kind: Literal["aoe_choice"] = "aoe_choice"
    fighter: str
    option: str


class Move(_Command):
    """One step to ``to``; with ``then``, a Speed move: a roll, and on a success a second step
    from ``to`` to ``then`` (004 "Abilities": Speed)."""

    kind: Literal["move"] = "move"
    fighter: str
    to: str
    then: str | None = None


class StopArea(_Command):
    """The interceptor who stopped the mover says where it ends: one of the two areas, or
    ``StopArea.GO_ON`` (an empty text, never an area's name) to let it go on, when stopping
    was the interceptor's choice and a second step follows."""

    GO_ON: ClassVar[str] = ""

    kind: Literal["stop_area"] = "stop_area"
    fighter: str  # the interceptor who stopped the mover
    area: str


class Door(_Command):
    kind: Literal["door"] = "door"
    fighter: str
    other: str  # the area on the other side of the door
    open: bool


class FirstAid(_Command):
    """First aid on ``target``. ``sure``: True takes the First Aid ability's sure success
    instead of rolling, False rolls; None rolls, or asks first when the treater has that
    ability."""

    kind: Literal["first_aid"] = "first_aid"
    fighter: str
    target: str
    sure: bool | None = None


class AidMark(_Command):
    """A choice about a First Aid: ``option`` is ``roll``/``sure`` (the treater, before the
    roll: roll, or the ability's sure success), ``tens``/``ones`` (the treater: the die for
    boxes), a location id (the treated: erase a \\ there, or make an X there ■) or ``done``
    (erase no more)."""

    kind: Literal["aid_mark"] = "aid_mark"
    fighter: str
    option: str


class ManageItems(_Command):
    """Use or manage items (004 "Use or manage items").

    ``hold`` puts an item in a hand (what is in the way is stowed), ``stow`` empties a hand
    (``hand`` None: both), ``pickup`` takes an item this fighter dropped in their area back into
    a hand: each is one action, a whole rearrangement. ``drop`` lets go of what a hand holds
    (or the named item) and is free. ``use`` uses an item in hand, or a thing noted on the
    fighter's area of the map, for something other than an attack: one action.
    """

    kind: Literal["items"] = "items"
    fighter: str
    op: Literal["hold", "stow", "pickup", "drop", "use"]
    item: str | None = None  # an item name; for ``use``, an item in hand or an area note
    hand: Literal["right", "left", "both"] | None = None


class Rearrange(_Command):
    """Set both hands in one action (004 "Use or manage items": "Rearranging which items are
    in your hands, including picking items up or stowing away items, takes a total of one
    action").

    Each hand is ``None`` (leave it as it is), ``Rearrange.EMPTY`` (stow what it holds) or an
    item's name: held from the pack, or picked up from the floor of the fighter's area. A
    two-handed item named for one hand takes both (leave the other as it is, or name it
    twice). Whatever the hands named hold before, and is not named again, is stowed.
    """

    EMPTY: ClassVar[str] = ""  # never an item's name (those have 1-40 characters)

    kind: Literal["rearrange"] = "rearrange"
    fighter: str
    right: str | None = None
    left: str | None = None


class Rally(_Command):
    """A leader rallies the team (004 "Leader"): one action, once per combat; or, at the end of
    combat, no action. ``skip``: at the end, the leader lets the fight end without rallying."""

    kind: Literal["rally"] = "rally"
    fighter: str
    skip: bool = False


class Direct(_Command):
    """A leader directs a teammate (004 "Leader"): the leader's action, and the teammate's next
    action costs none of their own (unless they refuse)."""

    kind: Literal["direct"] = "direct"
    fighter: str  # the leader
    target: str  # the teammate directed


class RefuseDirection(_Command):
    """A directed fighter refuses the direction: the leader gets the action back."""

    kind: Literal["refuse_direction"] = "refuse_direction"
    fighter: str


class Done(_Command):
    kind: Literal["done"] = "done"
    team: str | None = None


class React(_Command):
    kind: Literal["react"] = "react"
    fighter: str
    reaction: Literal["defend", "counterattack", "intercept", "pass"]
    weapon: str | None = None  # addition: the item to counterattack with (default: the first fit)
    lethal: bool = True  # False: a less-lethal Counterattack or Intercept (004 "Less-lethal")
    target: str | None = None  # a Defend: whom it is for (checked against the attack's target)


class AllOutDefend(_Command):
    """Shield: All-Out Defend (004 "Abilities": Shield), declared after initiative and before
    any action of the round."""

    kind: Literal["all_out_defend"] = "all_out_defend"
    fighter: str


class CloseWindow(_Command):
    kind: Literal["close_window"] = "close_window"
    by_timeout: bool = False


class TurnDeadline(_Command):
    """The clock: the acting team's turn has reached its deadline (``engine.combat.pace``)."""

    kind: Literal["turn_deadline"] = "turn_deadline"


class BetweenTurnsDeadline(_Command):
    """The clock: the questions between turns (initiative, the order, the rallies at the
    end) have reached their deadline (``engine.combat.between_turns``)."""

    kind: Literal["between_turns_deadline"] = "between_turns_deadline"


class ExtendTurn(_Command):
    """A GM gives the acting team more time: ``seconds`` (None: the fight's turn length)."""

    kind: Literal["extend_turn"] = "extend_turn"
    seconds: int | None = None


class Reroll(_Command):
    kind: Literal["reroll"] = "reroll"
    fighter: str
    which: Literal["tens", "ones", "both", "keep"]


class CriticalChoice(_Command):
    """What a critical success gives: an extra action, an adjustment (to ``value``), or what
    an ability offers in place of the extra action (1H Melee: the target loses an action)."""

    kind: Literal["critical_choice"] = "critical_choice"
    fighter: str
    choice: Literal["extra_action", "adjust", "target_loses_action"]
    value: int | None = None


class DestroyItem(_Command):
    """2H Melee's critical success: destroy one of the target's items (``item``: its number
    on the sheet, 1-based) or ``none``."""

    kind: Literal["destroy_item"] = "destroy_item"
    fighter: str  # the roller
    item: str


class ChooseDice(_Command):
    kind: Literal["choose_dice"] = "choose_dice"
    fighter: str  # the chooser
    damage: Literal["tens", "ones"]


class Modifier(_Command):
    kind: Literal["modifier"] = "modifier"
    fighter: str
    use: Literal["precise+1", "precise-1", "powerful", "none"]


class Armor(_Command):
    kind: Literal["armor"] = "armor"
    fighter: str
    use: bool


class Surrender(_Command):
    kind: Literal["surrender"] = "surrender"
    fighter: str


class EndCombat(_Command):
    kind: Literal["end_combat"] = "end_combat"


class GMSet(_Command):
    kind: Literal["gm_set"] = "gm_set"
    fighter: str
    level: int | None = None
    area: str | None = None
    actions: int | None = None
    marks: dict[str, str] | None = None
    hidden: bool | None = None  # Stealth: hidden or not (only for a fighter with Stealth)


class SetOrder(_Command):
    """``fighter``'s standing order in ``situation`` (``reaction`` None: cleared): what it
    answers when a reaction window closes on time without its answer."""

    kind: Literal["set_order"] = "set_order"
    fighter: str
    situation: Situation
    reaction: OrderedReaction | None = None
    item: str | None = None  # a Defend's shield


#: The most answers one ``Answers`` carries (a fight's fighters, with room to spare).
MOST_ANSWERS = 100


class Answers(_Command):
    """Several answers given at once, as the GM answering every Goon's Defend alike: each is
    applied in turn, exactly as if sent one after another, and one refused refuses them all
    (nothing changes). Answers do not nest."""

    kind: Literal["answers"] = "answers"
    answers: tuple[Command, ...] = Field(min_length=1, max_length=MOST_ANSWERS)


Command = Annotated[
    AddFighter
    | AddFighters
    | RemoveFighter
    | Begin
    | ChooseOrder
    | ChooseRoller
    | Attack
    | AoE
    | AoEChoice
    | Move
    | StopArea
    | Door
    | FirstAid
    | AidMark
    | ManageItems
    | Rearrange
    | Rally
    | Direct
    | RefuseDirection
    | Done
    | React
    | AllOutDefend
    | CloseWindow
    | TurnDeadline
    | BetweenTurnsDeadline
    | ExtendTurn
    | Reroll
    | CriticalChoice
    | DestroyItem
    | ChooseDice
    | Modifier
    | Armor
    | Surrender
    | EndCombat
    | GMSet
    | SetOrder
    | Answers,
    Field(discriminator="kind"),
]
Answers.model_rebuild()

command_adapter: TypeAdapter[Command] = TypeAdapter(Command)
