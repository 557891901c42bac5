"""Answers kept for as long as a fight state lives. A state never changes (each step makes a
new one), so what is worked out from it holds while it lives: the board, the prompt and a
panel drawn from the same state, or an autocomplete's keystrokes, ask once.

>>> from engine.combat.model import Combat
>>> kept: PerState[str, int] = PerState()
>>> state = Combat(map_text="Bar")
>>> kept.of(state)["answer"] = 42
>>> kept.of(state), kept.of(Combat(map_text="Bar"))
({'answer': 42}, {})
"""

from __future__ import annotations

import weakref
from typing import Generic, TypeVar

from engine.combat.model import Combat

__all__ = ["PerState"]

K = TypeVar("K")
V = TypeVar("V")


class PerState(Generic[K, V]):
    """For each fight state still in use (by its identity, not its value: comparing two
    states would cost more than most answers), the answers kept of it so far. They go with
    the state, or sooner when more than ``most`` states were asked of since (the fights in
    play)."""

    def __init__(self, most: int = 256) -> None:
        self._most = most
        self._held: dict[int, tuple[weakref.ref[Combat], dict[K, V]]] = {}

    def of(self, combat: Combat) -> dict[K, V]:
        """The answers kept of ``combat`` (empty at first: the caller fills it)."""
        ident = id(combat)
        held = self._held.get(ident)
        if held is None or held[0]() is not combat:
            held = (weakref.ref(combat, lambda gone: self._forget(ident, gone)), {})
            self._held[ident] = held
            if len(self._held) > self._most:
                del self._held[next(iter(self._held))]  # the state asked of first
        return held[1]

    def _forget(self, ident: int, gone: weakref.ref[Combat]) -> None:
        """A state is gone: so are its answers (unless its place went to a newer one)."""
        held = self._held.get(ident)
        if held is not None and held[0] is gone:
            del self._held[ident]
