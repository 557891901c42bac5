"""What a fighter could do now, for autocomplete and buttons: targets, weapons, moves, doors,
items and teammates to direct."""

from engine.combat.actions.direct import directable as legal_directs
from engine.combat.actions.door import legal_doors
from engine.combat.actions.items import legal_items
from engine.combat.actions.move import legal_moves, legal_second_moves
from engine.combat.weapons import legal_targets, legal_weapons

__all__ = [
    "legal_directs", "legal_doors", "legal_items", "legal_moves", "legal_second_moves",
    "legal_targets", "legal_weapons",
]
