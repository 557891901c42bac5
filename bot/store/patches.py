"""Patches back to the state before a fight's step, so `/combat undo` works while a log entry
keeps only what changed (a few hundred bytes) instead of a whole state.

The patches are RFC 6902 JSON Patch documents, applied with the ``jsonpatch`` library.
:func:`reverse_patch` makes them itself: ``jsonpatch.make_patch`` looks for the smallest edit
of every list, which costs milliseconds on each step; a step replaces values in place, so
comparing like with like is enough and a hundred times cheaper.
"""

from __future__ import annotations

from typing import Any

__all__ = ["reverse_patch"]


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
