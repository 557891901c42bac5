"""Custom ids spelled once: every persistent item's and form's template and the ids it builds
come from one spec; ids the bot built before still match and read back the same (buttons
already posted in Discord, and forms left open, keep working); no id can be two items' (``cp:``
is two items' prefix), nor two forms'."""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import re
from typing import Any

import discord
import pytest

import bot.cogs
from bot.cogs import dice
from bot.cogs.characters import creation, listing, panel, transfer
from bot.cogs.characters import delete as character_delete
from bot.cogs.combat import (
    catchup,
    hands,
    one_by_one,
    orders,
    recap,
    recovery,
    turn,
    turn_deadline,
    views,
)
from bot.cogs.help import paging as help_paging
from bot.cogs.maps import delete as map_delete
from bot.cogs.maps import form as map_form
from bot.custom_ids import CustomId, choice, digits, eight_hex, optional, word


def item_classes() -> list[type[Any]]:
    """Every persistent item of the bot (the cogs are imported above)."""
    found: set[type[Any]] = set()
    waiting: list[type[Any]] = list(discord.ui.DynamicItem.__subclasses__())
    while waiting:
        cls = waiting.pop()
        waiting.extend(cls.__subclasses__())
        if cls.__module__.startswith("bot."):
            found.add(cls)
    # A module imported twice (as the doctests may) leaves two copies of its classes: one each.
    return list({named(c): c for c in sorted(found, key=named)}.values())


def named(cls: type[Any]) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


#: Ids as the bot built them before the specs (literal), with the fields they carry.
BUILT_BEFORE: list[tuple[type[Any], str, dict[str, str | None]]] = [
    (dice.RollButton, "roll:42:tens", {"id": "42", "action": "tens"}),
    (dice.RollButton, "roll:123456789012345678:adjust",
     {"id": "123456789012345678", "action": "adjust"}),
    (turn.TurnButton, "turn:done:7:3:1", {"what": "done", "combat": "7", "round": "3",
                                          "turn": "1"}),
    (turn.OptionsMenu, "mo:7:2:0badf00d:attack", {"combat": "7", "fighter": "2",
                                                  "stamp": "0badf00d", "menu": "attack"}),
    (turn.FighterMenu, "mo-who:7", {"combat": "7"}),
    (views.CombatButton, "cb:7:12:react:0:3", {"combat": "7", "version": "12",
                                               "kind": "react", "option": "0", "fighter": "3"}),
    (views.CombatButton, "cb:7:12:resolve::", {"combat": "7", "version": "12",
                                               "kind": "resolve", "option": "",
                                               "fighter": ""}),
    (views.CombatMenu, "cm:7:12:aoe_place:4:1", {"combat": "7", "version": "12",
                                                 "kind": "aoe_place", "fighter": "4",
                                                 "part": "1"}),
    (views.CombatMenu, "cm:7:12:choose_order::0", {"combat": "7", "version": "12",
                                                   "kind": "choose_order", "fighter": "",
                                                   "part": "0"}),
    (views.TogetherButton, "ct:7:12:aoe_defend:1:3", {"combat": "7", "version": "12",
                                                      "kind": "aoe_defend", "option": "1",
                                                      "fighter": "3"}),
    (one_by_one.OneByOneMenu, "co:7:12:aoe_defend:0", {"combat": "7", "version": "12",
                                                       "kind": "aoe_defend", "part": "0"}),
    (one_by_one.PanelButton, "cp:7:12:aoe_armor:2:5", {"combat": "7", "version": "12",
                                                       "kind": "aoe_armor", "option": "2",
                                                       "fighter": "5"}),
    (one_by_one.PanelMenu, "pm:7:12:aoe_place:5:0", {"combat": "7", "version": "12",
                                                     "kind": "aoe_place", "fighter": "5",
                                                     "part": "0"}),
    (recovery.RecoverButton, "recover:5:3", {"character": "5", "version": "3", "made": None,
                                             "hurt": None}),
    (recovery.RecoverButton, "recover:5:3:0badf00d", {"character": "5", "version": "3",
                                                      "made": "0badf00d", "hurt": None}),
    (recovery.RecoverButton, "recover:5:3:0badf00d:12ab34cd",
     {"character": "5", "version": "3", "made": "0badf00d", "hurt": "12ab34cd"}),
    (recap.LogFileButton, "fightlog:7", {"combat": "7"}),
    (catchup.CatchUpButton, "catchup:7", {"combat": "7"}),
    (turn_deadline.DeadlineButton, "deadline:extend:7:3:1", {"what": "extend", "combat": "7",
                                                           "round": "3", "turn": "1"}),
    (hands.HandsMenu, "ihs:7:2:0badf00d:r:e:3", {"combat": "7", "fighter": "2",
                                                 "stamp": "0badf00d", "hand": "r",
                                                 "right": "e", "left": "3"}),
    (hands.HandsApply, "iha:7:2:0badf00d:3:e", {"combat": "7", "fighter": "2",
                                                "stamp": "0badf00d", "right": "3",
                                                "left": "e"}),
    (orders.OrdersMenu, "ord:7:2:0badf00d:m", {"combat": "7", "fighter": "2",
                                              "stamp": "0badf00d", "situation": "m"}),
    (orders.OrdersFighterMenu, "ord-who:7", {"combat": "7"}),
    (listing.ListPageButton, "character-list:-1:previous", {"page": "-1", "way": "previous"}),
    (listing.ListPageButton, "character-list:2:next", {"page": "2", "way": "next"}),
    (panel.PanelMenu, "cp:hold:5:0badf00d:0", {"part": "hold", "id": "5",
                                               "stamp": "0badf00d", "n": "0"}),
    (panel.GoodAtButton, "cp:good:5:0badf00d", {"id": "5", "stamp": "0badf00d"}),
    (panel.OpenPanelButton, "cp:open:5:0badf00d", {"id": "5", "stamp": "0badf00d"}),
    (character_delete.DeleteCharacterButton, "character-delete:5:0badf00d:delete",
     {"id": "5", "stamp": "0badf00d", "action": "delete"}),
    (help_paging.HelpPageButton, "help:by_post:next", {"page": "by_post", "way": "next"}),
    (help_paging.HelpPageButton, "help:start:previous", {"page": "start", "way": "previous"}),
    (map_delete.DeleteMapButton, "map-delete:5:0badf00d:99:keep",
     {"id": "5", "stamp": "0badf00d", "by": "99", "action": "keep"}),
]


