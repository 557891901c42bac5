r"""An Unhex character and the rules that change it, as pure functions.

A `Character` is a frozen value. Every rule takes one, plus the `Rules` data, and returns a new
character with a small report of what happened; a request the rules refuse raises `RuleError`
with a sentence that can be shown to the player as it is.

>>> from data import load_rules
>>> rules = load_rules()
>>> ana = Character.new("Ana")
>>> ana.level, ana.max_level, slots(ana), ability_limit(ana)
(50, 50, 5, 2)
>>> ana, report = take_damage(ana, 4, 2, rules=rules)
>>> ana.level, ana.marks("right_leg")
(46, '\\\\\\\\')
>>> report.summary.english()
'Ana takes 4 damage to the right leg: level 50 → 46. Marked 4 on the right leg.'
>>> status(ana, rules=rules)
<Status.FINE: 'fine'>

Wounds are kept per location as a string of marks, most severe first (``■``, then ``X``, then
``\``); empty boxes are not stored. The sheet (engine.sheet) draws the boxes.

One module per heading of the rulebook (edition 004); import from ``engine.character`` itself:

- ``model``: the sheet as a value ("Characters", "Level")
- ``advancement``: item slots, the ability limit, advancing ("Advancement")
- ``body``: full locations, usable hands, the legs ("Hit Location")
- ``condition``: fine, unconscious, surrendered or dead; may act, may move ("Unconsciousness",
  "Death")
- ``validation``: a whole sheet checked against the rules data ("Characters")
- ``items``, ``hands``, ``abilities``: ("Items", "Use or manage items", "Abilities")
- ``damage``, ``first_aid``, ``surrender``, ``recovery``: ("Damage", "First aid", "Surrender",
  "Recovery")
- ``story``: the concept, description and non-combat items ("Characters", "Items")
"""

from __future__ import annotations

from engine.character.abilities import (
    AbilityReport,
    abilities_open,
    add_ability,
    add_good_at,
    good_at_matching,
    good_roll,
    has_room,
    remove_ability,
    remove_good_at,
)
from engine.character.advancement import (
    AdvanceReport,
    ability_limit,
    advance,
    slots,
)
from engine.character.body import (
    full_locations,
    usable_hands,
)
from engine.character.condition import (
    Status,
    can_act,
    can_move,
    status,
)
from engine.character.damage import (
    DamageReport,
    armor_covering,
    take_damage,
)
from engine.character.first_aid import (
    FirstAidReport,
    first_aid_critical_failure,
    first_aid_failure,
    first_aid_success,
)
from engine.character.hands import (
    HandsReport,
    hold,
    hold_only,
    stow,
    usable_held,
)
from engine.character.items import (
    ItemRef,
    ItemReport,
    abilities_to_carry,
    add_item,
    destroy_item,
    remove_item,
)
from engine.character.model import (
    HANDS,
    MAX_LEVEL,
    Character,
    Item,
    Mark,
    other_hand,
    rename,
)
from engine.character.recovery import (
    RecoveryReport,
    left_to_recover,
    recover,
)
from engine.character.starting import still_to_choose
from engine.character.story import StoryReport, add_gear, describe, remove_gear
from engine.character.surrender import (
    SurrenderReport,
    surrender,
)
from engine.character.validation import (
    character_from_json,
    character_problems,
    check_character,
)

__all__ = [
    "HANDS",
    "MAX_LEVEL",
    "AbilityReport",
    "AdvanceReport",
    "Character",
    "DamageReport",
    "FirstAidReport",
    "HandsReport",
    "Item",
    "ItemRef",
    "ItemReport",
    "Mark",
    "RecoveryReport",
    "Status",
    "StoryReport",
    "SurrenderReport",
    "abilities_open",
    "abilities_to_carry",
    "ability_limit",
    "add_ability",
    "add_gear",
    "add_good_at",
    "add_item",
    "advance",
    "armor_covering",
    "can_act",
    "can_move",
    "character_from_json",
    "character_problems",
    "check_character",
    "describe",
    "destroy_item",
    "first_aid_critical_failure",
    "first_aid_failure",
    "first_aid_success",
    "full_locations",
    "good_at_matching",
    "good_roll",
    "has_room",
    "hold",
    "hold_only",
    "left_to_recover",
    "other_hand",
    "recover",
    "remove_ability",
    "remove_gear",
    "remove_good_at",
    "remove_item",
    "rename",
    "slots",
    "status",
    "still_to_choose",
    "stow",
    "surrender",
    "take_damage",
    "usable_hands",
    "usable_held",
]
