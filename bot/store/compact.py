"""Keeping a fight's state small in memory.

Pydantic gives every model instance its own ``__pydantic_fields_set__`` (the names of the
fields given when it was built): a set of 20 names is 2.2 KB, more than the fighter's own
values, and a state of 6 fighters holds about 40 of them (35 of its 55 KB). The models of a
state are frozen, and pydantic never changes a frozen model's set in place (``model_copy``
copies it first), so instances with the same set can share one. The map's text, the same for
every fight on that map, is shared the same way.
"""

from __future__ import annotations

import sys
from functools import cache
from typing import Any, get_args

from pydantic import BaseModel

from engine.combat import Combat

__all__ = ["compact_state"]

_FIELD_SETS: dict[tuple[type[BaseModel], frozenset[str]], set[str]] = {}
#: The ids of the shared sets (they live as long as the process): a model holding one was
#: compacted with everything in it, so it is not visited again.
_SHARED: set[int] = set()


def compact_state(state: Combat) -> Combat:
    """``state``, its frozen models sharing their field-name sets and its map text with every
    other state's. The parts of a step's state that it shares with the state before it are
    compact already and are not visited again; a model left out (a state not compacted) is
    compacted with the next state that holds it."""
    state.__dict__["map_text"] = sys.intern(state.map_text)
    _share(state)
    return state


def _share(model: BaseModel) -> None:
    names = model.__pydantic_fields_set__
    if id(names) in _SHARED or not model.model_config.get("frozen"):
        return
    key = (type(model), frozenset(names))
    shared = _FIELD_SETS.get(key)
    if shared is None:
        shared = _FIELD_SETS[key] = set(names)
        _SHARED.add(id(shared))
    object.__setattr__(model, "__pydantic_fields_set__", shared)
    values = model.__dict__
    for name in _nested_fields(type(model)):
        value = values[name]
        if isinstance(value, BaseModel):
            _share(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, BaseModel):
                    _share(item)


@cache
def _nested_fields(model: type[BaseModel]) -> tuple[str, ...]:
    """The fields of ``model`` whose type can hold a model (the others, numbers and names,
    are not looked at on every step)."""
    return tuple(name for name, field in model.model_fields.items()
                 if _may_hold_models(field.annotation))


def _may_hold_models(annotation: Any) -> bool:
    if annotation is Any or annotation is object:
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return True
    return any(_may_hold_models(arg) for arg in get_args(annotation))