def test_every_item_takes_its_template_from_its_spec() -> None:
    classes = item_classes()
    assert len(classes) >= 20
    for cls in classes:
        assert "id_spec" in vars(cls), cls  # (a subclass gives its own)
        assert cls.__discord_ui_compiled_template__ is cls.id_spec.template  # type: ignore[attr-defined]


def test_every_item_has_an_id_built_before() -> None:
    assert {named(cls) for cls, _, _ in BUILT_BEFORE} == set(map(named, item_classes()))


@pytest.mark.parametrize(("cls", "custom_id", "fields"), BUILT_BEFORE,
                         ids=[custom_id for _, custom_id, _ in BUILT_BEFORE])
async def test_an_id_built_before_still_reads_the_same(
        cls: Any, custom_id: str, fields: dict[str, str | None]) -> None:
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    assert match.groupdict() == fields
    assert cls.id_spec.format(**fields) == custom_id
    # The item the press rebuilds from the id carries that very id.
    item = await cls.from_custom_id(None, None, match)
    assert item.custom_id == custom_id


def test_no_id_is_two_items() -> None:
    specs = {cls: cls.id_spec for cls in item_classes()}
    examples = {cls: spec.examples() for cls, spec in specs.items()}
    for cls, spec in specs.items():
        assert examples[cls]
        assert all(spec.template.fullmatch(e) for e in examples[cls])
    for mine, theirs in itertools.permutations(specs, 2):
        spec = specs[mine]
        caught = [e for e in examples[theirs] if spec.template.fullmatch(e)]
        assert not caught, f"{mine.__qualname__} would answer {theirs.__qualname__}'s {caught[0]}"


def test_the_ids_built_before_are_each_one_items() -> None:
    for cls, custom_id, _ in BUILT_BEFORE:
        matching = [c for c in item_classes()
                    if c.__discord_ui_compiled_template__.fullmatch(custom_id)]  # type: ignore[attr-defined]
        assert [named(c) for c in matching] == [named(cls)]


#: Form ids as the bot built them before the specs (literal): the pattern the form's submit
#: is answered by, the spec that builds them, the id and the fields it carries.
FORMS_BUILT_BEFORE: list[tuple[re.Pattern[str], CustomId, str, dict[str, str]]] = [
    (dice.ADJUST_MODAL_ID, dice.ADJUST_FORM_SPEC, "roll-adjust:123456789012345678",
     {"id": "123456789012345678"}),
    (views.ADJUST_MODAL_ID, views.ADJUST_FORM_SPEC, "cb-adjust:7:12:3",
     {"combat": "7", "version": "12", "fighter": "3"}),
    (creation.CREATE_MODAL_ID, creation.CREATE_FORM_SPEC, "character-create:1:12:0badf00d",
     {"npc": "1", "level": "12", "nonce": "0badf00d"}),
    (transfer.IMPORT_MODAL_ID, transfer.IMPORT_FORM_SPEC, "character-import:0123456789abcdef",
     {"nonce": "0123456789abcdef"}),
    (panel.GOOD_AT_FORM, panel.GOOD_AT_FORM_SPEC, "cp-good:5:0badf00d:12ab34cd",
     {"id": "5", "stamp": "0badf00d", "nonce": "12ab34cd"}),
    (panel.ITEM_FORM, panel.ITEM_FORM_SPEC, "cp-item:5:0badf00d:melee_1h:12ab34cd",
     {"id": "5", "stamp": "0badf00d", "kind": "melee_1h", "nonce": "12ab34cd"}),
    (map_form.MAP_FORM_ID, map_form.NEW_MAP_FORM_SPEC, "map-text:new:Old docks",
     {"name": "Old docks"}),
    (map_form.MAP_FORM_ID, map_form.EDIT_MAP_FORM_SPEC,
     "map-text:edit:5:0badf00d:12ab34cd:Docks: east", {"id": "5", "stamp": "0badf00d",
                                                        "version": "12ab34cd",
                                                        "edited": "Docks: east"}),
    (map_form.MAP_FORM_ID, map_form.OLD_MAP_FORM_SPEC, "map-text:0123456789abcdef",
     {"old": "0123456789abcdef"}),
]


