"""Keeping a fight's state small in memory.

Pydantic gives every model instance its own ``__pydantic_fields_set__`` (the names of the
fields given when it was built): a set of 20 names is 2.2 KB, more than the fighter's own
values, and a state of 6 fighters holds about 40 of them (35 of its 55 KB). The models of a
state are frozen, and pydantic never changes a frozen model's set in place (``model_copy``
copies it first), so instances with the same set can share one. The map's text, the same for
every fight on that map, is shared the same way.

Each instance also keeps its values in a ``__dict__`` of its own, which pydantic builds as a
plain dict, a hash table of names and values (464 bytes for a fighter's 21 fields). CPython's
key-sharing dicts keep one table of names per class and only the values in each instance's
dict (240 bytes for a fighter), so a compacted model's values move into one of those; a
``model_copy`` of it copies a key-sharing dict again. A class's table takes names only while
few instances of it were made (CPython leaves room for 30 names in all, less with each new
instance), so the tables of every model a fight holds are filled when this module is imported.
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
#: More blank instances than a class's table of names ever leaves room for (CPython: 30).
_LAYOUT_TRIES = 40


def compact_state(state: Combat) -> Combat:
    """``state``, its frozen models sharing their field-name sets and its map text with every
    other state's, their values in key-sharing dicts. The parts of a step's state that it
    shares with the state before it are compact already and are not visited again; a model
    left out (a state not compacted) is compacted with the next state that holds it."""
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
    values = _key_sharing(model)
    for name in _nested_fields(type(model)):
        value = values[name]
        if isinstance(value, BaseModel):
            _share(value)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, BaseModel):
                    _share(item)


def _key_sharing(model: BaseModel) -> dict[str, Any]:
    """``model``'s values, moved into a key-sharing dict when it holds its class's fields."""
    values = model.__dict__
    layout = _layout(type(model))
    if layout is None or len(values) != len(layout):
        return values
    compact = layout.copy()  # (a copy of a key-sharing dict shares its keys too)
    compact.update(values)
    if len(compact) != len(layout):  # a name that is not a field: leave it as it is
        return values
    object.__setattr__(model, "__dict__", compact)
    return compact


@cache
def _layout(model: type[BaseModel]) -> dict[str, Any] | None:
    """An empty key-sharing dict of ``model``'s fields, in their order (None when CPython
    made a plain one: the class's table was full): the ``__dict__`` CPython makes for an
    instance given its attributes one by one, where pydantic hands it a whole dict. Blank
    instances are made until the room the table leaves for names to come is gone, so the
    layout's copies are as small as they get."""
    smallest, layout = sys.maxsize, None
    for _ in range(_LAYOUT_TRIES):
        blank = model.__new__(model)
        for name in model.model_fields:
            object.__setattr__(blank, name, None)
        made: dict[str, Any] = blank.__dict__
        size = sys.getsizeof(made.copy())
        if size >= smallest:
            break
        smallest, layout = size, made
    if layout is None or smallest >= sys.getsizeof(dict(layout)):
        return None
    return layout


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


def _models_in(annotation: Any) -> set[type[BaseModel]]:
    """Every model class a value of ``annotation`` can be or hold, at any depth."""
    found: set[type[BaseModel]] = set()
    waiting = [annotation]
    while waiting:
        kind = waiting.pop()
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            if kind not in found:
                found.add(kind)
                waiting += [field.annotation for field in kind.model_fields.values()]
        else:
            waiting += get_args(kind)
    return found


# The tables of names are filled now, before a fight makes instances by the hundred.
for _model in _models_in(Combat):
    _layout(_model)
