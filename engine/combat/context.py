"""What every rule is given: who gives the command, the dice, the rules and the clock, and
the events it says; and the guards every command passes first (GM, control; the phase's is
``engine.combat.phase_guard``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.catalog import Rules
from engine.combat.action_kinds import ActionKind, ActionStart
from engine.combat.hidden_npcs import is_npc
from engine.combat.model import Actor, Event, EventKind, Fighter
from engine.combat.rolls import roll_phrase, roll_text
from engine.dice import Check, DiceSource
from engine.errors import RuleError
from engine.phrases import Phrase, Said, phrase

__all__ = [
    "Context", "controls", "require_control", "require_gm",
]


@dataclass
class Context:
    """One command's surroundings. ``emit`` adds a sentence (a phrase) to what happened.

    ``starts``: the actions started (spent) since the machine last ran their
    ``on_action_start`` hooks (``engine.combat.lifecycle``).

    ``hide_npcs`` is the fight's setting (``Combat.hide_npcs``): while it holds, a sentence
    that states an NPC's level or marks is told to the players in its ``public`` wording, and
    the exact one is kept for the GM (``Event.gm_text``).

    ``standing_order``: the answer given now is a fighter's standing order (its sentence says
    so).

    Who decided a fighter's answer is told by whole phrases around the clause that says
    it: ``by_gm_sentence(f, phrase("{name} passes", name=f.name))`` reads "Ana passes." or
    "Ana passes (by the GM)."; ``decided_sentence`` also says "(standing order)"; the
    ``_clause`` forms leave the sentence open (a roll's "…: 34 (3·4) vs 50 — SUCCESS." follows).
    """

    actor: Actor
    dice: DiceSource
    rules: Rules
    now: float
    hide_npcs: bool = False
    #: The answer given now is a fighter's standing order, followed as a window closes.
    standing_order: bool = False
    events: list[Event] = field(default_factory=list)
    starts: list[ActionStart] = field(default_factory=list)

    def start(self, fighter: str, kind: ActionKind) -> None:
        """``fighter`` starts an action of ``kind`` now: its hooks run once the handler is
        done; the next sentence said is taken for the action's declaration."""
        self.starts.append(ActionStart(fighter=fighter, kind=kind, at=len(self.events)))

    def say_with_declaration(
        self, start: ActionStart, kind: EventKind, text: Said, fighter: str | None = None
    ) -> None:
        """Say ``text`` right after ``start``'s declaration (after what earlier hooks said
        there), not at the end: what the start changes is told with the action it starts."""
        at = min(start.at + 1 + start.said, len(self.events))
        self.events.insert(at, Event(kind=kind, text=text, fighter=fighter))
        start.said += 1
        for other in self.starts:
            if other is not start and other.at >= at:
                other.at += 1

    def by_gm(self, f: Fighter) -> str:
        """" (by the GM)" when a GM decides for a player's fighter (not their own), so that
        the table and the log know the player did not; "" otherwise."""
        if self.actor.gm and f.owner_id is not None and f.owner_id != self.actor.user_id:
            return " (by the GM)"
        return ""

    def decided_by(self, f: Fighter) -> str:
        """Who decided ``f``'s answer, as the table reads it after the answer: " (standing
        order)" when it is ``f``'s standing order, else what :meth:`by_gm` says."""
        return " (standing order)" if self.standing_order else self.by_gm(f)

    def by_gm_for_team(self, fighters: Iterable[Fighter]) -> str:
        """" (by the GM)" when a GM decides for a team of ``fighters`` that has players and
        none of them is the GM's own; "" otherwise."""
        owners = {f.owner_id for f in fighters} - {None}
        if self.actor.gm and owners and self.actor.user_id not in owners:
            return " (by the GM)"
        return ""

    def _by_gm_for(self, f: Fighter) -> bool:
        return self.actor.gm and f.owner_id is not None and f.owner_id != self.actor.user_id

    def by_gm_clause(self, f: Fighter, clause: Phrase) -> Phrase:
        """``clause`` (a sentence without its end), followed by "(by the GM)" when a GM decides
        for a player's fighter (not their own)."""
        return phrase("{clause} (by the GM)", clause=clause) if self._by_gm_for(f) else clause

    def by_gm_sentence(self, f: Fighter, clause: Phrase) -> Phrase:
        """``clause`` as a sentence: "Ana passes." or "Ana passes (by the GM)."."""
        if self._by_gm_for(f):
            return phrase("{clause} (by the GM).", clause=clause)
        return phrase("{clause}.", clause=clause)

    def decided_clause(self, f: Fighter, clause: Phrase) -> Phrase:
        """``clause`` followed by who decided: "(standing order)", or as :meth:`by_gm_clause`."""
        if self.standing_order:
            return phrase("{clause} (standing order)", clause=clause)
        return self.by_gm_clause(f, clause)

    def decided_sentence(self, f: Fighter, clause: Phrase) -> Phrase:
        """``clause`` as a sentence and who decided: "Ana passes (standing order)."."""
        if self.standing_order:
            return phrase("{clause} (standing order).", clause=clause)
        return self.by_gm_sentence(f, clause)

    def team_clause(self, fighters: Iterable[Fighter], clause: Phrase) -> Phrase:
        """``clause`` and "(by the GM)" when :meth:`by_gm_for_team` says so."""
        if self.by_gm_for_team(fighters):
            return phrase("{clause} (by the GM)", clause=clause)
        return clause

    def team_sentence(self, fighters: Iterable[Fighter], clause: Phrase) -> Phrase:
        """``clause`` as a sentence, "(by the GM)" when :meth:`by_gm_for_team` says so."""
        if self.by_gm_for_team(fighters):
            return phrase("{clause} (by the GM).", clause=clause)
        return phrase("{clause}.", clause=clause)

    def hides(self, f: Fighter) -> bool:
        """Whether ``f``'s level and marks are kept from the players."""
        return self.hide_npcs and is_npc(f)

    def emit(
        self, kind: EventKind, text: Said, fighter: str | None = None, dice: tuple[int, ...] = (),
        *, public: Said | None = None, of: Fighter | Iterable[Fighter] = (),
    ) -> None:
        """Say ``text``; when it states the figures of a fighter in ``of`` whose figures are
        hidden, the players read ``public`` (the same news without them) instead."""
        whose = (of,) if isinstance(of, Fighter) else tuple(of)
        if public is not None and public != text and any(self.hides(f) for f in whose):
            event = Event(kind=kind, text=public, gm_text=text, fighter=fighter, dice=dice)
        else:
            event = Event(kind=kind, text=text, fighter=fighter, dice=dice)
        self.events.append(event)

    def say_roll(self, kind: EventKind, what: Said, roller: Fighter, result: Check) -> None:
        """``what`` (a clause: a phrase, or older plain English) was rolled: "Ana attacks Goon
        with Knife: 34 (3·4) vs 50 — SUCCESS"; the players read a hidden roller's roll without
        the level it was rolled against."""
        dice = (result.tens, result.ones)
        if isinstance(what, str):
            self.emit(kind, f"{what}: {roll_text(result)}.", roller.key, dice,
                      public=f"{what}: {roll_text(result, level=False)}.", of=roller)
            return
        self.emit(kind, phrase("{what}: {roll}.", what=what, roll=roll_phrase(result)),
                  roller.key, dice, of=roller,
                  public=phrase("{what}: {roll}.", what=what,
                                roll=roll_phrase(result, level=False)))


def controls(actor: Actor, f: Fighter) -> bool:
    return actor.gm or (f.owner_id is not None and f.owner_id == actor.user_id)


def require_control(actor: Actor, f: Fighter) -> None:
    if controls(actor, f):
        return
    if f.owner_id is None:
        raise RuleError(phrase("Only a GM can give orders to {name}.", name=f.name))
    raise RuleError(phrase("Only their player or a GM can give orders to {name}.", name=f.name))


def require_gm(actor: Actor, what: Said) -> None:
    """Only a GM may do ``what`` (a phrase, said as "Only a GM can {what}."; older callers'
    plain English is put in as it is)."""
    if actor.gm:
        return
    if isinstance(what, str):
        raise RuleError(f"Only a GM can {what}.")
    raise RuleError(phrase("Only a GM can {what}.", what=what))
