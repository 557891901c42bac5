"""Patches back to the state before a fight's step, so `/combat undo` works while a log entry
keeps only what changed (a few hundred bytes) instead of a whole state.

The patches are RFC 6902 JSON Patch documents, applied with the ``jsonpatch`` library.
:func:`reverse_patch` makes them itself: ``jsonpatch.make_patch`` looks for the smallest edit
of every list, which costs milliseconds on each step; a step replaces values in place, so
comparing like with like is enough and a hundred times cheaper.
"""

from __future__ import annotations

from functools import cache
from typing import Any, get_args

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from engine.phrases import Phrase

__all__ = ["reverse_patch", "reverse_patch_of_models"]


def _token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def reverse_patch(after: Any, before: Any, path: str = "") -> list[dict[str, Any]]:
    """The JSON Patch operations that turn the document ``after`` back into ``before``.

    >>> import jsonpatch
    >>> before = {"round": 1, "fighters": [{"level": 40}, {"level": 25}], "pending": None}
    >>> after = {"round": 1, "fighters": [{"level": 36}, {"level": 25}], "pending": {"a": 1}}
    >>> for op in reverse_patch(after, before):
    ...     print(op)
    {'op': 'replace', 'path': '/fighters/0/level', 'value': 40}
    {'op': 'replace', 'path': '/pending', 'value': None}
    >>> jsonpatch.apply_patch(after, reverse_patch(after, before)) == before
    True
    """
    if isinstance(after, dict) and isinstance(before, dict):
        ops: list[dict[str, Any]] = [
            {"op": "remove", "path": f"{path}/{_token(key)}"} for key in after
            if key not in before
        ]
        for key, value in before.items():
            here = f"{path}/{_token(key)}"
            if key not in after:
                ops.append({"op": "add", "path": here, "value": value})
            elif after[key] != value:
                ops.extend(reverse_patch(after[key], value, here))
        return ops
    if isinstance(after, list) and isinstance(before, list) and len(after) == len(before):
        ops = []
        for index, (now, then) in enumerate(zip(after, before, strict=True)):
            if now != then:
                ops.extend(reverse_patch(now, then, f"{path}/{index}"))
        return ops
    return [{"op": "replace", "path": path, "value": before}]


def reverse_patch_of_models(after: BaseModel, before: BaseModel,
                            path: str = "") -> list[dict[str, Any]]:
    """The JSON Patch operations that turn ``after``'s JSON document back into ``before``'s,
    read from the two models themselves, so neither whole document has to be built.

    An applied step shares every unchanged part of the state with the state before it (the
    models are frozen), so a part that *is* the part before is skipped at once; models that
    are not are compared field by field, and only what changed is dumped, each value through
    its model (so field serializers apply)."""
    if type(after) is not type(before):
        return [{"op": "replace", "path": path, "value": before.model_dump(mode="json")}]
    ops: list[dict[str, Any]] = []
    # (a model keeps its fields' values in its __dict__: read there, without getattr)
    now_values, then_values = after.__dict__, before.__dict__
    for name in type(before).model_fields:
        now, then = now_values[name], then_values[name]
        if now is not then:
            ops.extend(_changed_field(before, name, now, then, f"{path}/{_token(name)}"))
    return ops


def _changed_field(before: BaseModel, name: str, now: Any, then: Any,
                   path: str) -> list[dict[str, Any]]:
    if isinstance(now, BaseModel) and isinstance(then, BaseModel):
        return reverse_patch_of_models(now, then, path)
    if (isinstance(now, tuple) and isinstance(then, tuple) and len(now) == len(then)
            and all(isinstance(v, BaseModel) for v in (*now, *then))):
        ops: list[dict[str, Any]] = []
        for index, (one, other) in enumerate(zip(now, then, strict=True)):
            if one is not other:
                ops.extend(reverse_patch_of_models(one, other, f"{path}/{index}"))
        return ops
    if now == then:
        return []
    if name in _serialized_fields(type(before)):
        value = before.model_dump(mode="json", include={name})[name]
    else:
        value = to_jsonable_python(then)
    return [{"op": "replace", "path": path, "value": value}]


@cache
def _serialized_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields ``model`` dumps through a serializer of its own, or that may hold a phrase
    (which dumps as its JSON object, not as the tuple it is); the rest dump as they are."""
    serializers = model.__pydantic_decorators__.field_serializers.values()
    phrased = (name for name, field in model.model_fields.items()
               if _may_hold_phrase(field.annotation))
    return frozenset((*(field for s in serializers for field in s.info.fields), *phrased))


def _may_hold_phrase(annotation: Any) -> bool:
    return annotation is Phrase or any(_may_hold_phrase(inner) for inner in get_args(annotation))
