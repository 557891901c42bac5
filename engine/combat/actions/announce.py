"""What the table is told when a reaction window opens, or opens again once Continuous damage
is placed: who may answer, how, and within how long. A Counterattack or an Intercept that can
be less-lethal says so (004 "Less-lethal"), as its button does."""

from __future__ import annotations

from collections.abc import Iterable

from engine.combat.abilities.hooks import free_defend
from engine.combat.context import Context
from engine.combat.model import Combat, EventKind
from engine.combat.prompts import LESS_LETHAL, react_options
from engine.combat.step_values import Reactor

__all__ = ["announce_defends", "announce_window", "reaction_words"]


def reaction_words(r: Reactor) -> tuple[str, ...]:
    """A reactor's answers in words: "defend", "counterattack (lethal or less-lethal)",
    "intercept (less-lethal only)", "pass"."""
    words: list[str] = []
    for option in react_options(r):
        reaction = option.removesuffix(LESS_LETHAL)
        if reaction == option:
            words.append(option)
        elif reaction in words:
            words[words.index(reaction)] = f"{reaction} (lethal or less-lethal)"
        else:
            words.append(f"{reaction} (less-lethal only)")
    return tuple(words)


def announce_window(c: Combat, reactors: Iterable[Reactor], ctx: Context) -> None:
    for r in reactors:
        ctx.emit(
            EventKind.WINDOW,
            f"{c.fighter(r.fighter).name} may {' or '.join(reaction_words(r))} "
            f"(within {c.reaction_seconds} seconds).",
            r.fighter,
        )


def announce_defends(c: Combat, keys: Iterable[str], ctx: Context) -> None:
    """The targets of a Blast who may Defend against it."""
    for key in keys:
        f = c.fighter(key)
        cost = "without spending an action" if free_defend(f, f) else "spending an action"
        ctx.emit(EventKind.WINDOW, f"{f.name} may Defend against the blast ({cost}) or take "
                 f"the damage (within {c.reaction_seconds} seconds).", key)
