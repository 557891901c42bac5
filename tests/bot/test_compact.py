"""A fight's state kept small in memory: its models share their field-name sets and keep
their values in key-sharing dicts, equal values within a state are one instance, states on one
map share the map's text, and fights read from the database share their short strings; nothing
else about the state changes."""

from __future__ import annotations

import sys

from pydantic import BaseModel

from bot.store.compact import compact_read_state, compact_state
from bot.store.rows import COMBAT_COLUMNS, stored_combat
from engine.character import Character
from engine.combat import Attack, Combat
from tests.engine.combat.helpers import P1, duel, go, knife


def _models(model: BaseModel) -> list[BaseModel]:
    found = [model]
    for value in model.__dict__.values():
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, BaseModel):
                found += _models(item)
    return found


def _loaded() -> Combat:
    state = duel(knife("Ana"), knife("Goon", npc=True))
    return Combat.model_validate_json(state.model_dump_json())


def test_two_loaded_states_share_their_field_sets_and_map_and_stay_the_same() -> None:
    one, two = _loaded(), _loaded()
    text = one.model_dump_json()
    compact_state(one), compact_state(two)
    assert one.model_dump_json() == text and one == two
    assert one.map_text is two.map_text
    for a, b in zip(_models(one), _models(two), strict=True):
        assert a.model_fields_set is b.model_fields_set


def test_a_step_from_a_compact_state_leaves_the_shared_sets_alone() -> None:
    before = compact_state(_loaded())
    sets = [(m, set(m.model_fields_set)) for m in _models(before)]
    after = compact_state(go(before, Attack(fighter="Ana", target="Goon"), actor=P1))
    assert all(m.model_fields_set == names for m, names in sets)
    assert after.fighters[1].character.model_fields_set is (
        before.fighters[1].character.model_fields_set)


def test_equal_values_within_a_loaded_state_are_one_instance_and_the_state_the_same() -> None:
    one, two = _loaded(), _loaded()
    text = one.model_dump_json()
    compact_read_state(one), compact_read_state(two)
    ana, goon = one.fighters
    assert ana.character.items[0] is goon.character.items[0]  # the same knife, once
    assert ana.tally is goon.tally  # nothing done yet: the same tally
    assert ana.character is not goon.character  # (a value that holds others: kept apart)
    assert one.model_dump_json() == text and one == two
    assert two.fighters[0].tally is not ana.tally  # only within a state


def _plain_size(model: BaseModel) -> int:
    return sys.getsizeof(dict(model.__dict__))


def test_a_compact_state_keeps_each_models_values_in_less_room_and_the_same() -> None:
    state = _loaded()
    text, plain = state.model_dump_json(), {id(m): _plain_size(m) for m in _models(state)}
    compact_state(state)
    assert state.model_dump_json() == text and state == _loaded()
    for model in _models(state):
        smaller = sys.getsizeof(model.__dict__) < plain[id(model)]
        assert smaller is (len(type(model).model_fields) >= 6), type(model).__name__
        assert list(model.__dict__) == list(type(model).model_fields)


def test_a_step_from_a_compact_state_plays_as_from_a_plain_one_and_compacts_too() -> None:
    attack = Attack(fighter="Ana", target="Goon")
    plain = go(_loaded(), attack, actor=P1)
    after = compact_state(go(compact_read_state(_loaded()), attack, actor=P1))
    assert after == plain and after.model_dump_json() == plain.model_dump_json()
    for model in _models(after):
        if len(type(model).model_fields) >= 6:
            assert sys.getsizeof(model.__dict__) < _plain_size(model), type(model).__name__


def _row(state: Combat, channel_id: int) -> dict[str, object]:
    row: dict[str, object] = dict.fromkeys(name.strip() for name in COMBAT_COLUMNS.split(","))
    row.update(id=channel_id, guild_id=1, channel_id=channel_id, map_name="Nightclub",
               state=state.model_dump_json(), version=3, shown_version=3, pin=0, reminded="[]")
    return row


def test_fights_read_from_the_database_share_their_names_teams_and_areas() -> None:
    state = _loaded()
    one, two = (stored_combat(_row(state, channel)).state for channel in (10, 11))
    assert one == two == state
    for a, b in zip(one.fighters, two.fighters, strict=True):
        assert a.name is b.name and a.team is b.team and a.area is b.area
        assert a.character.name is b.character.name
    assert one.fighters[0].team is one.teams[0]


def test_unhurt_characters_share_their_empty_wounds_and_hurt_ones_keep_their_own() -> None:
    ana, bea = Character.new("Ana"), Character.new("Bea")
    assert ana.wounds is bea.wounds and dict(ana.wounds) == {}
    hurt = Character.model_validate({**dict(ana), "wounds": {"head": "X"}})
    assert dict(hurt.wounds) == {"head": "X"} and dict(ana.wounds) == {}
    assert Character.model_validate_json(hurt.model_dump_json()) == hurt