@pytest.mark.parametrize(("pattern", "spec", "custom_id", "fields"), FORMS_BUILT_BEFORE,
                         ids=[custom_id for _, _, custom_id, _ in FORMS_BUILT_BEFORE])
def test_a_form_id_built_before_still_reads_the_same(
        pattern: re.Pattern[str], spec: CustomId, custom_id: str, fields: dict[str, str]) -> None:
    match = pattern.fullmatch(custom_id)
    assert match is not None
    # The fields of the form's other specs (another way of opening it) are left None.
    assert {name: value for name, value in match.groupdict().items()
            if value is not None} == fields
    assert spec.format(**fields) == custom_id


def form_specs() -> dict[str, CustomId]:
    """Every form id spec of the cogs (``…_FORM_SPEC``), by where it is."""
    found = {}
    for module_info in pkgutil.walk_packages(bot.cogs.__path__, "bot.cogs."):
        module = importlib.import_module(module_info.name)
        for attribute, value in vars(module).items():
            if attribute.endswith("_FORM_SPEC") and isinstance(value, CustomId):
                found[f"{value.prefix} ({module_info.name}.{attribute})"] = value
    return found


def test_every_form_has_an_id_built_before() -> None:
    specs = form_specs()
    assert len(specs) >= 9
    tabled = {spec.template.pattern for _, spec, _, _ in FORMS_BUILT_BEFORE}
    assert {where for where, spec in specs.items() if spec.template.pattern not in tabled} == set()


def test_no_id_is_two_forms() -> None:
    patterns = {pattern for pattern, _, _, _ in FORMS_BUILT_BEFORE}
    answered_by = {spec.template.pattern: pattern for pattern, spec, _, _ in FORMS_BUILT_BEFORE}
    for spec in form_specs().values():
        examples = spec.examples()
        own = answered_by[spec.template.pattern]
        assert examples and all(own.fullmatch(e) for e in examples)
        for other in patterns - {own}:
            caught = [e for e in examples if other.fullmatch(e)]
            assert not caught, f"{other.pattern} would answer {spec.prefix}'s {caught[0]}"


SPEC = CustomId("x", digits("n", 3), word("kind"), eight_hex(), choice("way", "up", "down"),
                optional(digits("more", blank=True)))


def test_format_builds_the_id_its_template_reads() -> None:
    built = SPEC.format(n=12, kind="aoe_place", stamp="0badf00d", way="up", more=None)
    assert built == "x:12:aoe_place:0badf00d:up"
    assert SPEC.template.pattern == (
        r"x:(?P<n>[0-9]{1,3}):(?P<kind>[a-z_]+):(?P<stamp>[0-9a-f]{8}):(?P<way>up|down)"
        r"(?::(?P<more>(?:[0-9]+)?))?")
    assert SPEC.format(n=1, kind="a", stamp="00000000", way="down", more="") == \
        "x:1:a:00000000:down:"


@pytest.mark.parametrize("values", [
    {"n": 1234, "kind": "a", "stamp": "0badf00d", "way": "up", "more": None},  # too many digits
    {"n": 1, "kind": "A", "stamp": "0badf00d", "way": "up", "more": None},
    {"n": 1, "kind": "a", "stamp": "zzzzzzzz", "way": "up", "more": None},
    {"n": 1, "kind": "a", "stamp": "0badf00d", "way": "sideways", "more": None},
    {"n": 1, "kind": "a:b", "stamp": "0badf00d", "way": "up", "more": None},
    {"n": 1, "kind": "a", "stamp": "0badf00d", "way": "up"},  # a field missing
    {"n": 1, "kind": "a", "stamp": "0badf00d", "way": "up", "more": None, "less": 1},
    {"n": 1, "kind": "a" * 90, "stamp": "0badf00d", "way": "up", "more": None},  # > 100
])
def test_format_refuses_what_would_not_read_back(values: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SPEC.format(**values)


def test_an_optional_field_left_out_leaves_the_later_ones_out() -> None:
    spec = CustomId("r", digits("n"), optional(eight_hex("a")), optional(eight_hex("b")))
    with pytest.raises(ValueError):
        spec.format(n=1, a=None, b="0badf00d")  # it would read back as a
    assert spec.examples() == ["r:0:0badf00d:0badf00d", "r:0:0badf00d", "r:0",
                               "r:12:0badf00d:0badf00d", "r:12:0badf00d", "r:12",
                               "r:999999999999999999:0badf00d:0badf00d",
                               "r:999999999999999999:0badf00d", "r:999999999999999999"]
    with pytest.raises(ValueError):
        CustomId("r", optional(digits("n")), digits("m"))
