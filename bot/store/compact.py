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
dict (240 bytes for a fighter), so a compacted model's values move into one of those (a
model of 6 fields or more: the dict of a smaller one is small already); a ``model_copy`` of it
copies a key-sharing dict again.

A state read from the database (or rebuilt by an undo) has its own copy of every value, about
280 bytes apiece: there, equal values of a model that holds no other model (a fighter's tally
at the fight's start, the knife each goon holds, the weapon an attack and its reactor name)
are kept once (:func:`compact_read_state`). Only within one state: a value shared across
fights would need a table that outlives them; and a step's new state shares what did not
change with the state before it already.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple, get_args

from pydantic import BaseModel

from engine.combat import Combat

__all__ = ["compact_read_state", "compact_state"]

_FIELD_SETS: dict[tuple[type[BaseModel], frozenset[str]], set[str]] = {}
#: The ids of the shared sets (they live as long as the process): a model holding one was
#: compacted with everything in it, so it is not visited again.
_SHARED: set[int] = set()
#: Models of fewer fields keep pydantic's dict: CPython's smallest plain dict holds up to 5
#: names, and moving so few values would save less than a hundred bytes (the values of a
#: step being resolved, a roll and its checks, are of those, and gone a step later).
_FEWEST_FIELDS = 6
#: More blank instances than a class's table of names ever leaves room for (CPython: 30).
_LAYOUT_TRIES = 40


class _Kind(NamedTuple):
    """What compacting needs of a model class, worked out once."""

    frozen: bool  # (and its fields set holds field names only: extra names are forbidden)
    every_field: set[str]  # the shared set of a model given every field (most are)
    layout: dict[str, Any] | None  # see _layout
    size: int  # the bytes of a copy of the layout (a plain dict of the fields takes more)
    nested: tuple[str, ...]  # see _nested_fields


_KINDS: dict[type[BaseModel], _Kind] = {}


def compact_state(state: Combat) -> Combat:
    """``state``, its frozen models sharing their field-name sets and its map text with every
    other state's, their values in key-sharing dicts. The parts of a step's state that it
    shares with the state before it are compact already and are not visited again; a model
    left out (a state not compacted) is compacted with the next state that holds it."""
    return _compacted(state, None)


def compact_read_state(state: Combat) -> Combat:
    """:func:`compact_state` for a state just built from its JSON (read from the database, or
    an undo's), every value its own object: equal values that hold no model are kept once.
    (A step's state shares what did not change with the state before it already.)"""
    return _compacted(state, {})


#: Equal values met in one state, the first of each: ``(class, its values) -> the value``.
_Seen = dict[tuple[type[BaseModel], tuple[tuple[str, Any], ...]], BaseModel]


def _compacted(state: Combat, seen: _Seen | None) -> Combat:
    state.__dict__["map_text"] = sys.intern(state.map_text)
    _share(state, seen)
    return state


def _share(model: BaseModel, seen: _Seen | None) -> BaseModel:
    """Compact ``model`` and what it holds; the model to keep in its place (with ``seen``:
    an equal one met before in the same state, for a model that holds none)."""
    names = model.__pydantic_fields_set__
    if id(names) in _SHARED:  # (compacted with a state before: a step looks at new values)
        return model
    kind = _KINDS.get(type(model)) or _kind_of(type(model))
    if not kind.frozen:
        return model
    if seen is not None and not kind.nested:
        try:
            kept = seen.setdefault((type(model), tuple(model.__dict__.items())), model)
        except TypeError:  # (a value that is not hashable: a mapping)
            kept = model
        if kept is not model and kept.__pydantic_fields_set__ == names:
            return kept
    object.__setattr__(model, "__pydantic_fields_set__",
                       kind.every_field if len(names) == len(kind.every_field)
                       else _shared_set(model))
    values = model.__dict__
    layout = kind.layout
    # (a model_copy of a compacted model holds a copy of its key-sharing dict already)
    if layout is not None and len(values) == len(layout) and sys.getsizeof(values) > kind.size:
        compact = layout.copy()  # (a copy of a key-sharing dict shares its keys too)
        compact.update(values)
        if len(compact) == len(layout):  # (else a name that is not a field: left as it is)
            object.__setattr__(model, "__dict__", compact)
            values = compact
    for name in kind.nested:
        value = values[name]
        if isinstance(value, BaseModel):
            kept = _share(value, seen)
            if kept is not value:
                values[name] = kept
        elif isinstance(value, tuple):
            kept_items = None
            for index, item in enumerate(value):
                if isinstance(item, BaseModel) and (kept := _share(item, seen)) is not item:
                    kept_items = kept_items or list(value)
                    kept_items[index] = kept
            if kept_items is not None:
                values[name] = tuple(kept_items)
    return model


def _shared_set(model: BaseModel) -> set[str]:
    names = model.__pydantic_fields_set__
    key = (type(model), frozenset(names))
    shared = _FIELD_SETS.get(key)
    if shared is None:
        shared = _FIELD_SETS[key] = set(names)
        _SHARED.add(id(shared))
    return shared


def _kind_of(model: type[BaseModel]) -> _Kind:
    every_field = set(model.model_fields)
    _FIELD_SETS[model, frozenset(every_field)] = every_field
    _SHARED.add(id(every_field))
    config = model.model_config
    frozen = bool(config.get("frozen")) and config.get("extra") != "allow"
    layout = _layout(model)
    size = sys.maxsize if layout is None else sys.getsizeof(layout.copy())
    kind = _KINDS[model] = _Kind(frozen, every_field, layout, size, _nested_fields(model))
    return kind


def _layout(model: type[BaseModel]) -> dict[str, Any] | None:
    """An empty key-sharing dict of ``model``'s fields, in their order (None when CPython
    made a plain one). It is the ``__dict__`` of a blank instance of a plain class of its own,
    given the fields one by one: the model's class keeps its table of names empty, or every
    instance pydantic makes of it would first get room for those names, then a dict of them,
    both thrown away when pydantic hands it its own ``__dict__``. Blank instances are made
    until the table leaves no room for names to come, so the layout's copies are as small as
    they get."""
    if len(model.model_fields) < _FEWEST_FIELDS:
        return None
    holder = type(f"{model.__name__}Values", (), {"__doc__": f"{model.__name__}'s values."})
    smallest, layout = sys.maxsize, None
    for _ in range(_LAYOUT_TRIES):
        blank = holder()
        for name in model.model_fields:
            setattr(blank, name, None)
        made: dict[str, Any] = blank.__dict__
        size = sys.getsizeof(made.copy())
        if size >= smallest:
            break
        smallest, layout = size, made
    if layout is None or smallest >= sys.getsizeof(dict(layout)):
        return None
    return layout


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
