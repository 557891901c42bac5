"""The step stack: what the fight is in the middle of, innermost last (``Combat.steps``)."""

from __future__ import annotations

from engine.combat.model import Combat
from engine.combat.step_values import AnyStep, Step

__all__ = ["AnyStep", "pop", "push", "replace_step", "replace_top"]


def push(c: Combat, step: AnyStep) -> Combat:
    return c.model_copy(update={"steps": (*c.steps, step)})


def pop(c: Combat) -> Combat:
    return c.model_copy(update={"steps": c.steps[:-1]})


def replace_top(c: Combat, step: AnyStep) -> Combat:
    return c.model_copy(update={"steps": (*c.steps[:-1], step)})


def replace_step(c: Combat, old: Step, new: AnyStep) -> Combat:
    """``c`` with ``new`` in place of ``old`` (found by identity, at any depth)."""
    return c.model_copy(update={"steps": tuple(new if s is old else s for s in c.steps)})
