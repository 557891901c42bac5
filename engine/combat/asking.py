"""What the fight asks, described once: for each prompt it waits for, who answers, by when,
the question as the table reads it, what the decider's abilities give the roll at hand, and
each answer's label and tone; the questions alike (the same question to many) together.
The bot lays this value out (buttons, menus, mentions) and asks the engine nothing more; the
words come from the prompts' spec table (:mod:`engine.combat.prompts`), the one place they
are kept.

A fight's state never changes, so the value is worked out once per state: the board, the
prompt and a fighter's panel drawn from one state share it.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.catalog import Rules
from engine.combat.at_hand import abilities_at_hand
from engine.combat.hidden_npcs import secret_options
from engine.combat.model import Combat, Prompt, PromptKind
from engine.combat.pace import question_deadline
from engine.combat.per_state import PerState
from engine.combat.prompts import (
    SPECS,
    Tone,
    asked_users,
    option_label,
    prompt_dice,
    question,
)
from engine.copies import group_names
from engine.phrases import Phrase, Said

__all__ = ["Alike", "Asking", "Choice", "Question", "asked"]


@dataclass(frozen=True)
class Choice:
    """One answer to a question."""

    option: str  # what the engine takes ("tens", "defend", an area's name)
    label: Said  # as the table reads it now ("3 damage · 5: torso")
    tone: Tone  # a chance taken, a chance let go, or plain


@dataclass(frozen=True)
class Question:
    """One prompt the fight waits for, as the table reads it."""

    kind: PromptKind
    fighter: str | None  # the fighter's key (None: a question to a whole team, or the GM)
    who: str  # the fighter's name, else the team's, else "GM"
    users: tuple[int, ...]  # the players asked (none: a GM answers)
    #: When the question closes by itself (epoch seconds): a window's; for any other asked
    #: during a team's turn, the turn's deadline; between turns, theirs (``question_deadline``).
    deadline: float | None
    text: Phrase  # the question ("may react before the dice are rolled")
    waiting: Phrase  # the few words the board shows ("react")
    applies: Phrase | None  # what the decider's abilities give the roll at hand (with the rules)
    slash: str  # the command to use when the buttons do not fit (never translated)
    offer: bool  # an offer the fight does not wait for
    dice: tuple[int, int] | None  # the tens and ones a question about dice is about
    secret: bool  # its answers would show the marks a GM hides: a GM alone sees them
    choices: tuple[Choice, ...]
    #: What makes two questions alike (they read the same, to the same people, with the same
    #: answers); None for a question answered on its own.
    alike: tuple[object, ...] | None


@dataclass(frozen=True)
class Alike:
    """Questions alike, asked once ("Goon 1-10" caught in one blast), or one question."""

    questions: tuple[Question, ...]
    who: str  # whose questions: one's name, or numbered copies in one entry ("Goon 1-10")


@dataclass(frozen=True)
class Asking:
    """Everything the fight asks now."""

    questions: tuple[Question, ...]  # every prompt waited for, in the fight's order
    #: The questions a press answers (acting is done with slash commands), those alike
    #: together where the first of them stood.
    groups: tuple[Alike, ...]


_KEPT: PerState[int | None, Asking] = PerState()


def asked(combat: Combat, rules: Rules | None = None) -> Asking:
    """What ``combat`` asks now; with ``rules``, what applies to each roll at hand."""
    kept = _KEPT.of(combat)
    key = None if rules is None else id(rules)
    if key not in kept:
        questions = tuple(_question(combat, p, rules) for p in combat.waiting_for())
        kept[key] = Asking(questions, _groups(
            [q for q in questions if q.kind is not PromptKind.ACT]))
    return kept[key]


def _question(c: Combat, p: Prompt, rules: Rules | None) -> Question:
    spec = SPECS[p.kind]
    who = c.fighter(p.fighter).name if p.fighter else (p.team or "GM")
    users = asked_users(c, p)
    text = question(c, p)
    choices = tuple(Choice(option, option_label(c, p, option, rules) or option, spec.tone(option))
                    for option in p.options)
    secret = secret_options(c, p)
    deadline = None if spec.offer else question_deadline(c, p)
    alike = None if p.fighter is None or secret else (
        p.kind, text, users, p.options, tuple(choice.label for choice in choices), deadline)
    return Question(
        kind=p.kind, fighter=p.fighter, who=who, users=users, deadline=deadline, text=text,
        waiting=spec.waiting,
        applies=None if rules is None else abilities_at_hand(c, p, rules),
        slash=spec.slash, offer=spec.offer, dice=prompt_dice(c, p), secret=secret,
        choices=choices, alike=alike)


def _groups(questions: list[Question]) -> tuple[Alike, ...]:
    together: dict[object, list[Question]] = {}
    for n, q in enumerate(questions):
        together.setdefault(n if q.alike is None else q.alike, []).append(q)
    return tuple(
        Alike(tuple(group), group[0].who if len(group) == 1
              else ", ".join(group_names([q.who for q in group])))
        for group in together.values())
