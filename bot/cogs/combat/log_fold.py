"""A fight's log folded for someone coming back to it: a short line per step — who did what
to whom and how it went (a hit, a miss, the damage and the level it left, a move, who joined,
who is down) — instead of the step's every sentence, and the rounds and turns that passed
between them in one line ("Round 3 → 5, now the PCs' turn").

The log keeps each step's events as the table read them (texts, see
:class:`~bot.store.values.LogEntry`), so the step is read back from the engine's sentences;
a step none of them tells is its first sentence, cut short. The lines are plain text: the
caller escapes them for Discord.

>>> fold_steps([("Ana attacks Goon with Knife: 35 (3·5) vs 40 — SUCCESS.",
...              "Ana hits Goon and chooses which die is damage."),
...             ("Goon takes 5 damage to the right leg: level 12 → 7. Marked 5 on the right "
...              "leg. Goon is unconscious.",),
...             ("PCs are done.", "Turn: NPCs."), ("NPCs are done.", "Round 1 ends.",
...              "Round 2 begins.", "Turn: PCs.")])
['Ana hits Goon (Knife)', 'Goon: 5 damage, right leg, level 12 → 7, unconscious', \
"Round 2 begins, now the PCs' turn"]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.words import team_turn

__all__ = ["fold_steps"]

#: A step that says nothing the rules below know is its first sentence, cut to this length.
FIRST_SENTENCE = 80

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")
_ROUND = re.compile(r"Round (\d+) begins\.")
_TURN = re.compile(r"Turn: (.+)\.")
_CLOCK = re.compile(r"Round \d+ ends\.|.+ are done\.")
_ATTACK = re.compile(r"(?P<a>.+?) (?:attacks|counterattacks) (?P<b>.+?) with (?P<w>.+?)"
                     r"(?:: .*)?\.")
_HIT = re.compile(r"(?P<a>.+?) hits (?P<b>.+?)(?: and |; |, |\.)")
_MISS = re.compile(r"(?P<a>.+?)'s (?:attack|counterattack) misses\.")
_DEFENDED = re.compile(r"(?P<r>.+?)'s Defend \(\d+\) .*: the attack misses\.")
_DAMAGE = re.compile(r"(?P<b>.+?) takes (?P<n>\d+) (?P<ll>less-lethal )?damage (?:to|on) the "
                     r"(?P<loc>[a-z ]+?)(?:: level (?P<x>\d+) → (?P<y>\d+))?(?:[.,:]|$)")
_NO_DAMAGE = re.compile(r"(?P<b>.+?) takes no damage")
_DOWN = re.compile(r"(?P<b>.+?) (?P<how>is unconscious|is dead|surrenders)\b")
_MOVES = re.compile(r"(?P<a>.+?) moves from (?P<x>.+?) to (?P<y>.+?)[.,]")
_MOVED = re.compile(r"(?P<a>.+?) is now in (?P<y>.+?)\.")
_JOINS = re.compile(r"(?P<a>.+?) joins the fight for (?P<t>.+?) in (?P<x>.+?)\.")
_OVER = re.compile(r".*Combat over after round (\d+)\.")


@dataclass
class _Step:
    """What one step told, as its facts: ``strong`` (an outcome) win over ``weak`` (what was
    declared and waits for an answer)."""

    strong: list[str] = field(default_factory=list)
    weak: list[str] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    turn: str | None = None
    attacks: dict[str, tuple[str, str]] = field(default_factory=dict)  # attacker: whom, with
    moves: dict[str, str] = field(default_factory=dict)  # mover: from where

    def read(self, sentence: str) -> None:
        """Take in one sentence of the step's events."""
        if found := _ROUND.fullmatch(sentence):
            self.rounds.append(int(found[1]))
        elif found := _TURN.fullmatch(sentence):
            self.turn = found[1]
        elif _CLOCK.fullmatch(sentence):
            pass
        elif found := _OVER.fullmatch(sentence):
            self.strong.append(f"The fight is over after round {found[1]}")
        else:
            self._read_deed(sentence)

    def _read_deed(self, sentence: str) -> None:
        if found := _DAMAGE.match(sentence):
            self.strong.append(_damage(found))
        elif found := _ATTACK.fullmatch(sentence):
            self.attacks[found["a"]] = (found["b"], found["w"])
            self.weak.append(f"{found['a']} attacks {found['b']} ({found['w']})")
        elif found := _MISS.fullmatch(sentence):
            whom = self.attacks.get(found["a"])
            self.strong.append(f"{found['a']} misses" + (f" {whom[0]}" if whom else ""))
        elif found := _DEFENDED.fullmatch(sentence):
            self.strong.append(f"{found['r']} defends: the attack misses")
        elif found := _HIT.match(sentence):
            whom = self.attacks.get(found["a"])
            weapon = f" ({whom[1]})" if whom and whom[0] == found["b"] else ""
            self.strong.append(f"{found['a']} hits {found['b']}{weapon}")
        elif found := _NO_DAMAGE.match(sentence):
            self.strong.append(f"{found['b']}: no damage")
        elif found := _MOVES.match(sentence):
            self.moves[found["a"]] = found["x"]
            self.weak.append(f"{found['a']} moves {found['x']} → {found['y']}")
        elif found := _MOVED.fullmatch(sentence):
            start = self.moves.get(found["a"])
            self.strong.append(f"{found['a']} moves {start} → {found['y']}" if start
                               else f"{found['a']} is now in {found['y']}")
        elif found := _JOINS.fullmatch(sentence):
            self.strong.append(f"{found['a']} joins ({found['t']}) in {found['x']}")
        elif (found := _DOWN.match(sentence)) and not self._said_down(found["b"]):
            self.strong.append(f"{found['b']} {found['how']}")

    def _said_down(self, name: str) -> bool:
        """Whether the step's damage line for ``name`` already says they are down."""
        return any(line.startswith(f"{name}: ") and line.endswith(
            ("unconscious", "dead", "surrenders")) for line in self.strong)

    def line(self) -> str:
        return "; ".join(_unrepeated(self.strong or self.weak))


