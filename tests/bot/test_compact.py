"""A fight's state kept small in memory: its models share their field-name sets, and states
on one map share the map's text; nothing else about the state changes."""

from __future__ import annotations

from pydantic import BaseModel

from bot.store.compact import compact_state
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
