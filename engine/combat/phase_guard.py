"""The guard every command passes first: the fight is in a phase where it makes sense. The
refusal says what the fight is doing instead, and while initiative is decided, who it waits
for (the prompts' own wording)."""

from __future__ import annotations

from engine.combat.model import Combat, Phase
from engine.combat.prompts import waited_for
from engine.errors import RuleError
from engine.phrases import phrase

__all__ = ["require_phase"]

_WRONG_PHASE = {
    Phase.SETUP: phrase("The fight has not begun yet."),
    Phase.TURN: phrase("No attack is waiting for that now."),
    Phase.REACTION: phrase("Wait: an attack is waiting for reactions."),
    Phase.RESOLUTION: phrase("Wait: an attack is being resolved."),
    Phase.ENDING: phrase("The fight is ending: only a leader's rally is left before it ends."),
    Phase.ENDED: phrase("This combat is over."),
}


def require_phase(c: Combat, *phases: Phase) -> None:
    if c.phase not in phases:
        if c.phase is Phase.INITIATIVE:
            waiting = waited_for(c)
            if waiting is None:
                raise RuleError(phrase("Initiative is being decided."))
            raise RuleError(phrase("Initiative is being decided: waiting for {waiting}.",
                                   waiting=waiting))
        raise RuleError(_WRONG_PHASE[c.phase])
