"""An action's life and the fight's clock, as hook points (``Lifecycle``): an action starts, an
action ends, a team's turn ends, a round ends.

Whatever must happen at those moments is one class with the hooks it needs: a fighter's ability
(``AbilityRule`` is a ``Lifecycle``) or a lasting effect that is no one's ability
(``engine.combat.effects.EFFECTS``). The machine, not the action handlers, folds the hooks of
every registered rule and effect, in order (``engine.combat.effects``):

- a handler only says that an action starts, by spending it (``fighters.spend_action``,
  ``spend_reaction``), which records an ``ActionStart`` on the ``Context``; once the handler is
  done the machine runs ``on_action_start`` for each (so a step an effect pushes, Continuous
  damage, comes above the action's own step and is resolved first);
- ``on_action_end`` runs when an action's step leaves the stack, or right after the start of an
  action that has no step (a door, items, a direction);
- ``on_turn_start``, ``on_turn_end`` and ``on_round_end`` run where ``engine.combat.rounds``
  starts and ends them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.combat.action_kinds import ActionEnd, ActionStart

if TYPE_CHECKING:
    from engine.combat.context import Context
    from engine.combat.model import Combat

__all__ = ["Lifecycle"]


class Lifecycle:
    """Hook points of an action's life and of the fight's clock; each is neutral here, and a
    rule or effect overrides the ones it needs. Every hook gets the fight and gives it back."""

    def on_action_start(self, c: Combat, start: ActionStart, ctx: Context) -> Combat:
        """``start.fighter`` has just started an action (its step, if any, pushed)."""
        return c

    def on_action_end(self, c: Combat, end: ActionEnd, ctx: Context) -> Combat:
        """``end.fighter``'s action is over."""
        return c

    def on_turn_start(self, c: Combat, team: str, ctx: Context) -> Combat:
        """``team``'s turn starts."""
        return c

    def on_turn_end(self, c: Combat, team: str, ctx: Context) -> Combat:
        """``team``'s turn ends."""
        return c

    def on_round_end(self, c: Combat, ctx: Context) -> Combat:
        """The round ends (``c.round`` is the round that ends), before the next one starts."""
        return c
