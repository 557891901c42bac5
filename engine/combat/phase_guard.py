"""The guard every command passes first: the fight is in a phase where it makes sense. The
refusal says what the fight is doing instead, and while initiative is decided, who it waits
for (the prompts' own wording)."""

from __future__ import annotations

from engine.combat.model import Combat, Phase
from engine.combat.prompts import waiting_sentence
from engine.errors import RuleError

__all__ = ["require_phase"]

_WRONG_PHASE = {
    Phase.SETUP: "The fight has not begun yet.",
    Phase.INITIATIVE: "Initiative is being decided.",
    Phase.TURN: "No attack is waiting for that now.",
    Phase.REACTION: "Wait: an attack is waiting for reactions.",
    Phase.RESOLUTION: "Wait: an attack is being resolved.",
    Phase.ENDING: "The fight is ending: only a leader's rally is left before it ends.",
    Phase.ENDED: "This combat is over.",
}


def require_phase(c: Combat, *phases: Phase) -> None:
    if c.phase not in phases:
        wrong = _WRONG_PHASE[c.phase]
        if c.phase is Phase.INITIATIVE:
            wrong = wrong.removesuffix(".") + waiting_sentence(c)
        raise RuleError(wrong)
