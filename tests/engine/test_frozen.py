"""engine.frozen: the engine's frozen values copy as pydantic's own ``model_copy`` does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from engine.combat import Attack
from engine.frozen import FrozenModel
from tests.engine.combat.helpers import P1, duel, knife, pistol, run


def models(value: Any) -> Iterator[FrozenModel]:
    """Every frozen model in ``value``, itself included, depth first."""
    if isinstance(value, FrozenModel):
        yield value
        for field in type(value).model_fields:
            yield from models(getattr(value, field))
    elif isinstance(value, tuple):
        for item in value:
            yield from models(item)


def a_fight_mid_attack() -> list[FrozenModel]:
    """The models of a fight with an attack being resolved (its rolls, its hits)."""
    c = duel(pistol("Ana"), knife("Goon", npc=True))
    c, _ = run(c, Attack(fighter="Ana", target="Goon", weapon="Pistol"), actor=P1)
    return list(models(c))


def state(model: BaseModel) -> tuple[object, ...]:
    return (type(model), model.__dict__, model.__pydantic_fields_set__,
            model.__pydantic_extra__, model.__pydantic_private__)


@pytest.mark.parametrize("update", [None, {}, "first field", "every field"])
def test_a_copy_is_what_pydantic_copies(update: str | dict[str, object] | None) -> None:
    found = a_fight_mid_attack()
    assert {type(m).__name__ for m in found} >= {"Combat", "Fighter", "Character", "Item",
                                                "AttackAction", "Check"}
    for model in found:
        fields = list(type(model).model_fields)
        given: dict[str, object] | None
        if update == "first field":
            given = {fields[0]: getattr(model, fields[0])}
        elif update == "every field":
            given = {name: getattr(model, name) for name in fields}
        else:
            given = update  # type: ignore[assignment]
        ours = model.model_copy(update=given)
        theirs = BaseModel.model_copy(model, update=given)
        assert state(ours) == state(theirs) and ours == theirs == model
        assert ours.__pydantic_fields_set__ is not model.__pydantic_fields_set__
        assert ours.__dict__ is not model.__dict__


def test_a_copy_takes_the_new_values_and_leaves_the_old_as_they_were() -> None:
    fighter = next(m for m in a_fight_mid_attack() if type(m).__name__ == "Fighter")
    before = fighter.model_dump()
    moved = fighter.model_copy(update={"area": "Bar", "actions": 0})
    assert (moved.area, moved.actions) == ("Bar", 0)
    assert {"area", "actions"} <= moved.model_fields_set
    assert fighter.model_dump() == before
    with pytest.raises(Exception, match="frozen"):
        moved.area = "Kitchen"  # type: ignore[misc]
