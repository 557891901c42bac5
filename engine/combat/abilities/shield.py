"""Shield (004 "Abilities": Shield). Good Defend is a modifier row (it applies to a Defend
made with a shield in a usable hand). The other three:

- ``DefendOthers`` — "Can use your action to Defend another character": a fighter with a
  shield in a usable hand may Defend a character of their area who is attacked (the
  who-may-defend-whom hook); one Defend per attack.
- ``ShieldAttack`` — "Can Attack using a shield": a shield in a usable hand is a melee weapon
  (the shield's item row: range 0, \\ wounds, less-lethal at will) for the actions the
  ability's row names: the Attack action only, not Counterattack or Intercept.
- ``AllOutDefend`` — declared after initiative and before any action of the round (with a
  shield in a usable hand and the round's action, which it takes): that round every Defend
  against the fighter spends no action, those rolls are neither good nor critical, and the
  fighter takes no other action and defends nobody else; the declaration ends with the round
  (RULINGS 18: its ``on_round_end``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.catalog import Action, Hand, Rules
from engine.character import Character, usable_held
from engine.combat.abilities.rule import AbilityRule, RollLimit
from engine.combat.model import Combat, Fighter
from engine.combat.step_values import Weapon
from engine.phrases import Said, phrase

if TYPE_CHECKING:
    from engine.combat.context import Context

__all__ = [
    "ALL_OUT_DEFEND", "AllOutDefend", "DefendOthers", "ShieldAttack", "holds_item_of",
]

ALL_OUT_DEFEND = "shield.all_out_defend"


def holds_item_of(c: Character, kind: str, rules: Rules) -> bool:
    """Whether an item of ``kind`` is in one of ``c``'s usable hands."""
    return any(c.items[i].kind == kind for i in usable_held(c, rules=rules))


def _item_of(ability: str, rules: Rules) -> str:
    """The item kind an ability's data row is about (here: the shield)."""
    item = rules.abilities.ability(ability).item
    assert item is not None, ability
    return item


class DefendOthers(AbilityRule):
    id = "shield.defend_others"

    def may_defend(self, c: Combat, g: Fighter, t: Fighter, rules: Rules) -> bool | None:
        if g.area == t.area and holds_item_of(g.character, _item_of(self.id, rules), rules):
            return True
        return None


class ShieldAttack(AbilityRule):
    id = "shield.attack"

    def weapons(
        self, c: Character, rules: Rules, usable: tuple[Hand, ...], action: Action
    ) -> tuple[Weapon, ...]:
        if action not in rules.abilities.ability(self.id).actions:
            return ()
        held = dict.fromkeys(i for h in usable if (i := c.held(h)) is not None)
        kinds = {i: rules.items.kind(c.items[i].kind) for i in held}
        return tuple(
            Weapon(name=c.items[i].name, kind=kind.id, mark=kind.wound_mark)
            for i, kind in kinds.items()
            if kind.attack_requires == self.id
        )


class AllOutDefend(AbilityRule):
    id = ALL_OUT_DEFEND

    def _on(self, f: Fighter) -> bool:
        return self.id in f.declared

    def may_defend(self, c: Combat, g: Fighter, t: Fighter, rules: Rules) -> bool | None:
        return False if self._on(g) else None  # "nor defend other characters"

    def free_defend(self, f: Fighter, t: Fighter) -> bool:
        return self._on(f) and f.key == t.key  # "you may Defend all attacks against you"

    def act_problem(self, f: Fighter) -> Said | None:
        if self._on(f):
            return phrase("{name} is all-out defending this round: no other action than "
                          "Defend against attacks on them.", name=f.name)
        return None

    def roll_limits(self, f: Fighter, action: Action) -> frozenset[RollLimit]:
        if self._on(f) and action is Action.DEFEND:
            return frozenset({RollLimit.NOT_GOOD, RollLimit.NOT_CRITICAL})
        return frozenset()

    def board_word(self, f: Fighter) -> Said | None:
        # Translators: the board's mark after a fighter in All-Out Defend; keep it short.
        return phrase("all-out") if self._on(f) else None

    def on_round_end(self, c: Combat, ctx: Context) -> Combat:
        fighters = tuple(
            f.model_copy(update={"declared": tuple(d for d in f.declared if d != self.id)})
            if self._on(f) else f
            for f in c.fighters
        )
        return c.model_copy(update={"fighters": fighters})
