"""Abilities in play: one module per ability heading of 004 "Abilities", each a small rule
(``AbilityRule``) registered here by its id, and the hook points where the engine folds them
(``hooks``). The good / precise / powerful rows of ``data/abilities.toml`` need no code: the
roll-spec hook reads them from the data. A modifier row may also have a rule, for what its
bullet says besides the modifier (Leader's good initiative: a higher teammate may let the
leader roll).

Abilities whose rules are not in play yet are listed in ``NOT_YET_IN_PLAY``, so a test can
check that every ability of the data is one of: a modifier row, a registered rule, or listed.
"""

from __future__ import annotations

from engine.combat.abilities.aoe import AreaCover, Blast, Continuous, Demolish
from engine.combat.abilities.first_aid import SureSuccess
from engine.combat.abilities.leader import Direct, InitiativeDirect, LetLeaderRoll, Rally
from engine.combat.abilities.melee_1h import TargetLosesAction
from engine.combat.abilities.melee_2h import CriticalDestroy, NoCounterattack
from engine.combat.abilities.ranged_2h import LongSight
from engine.combat.abilities.rule import AbilityRule
from engine.combat.abilities.shield import AllOutDefend, DefendOthers, ShieldAttack
from engine.combat.abilities.speed import MoveTwice
from engine.combat.abilities.stealth import Hide
from engine.combat.abilities.unarmed import Fight, StopMovement

__all__ = ["NOT_YET_IN_PLAY", "REGISTRY", "AbilityRule"]

REGISTRY: dict[str, AbilityRule] = {
    rule.id: rule
    for rule in (
        LongSight(), NoCounterattack(), CriticalDestroy(), TargetLosesAction(), SureSuccess(),
        Fight(), DefendOthers(), ShieldAttack(), AllOutDefend(), StopMovement(), MoveTwice(),
        Hide(), LetLeaderRoll(), Rally(), Direct(), InitiativeDirect(), Blast(), Continuous(),
        AreaCover(), Demolish(),
    )
}

#: In the data and on sheets, but not yet played by the combat engine (the GM resolves them).
NOT_YET_IN_PLAY: frozenset[str] = frozenset()
