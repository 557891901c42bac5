"""An ability's rule: what it changes at each named hook point, neutral everywhere else.

The engine never asks "does this fighter have ability X?" in the middle of a rule; it asks
the hook ("how many marks block this fighter's sight with this weapon?") and the hook folds
every rule of the fighter's abilities (``engine.combat.abilities.hooks``)."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from engine.catalog import Action, Hand, Rules
from engine.character import Character
from engine.combat.lifecycle import Lifecycle
from engine.combat.model import Combat, Fighter
from engine.combat.step_values import Weapon
from engine.phrases import Said

if TYPE_CHECKING:
    from engine.combat.context import Context

__all__ = ["AbilityRule", "RollLimit"]


class RollLimit(StrEnum):
    """What a rule takes away from a roll, whatever the modifier rows give it."""

    NOT_GOOD = "not_good"  # no good re-roll
    NOT_CRITICAL = "not_critical"  # doubles and exactly the level are a plain result


class AbilityRule(Lifecycle):
    """Subclass per ability (one module per ability heading), overriding only its hooks (the
    lifecycle's too: ``engine.combat.lifecycle``)."""

    id: ClassVar[str]  # the ability's id in data/abilities.toml

    def marks_to_block(self, weapon: Weapon) -> int | None:
        """Cover marks that block line of sight for an Attack with ``weapon`` (None: no say)."""
        return None

    def counterable(self, weapon: Weapon) -> bool:
        """Whether an Attack with ``weapon`` may be counterattacked."""
        return True

    def weapons(
        self, c: Character, rules: Rules, usable: tuple[Hand, ...], action: Action
    ) -> tuple[Weapon, ...]:
        """Weapons the ability gives for ``action`` (Attack, Counterattack or Intercept)
        besides the weapons in hand."""
        return ()

    def rolls_initiative_for_higher(self) -> bool:
        """Whether a teammate of higher level may let this fighter roll initiative."""
        return False

    def rallies(self) -> bool:
        """Whether this fighter may use an action to rally the team."""
        return False

    def directs(self) -> bool:
        """Whether this fighter may use an action to direct a teammate."""
        return False

    def initiative_direct_actions(self) -> int:
        """Actions that can only direct others, gained on a successful initiative roll."""
        return 0

    def action_cost(self, f: Fighter) -> int | None:
        """How many of ``f``'s own actions ``f``'s next action spends, when this rule has a
        say (a mark another fighter's ability left on ``f``, say); None: no say."""
        return None

    def pay_instead(self, f: Fighter, ctx: Context) -> Fighter | None:
        """``f`` spends an action this rule made free (``action_cost``): ``f`` with what paid
        for it taken instead (and said); None: this rule paid for nothing."""
        return None

    def may_defend(self, c: Combat, g: Fighter, t: Fighter, rules: Rules) -> bool | None:
        """Whether ``g`` (who has this ability) may Defend ``t``, another character who is
        attacked: True may, False may not whatever another rule says, None no say."""
        return None

    def free_defend(self, f: Fighter, t: Fighter) -> bool:
        """Whether ``f``'s Defend of ``t`` spends no action."""
        return False

    def act_problem(self, f: Fighter) -> Said | None:
        """Why ``f`` may take no action now (act, Counterattack, Intercept; a Defend the
        rule allows aside), as a sentence; None: no say."""
        return None

    def roll_limits(self, f: Fighter, action: Action) -> frozenset[RollLimit]:
        """What ``f``'s roll for ``action`` may not be (good, critical)."""
        return frozenset()

    def board_word(self, f: Fighter) -> Said | None:
        """A word the board shows after the fighter (a declaration in force), or None."""
        return None

    def critical_options(self, action: Action, weapon: Weapon) -> frozenset[str]:
        """What a critical success of ``action`` with ``weapon`` may give besides the book's
        extra action and adjustment (each an option of the same one choice)."""
        return frozenset()

    def critical_extras(self, action: Action, weapon: Weapon) -> frozenset[str]:
        """What a critical success of ``action`` with ``weapon`` gives in addition to the
        choice (the roller may still decline it)."""
        return frozenset()

    def sure_success(self, action: Action) -> bool:
        """Whether the roll for ``action`` may be replaced by a sure success, before rolling."""
        return False

    def moves_twice(self) -> bool:
        """Whether the character may roll to Move twice in one action (Speed)."""
        return False

    def hides(self) -> bool:
        """Whether the character can be hidden: one more cover mark at its own area while no
        enemy is there (Stealth)."""
        return False

    def stops_mover(self, c: Character, weapon: Weapon, rules: Rules) -> bool:
        """Whether a successful Intercept by ``c`` with ``weapon`` may stop the mover even
        when it fills no leg (the interceptor then chooses where the mover ends)."""
        return False

    def aoe_variety(self) -> str | None:
        """The AoE variety an item for this ability attacks with (blast, continuous, cover,
        demolish), or None: not an AoE ability."""
        return None
