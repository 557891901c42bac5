"""The engine's frozen values: pydantic models that never change once built, each change a copy.

A fight's step copies a dozen of them (``model_copy(update=...)``: the fight, a fighter, the
attack being resolved). Pydantic's own copy goes through ``copy.copy`` three times (the values,
the extra values, the names of the fields set) and checks for private attributes, work a model
that forbids extra fields and has no private attributes never needs; :class:`FrozenModel` copies
such a model with the same result in a fraction of the instructions.

>>> class Point(FrozenModel):
...     x: int
...     y: int = 0
>>> a = Point(x=1)
>>> b = a.model_copy(update={"y": 2})
>>> b, b.model_fields_set == {"x", "y"}, a
(Point(x=1, y=2), True, Point(x=1, y=0))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from pydantic import BaseModel, ConfigDict

__all__ = ["FrozenModel"]

_set_attribute = object.__setattr__


class FrozenModel(BaseModel):
    """A frozen pydantic model that forbids extra fields, copied cheaply."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """As pydantic's ``model_copy``: the values not validated, the updated fields counted
        as set; a shallow copy of the values' dict (a key-sharing dict stays one)."""
        if deep or self.__private_attributes__:
            return super().model_copy(update=update, deep=deep)
        cls = type(self)
        copied = cls.__new__(cls)
        values = self.__dict__.copy()
        if update:
            values.update(update)
            fields_set = self.__pydantic_fields_set__ | update.keys()
        else:
            fields_set = set(self.__pydantic_fields_set__)
        # Always a set of its own: a compacted state's models share theirs (bot/store).
        _set_attribute(copied, "__dict__", values)
        _set_attribute(copied, "__pydantic_extra__", None)
        _set_attribute(copied, "__pydantic_fields_set__", fields_set)
        _set_attribute(copied, "__pydantic_private__", None)
        return copied
