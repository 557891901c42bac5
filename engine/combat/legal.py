"""What a fighter's gear and place allow: targets, weapons, moves, doors, items and teammates to
direct. The legality query (:mod:`engine.combat.options`) builds its candidates from these and
keeps those the engine accepts; ask it, not these, what a fighter may start now."""

from engine.combat.actions.direct import directable as legal_directs
from engine.combat.actions.door import legal_doors
from engine.combat.actions.items import legal_items
from engine.combat.actions.move import legal_moves, legal_second_moves
from engine.combat.weapons import legal_targets, legal_weapons

__all__ = [
    "legal_directs", "legal_doors", "legal_items", "legal_moves", "legal_second_moves",
    "legal_targets", "legal_weapons",
]
