"""A reaction's or an attack's weapon as the table reads it, in the reader's language: its
name, or "bare hands" for no weapon, and how far it reaches (``engine.combat.weapons``'s
``weapon_label`` and ``range_text`` say the same in English)."""

from __future__ import annotations

from engine.catalog import Rules
from engine.combat.step_values import UNARMED, Weapon
from engine.phrases import Phrase, Said, phrase

__all__ = ["range_said", "weapon_said"]


def weapon_said(w: Weapon | None) -> Said:
    """A weapon's name (never translated), or "bare hands" when there is none."""
    return phrase("bare hands") if w is None or w.kind == UNARMED else w.name


def range_said(w: Weapon, rules: Rules) -> Phrase:
    """How far ``w`` reaches: "reaches range 0", "reaches range 1-3", "reaches range 2 or
    more"."""
    if w.kind == UNARMED:
        return phrase("reaches range {range}", range=0)
    kind = rules.items.kind(w.kind)
    low, high = kind.min_range or 0, kind.max_range
    if high is None:
        return phrase("reaches range {low} or more", low=low)
    if low == high:
        return phrase("reaches range {range}", range=low)
    return phrase("reaches range {low}-{high}", low=low, high=high)
