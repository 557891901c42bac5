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
from typing import Any

from pydantic import BaseModel

from engine.combat import Combat

__all__ = ["compact_state"]

_FIELD_SETS: dict[tuple[type[BaseModel], frozenset[str]], set[str]] = {}


def compact_state(state: Combat, before: Combat | None = None) -> Combat:
    """``state``, its frozen models sharing their field-name sets and its map text with every
    other state's; with ``before`` (the state it was made from, already compact), the parts
    it shares with ``before`` are not visited again."""
    if before is None or state.map_text is not before.map_text:
        state.__dict__["map_text"] = sys.intern(state.map_text)
    _share(state, before)
    return state


def _share(model: BaseModel, before: Any) -> None:
    if model is before or not model.model_config.get("frozen"):
        return
    names = model.__pydantic_fields_set__
    key = (type(model), frozenset(names))
    shared = _FIELD_SETS.get(key)
    if shared is None:
        shared = _FIELD_SETS[key] = set(names)
    if names is not shared:
        object.__setattr__(model, "__pydantic_fields_set__", shared)
    for name, value in model.__dict__.items():
        then = getattr(before, name, None) if type(before) is type(model) else None
        if isinstance(value, BaseModel):
            _share(value, then)
        elif isinstance(value, tuple):
            olds = then if isinstance(then, tuple) and len(then) == len(value) else ()
            for index, item in enumerate(value):
                if isinstance(item, BaseModel):
                    _share(item, olds[index] if olds else None)
