"""All-Out Defend (004 "Abilities": Shield): "Can declare All-Out Defend after initiative but
before any actions in a round. During that round you may Defend all attacks against you, but
those rolls are not good and cannot be critical. During that round you cannot take any other
actions nor defend other characters."

The declaration is open once the order of teams is chosen and until the round's first action
(anything that spends an action: an attack, a move, a door, first aid, items); a team that
ends its turn without acting does not close it. It needs a shield in a usable hand and an
action left, and takes the fighter's actions for the round (it is their action: "any *other*
actions"). What it does for the rest of the round is the rule's
(``engine.combat.abilities.shield.AllOutDefend``); it ends with the round (RULINGS 18).
"""

from __future__ import annotations

from engine.catalog import Rules
from engine.character import status
from engine.combat.abilities.shield import ALL_OUT_DEFEND, holds_item_of
from engine.combat.commands import AllOutDefend
from engine.combat.context import Context, require_control
from engine.combat.fighters import can_act, put
from engine.combat.hidden_npcs import STATUS_WORDS
from engine.combat.model import Combat, EventKind, Fighter, Phase
from engine.combat.phase_guard import require_phase
from engine.errors import RuleError
from engine.phrases import Said, phrase

__all__ = ["all_out_defend", "declare_problem"]


def declare_problem(c: Combat, f: Fighter, rules: Rules) -> Said | None:
    """Why ``f`` cannot declare All-Out Defend now (None: they can)."""
    if ALL_OUT_DEFEND not in f.character.abilities:
        return phrase("{name} does not have the Shield ability All-Out Defend.", name=f.name)
    if ALL_OUT_DEFEND in f.declared:
        return phrase("{name} is already all-out defending this round.", name=f.name)
    if c.phase is Phase.INITIATIVE:
        return phrase("All-Out Defend is declared after initiative: once the order of teams is "
                      "set.")
    if c.phase is not Phase.TURN or c.steps or any(g.spent for g in c.fighters):
        return phrase("All-Out Defend is declared before any action of the round; round "
                      "{round} has seen one already. Declare it next round, once initiative is "
                      "decided.", round=c.round)
    if not can_act(f, rules):
        return phrase("{name} is {status} and cannot declare it.", name=f.name,
                      status=STATUS_WORDS[status(f.character, rules=rules)])
    if f.actions <= 0:
        return phrase("{name} has no action left this round: All-Out Defend takes the round's "
                      "action.", name=f.name)
    item = rules.abilities.ability(ALL_OUT_DEFEND).item
    if item is not None and not holds_item_of(f.character, item, rules):
        return phrase("{name} needs a shield in a usable hand to all-out defend.", name=f.name)
    return None


def all_out_defend(c: Combat, cmd: AllOutDefend, ctx: Context) -> Combat:
    require_phase(c, Phase.INITIATIVE, Phase.TURN, Phase.REACTION, Phase.RESOLUTION)
    f = c.fighter(cmd.fighter)
    require_control(ctx.actor, f)
    problem = declare_problem(c, f, ctx.rules)
    if problem:
        raise RuleError(problem)
    ctx.emit(
        EventKind.ALL_OUT_DEFEND,
        phrase("{name} declares All-Out Defend: this round they defend every attack on them "
               "without spending an action (those rolls are not good and cannot be critical), "
               "and take no other action.", name=f.name),
        f.key,
    )
    return put(c, f.model_copy(update={"declared": (*f.declared, ALL_OUT_DEFEND),
                                       "actions": 0}))