def _damage(found: re.Match[str]) -> str:
    """"Goon: 5 damage, right leg, level 12 → 7, unconscious" (its state read from the rest
    of the sentence's event, which the caller gives whole)."""
    kind = "less-lethal damage" if found["ll"] else "damage"
    said = f"{found['b']}: {found['n']} {kind}, {found['loc']}"
    if found["x"] is not None:
        said += f", level {found['x']} → {found['y']}"
    down = _DOWN.search(found.string, found.end())
    if down is not None and down["b"].endswith(found["b"]):
        said += ", " + down["how"].removeprefix("is ")
    return said


def _unrepeated(facts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(facts))


def _sentences(texts: Sequence[str]) -> list[str]:
    """Each event's first line, sentence by sentence; a damage event stays whole (its later
    sentences say what the damage did to the one it hit)."""
    found: list[str] = []
    for text in texts:
        first = (text.splitlines() or [""])[0].strip()
        if _DAMAGE.match(first):
            found.append(first)
            continue
        found += [s for s in _SENTENCE_END.split(first) if s]
    return found


def _clock_line(first: int | None, last: int | None, turn: str | None) -> str:
    """"Round 3 → 5, now the PCs' turn"; "Now the NPCs' turn" when no round began."""
    whose = team_turn(turn) if turn else ""
    if first is None or last is None:
        return f"Now {whose}" if whose else ""
    rounds = f"Round {first} begins" if first == last else f"Round {first} → {last}"
    return f"{rounds}, now {whose}" if whose else rounds


def fold_steps(steps: Sequence[Sequence[str]]) -> list[str]:
    """A line per step of ``steps`` (each its events' texts, oldest first): its facts, or its
    first sentence; the rounds and turns between deeds in one line; a line that repeats the
    one before it counted ("× 3")."""
    lines: list[str] = []
    first: int | None = None
    last: int | None = None
    turn: str | None = None

    def flush_clock() -> None:
        nonlocal first, last, turn
        said = _clock_line(first, last, turn)
        if said:
            lines.append(said)
        first = last = turn = None

    for texts in steps:
        step = _Step()
        sentences = _sentences(texts)
        for sentence in sentences:
            step.read(sentence)
        deed = step.line() or (_first_sentence(sentences) if not (step.rounds or step.turn)
                               else "")
        if deed:
            flush_clock()
            lines.append(deed)
        if step.rounds:
            first = step.rounds[0] if first is None else first
            last = step.rounds[-1]
        turn = step.turn or (None if step.rounds else turn)
    flush_clock()
    return _counted(lines)


def _first_sentence(sentences: Sequence[str]) -> str:
    if not sentences:
        return ""
    first = sentences[0].rstrip(".")
    return first if len(first) <= FIRST_SENTENCE else first[:FIRST_SENTENCE - 1] + "…"


def _counted(lines: Sequence[str]) -> list[str]:
    """``lines`` with each run of one line said once, counted ("Goon 1 misses Ana × 3")."""
    counted: list[tuple[str, int]] = []
    for line in lines:
        if counted and counted[-1][0] == line:
            counted[-1] = (line, counted[-1][1] + 1)
        else:
            counted.append((line, 1))
    return [line if times == 1 else f"{line} × {times}" for line, times in counted]
