"""A fight's log folded for someone coming back to it: a short line per step — who did what
to whom and how it went (a hit, a miss, the damage and the level it left, a move, who joined,
who is down) — instead of the step's every sentence, and the rounds and turns that passed
between them in one line ("Round 3 → 5, now the PCs' turn"), in the reader's language.

The log keeps each step's events as values (:class:`~engine.phrases.Phrase`: a source and
its arguments; an older log's plain English sentences too, see
:class:`~bot.store.values.LogEntry`). A step is read from its phrases' sources, their names
and numbers taken from the arguments (a phrase's sentence is read with each name and number
standing in for its placeholder, so a name that looks like a sentence is never misread); an
older entry's sentences are read as they are. A step none of them tells is its first
sentence, cut short. The lines are plain text: the caller escapes them for Discord.

>>> fold_steps([("Ana attacks Goon with Knife: 35 (3·5) vs 40 — SUCCESS.",
...              "Ana hits Goon and chooses which die is damage."),
...             ("Goon takes 5 damage to the right leg: level 12 → 7. Marked 5 on the right "
...              "leg. Goon is unconscious.",),
...             ("PCs are done.", "Turn: NPCs."), ("NPCs are done.", "Round 1 ends.",
...              "Round 2 begins.", "Turn: PCs.")], "en")
['Ana hits Goon (Knife)', 'Goon: 5 damage, right leg, level 12 → 7, unconscious', \
"Round 2 begins, now the PCs' turn"]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.i18n import render
from engine.phrases import Argument, Phrase, Said, phrase

__all__ = ["fold_steps"]

#: A step that says nothing the rules below know is its first sentence, cut to this length.
FIRST_SENTENCE = 80

#: A phrase's name or number as its sentence is read: its place among the arguments.
_HOLE = "\ue000{}\ue001"
_HELD = re.compile("\ue000(\\d+)\ue001")
_LAST_HELD = re.compile("\ue000(\\d+)\ue001$")
_NUMBER = r"(?:\d+|\ue000\d+\ue001)"

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\ue000])")
_ROUND = re.compile(rf"Round ({_NUMBER}) begins\.")
_TURN = re.compile(r"Turn: (.+)\.")
_CLOCK = re.compile(rf"Round {_NUMBER} ends\.|.+ are done\.")
_ATTACK = re.compile(r"(?P<a>.+?) (?:attacks|counterattacks) (?P<b>.+?) with (?P<w>.+?)"
                     r"(?:: .*)?\.")
_HIT = re.compile(r"(?P<a>.+?) hits (?P<b>.+?)(?: and |; |, |\.)")
_MISS = re.compile(r"(?P<a>.+?)'s (?:attack|counterattack) misses\.")
_DEFENDED = re.compile(rf"(?P<r>.+?)'s Defend \({_NUMBER}\) .*: the attack misses\.")
_DAMAGE = re.compile(rf"(?P<b>.+?) takes (?P<n>{_NUMBER}) (?P<ll>less-lethal )?damage (?:to|on) "
                     rf"the (?P<loc>[a-z ]+?|\ue000\d+\ue001)(?:: level (?P<x>{_NUMBER}) → "
                     rf"(?P<y>{_NUMBER}))?(?:[.,:]|$)")
_NO_DAMAGE = re.compile(r"(?P<b>.+?) takes no damage")
_DOWN = re.compile(r"(?P<b>.+?) (?P<how>is unconscious|is dead|surrenders)\b")
_MOVES = re.compile(r"(?P<a>.+?) moves from (?P<x>.+?) to (?P<y>.+?)[.,]")
_MOVED = re.compile(r"(?P<a>.+?) is now in (?P<y>.+?)\.")
_JOINS = re.compile(r"(?P<a>.+?) joins the fight for (?P<t>.+?) in (?P<x>.+?)\.")
_OVER = re.compile(rf".*Combat over after round ({_NUMBER})\.")



def _down_alone(how: str, name: Argument) -> Phrase:
    """Who is down, on a line of their own."""
    if how == "is dead":
        return phrase("{name} is dead", name=name)
    if how == "surrenders":
        return phrase("{name} surrenders", name=name)
    return phrase("{name} is unconscious", name=name)


def _down_after(how: str, said: Phrase) -> Phrase:
    """Who is down, after their damage line."""
    if how == "is dead":
        return phrase("{said}, dead", said=said)
    if how == "surrenders":
        return phrase("{said}, surrenders", said=said)
    return phrase("{said}, unconscious", said=said)


@dataclass(frozen=True)
class _Sentence:
    """A sentence of a step, in English, each name and number of a phrase held by its place
    in ``values`` (an older log's sentence holds none); ``words``: the words from the rules'
    tables in it (a body part), by their English, to be said in the reader's language."""

    text: str
    values: tuple[Argument, ...] = ()
    words: tuple[tuple[str, Phrase], ...] = ()

    def value(self, held: str) -> Argument:
        """What a part of the sentence read (a group of a match) stands for: a name or a
        number of the phrase, a word of the rules, or the text as it is."""
        whole = _HELD.fullmatch(held)
        if whole is not None:
            return self.values[int(whole[1])]
        word = dict(self.words).get(held)
        if word is not None:
            return word
        return _HELD.sub(lambda found: str(self.values[int(found[1])]), held)

    def ends_with(self, held: str, name: Argument) -> bool:
        """Whether a part of the sentence ends with ``name`` (the whole part read being, say,
        "Marked 5 on the right leg. Goon")."""
        last = _LAST_HELD.search(held)
        if last is not None:
            return self.values[int(last[1])] == name
        return held.endswith(str(name))

    def named(self, found: re.Match[str], *groups: str) -> dict[str, Argument]:
        return {group: self.value(found[group]) for group in groups}


def _number(value: Argument) -> Argument:
    """A round's number as one, whether an older log's sentence or a phrase said it."""
    return int(value) if isinstance(value, str) and value.isdigit() else value


def _held(said: Said, values: list[Argument], words: dict[str, Phrase]) -> str:
    """``said`` in English, each name and number of its phrases held by its place in
    ``values``; its words (phrases without arguments) said in English and kept in ``words``."""
    if isinstance(said, str):
        return said
    if not said.arguments:
        english = said.english()
        words[english] = said
        return english
    held: dict[str, str] = {}
    for name, value in said.arguments:
        if isinstance(value, Phrase):
            held[name] = _held(value, values, words)
        else:
            values.append(value)
            held[name] = _HOLE.format(len(values) - 1)
    source = said.msgid
    if said.msgid_plural is not None and said.plural_count() != 1:
        source = said.msgid_plural
    return source.format(**held)


@dataclass
class _Step:
    """What one step told, as its facts: ``strong`` (an outcome) win over ``weak`` (what was
    declared and waits for an answer)."""

    strong: list[Phrase] = field(default_factory=list)
    weak: list[Phrase] = field(default_factory=list)
    rounds: list[Argument] = field(default_factory=list)
    turn: Argument | None = None
    attacks: dict[Argument, tuple[Argument, Argument]] = field(default_factory=dict)
    moves: dict[Argument, Argument] = field(default_factory=dict)  # mover: from where
    down: set[Argument] = field(default_factory=set)  # said down by their damage line

    def read(self, sentence: _Sentence) -> None:
        """Take in one sentence of the step's events."""
        text = sentence.text
        if found := _ROUND.fullmatch(text):
            self.rounds.append(_number(sentence.value(found[1])))
        elif found := _TURN.fullmatch(text):
            self.turn = sentence.value(found[1])
        elif _CLOCK.fullmatch(text):
            pass
        elif found := _OVER.fullmatch(text):
            self.strong.append(phrase("The fight is over after round {round}",
                                      round=sentence.value(found[1])))
        elif found := _DAMAGE.match(text):
            self.strong.append(self._damage(sentence, found))
        else:
            self._read_deed(sentence)

    def _read_deed(self, sentence: _Sentence) -> None:
        text = sentence.text
        if found := _ATTACK.fullmatch(text):
            said = sentence.named(found, "a", "b", "w")
            self.attacks[said["a"]] = (said["b"], said["w"])
            self.weak.append(phrase("{attacker} attacks {target} ({weapon})",
                                    attacker=said["a"], target=said["b"], weapon=said["w"]))
        elif found := _MISS.fullmatch(text):
            attacker = sentence.value(found["a"])
            whom = self.attacks.get(attacker)
            self.strong.append(phrase("{attacker} misses", attacker=attacker) if whom is None
                               else phrase("{attacker} misses {target}", attacker=attacker,
                                           target=whom[0]))
        elif found := _DEFENDED.fullmatch(text):
            self.strong.append(phrase("{defender} defends: the attack misses",
                                      defender=sentence.value(found["r"])))
        elif found := _HIT.match(text):
            said = sentence.named(found, "a", "b")
            whom = self.attacks.get(said["a"])
            self.strong.append(
                phrase("{attacker} hits {target} ({weapon})", attacker=said["a"],
                       target=said["b"], weapon=whom[1]) if whom and whom[0] == said["b"]
                else phrase("{attacker} hits {target}", attacker=said["a"], target=said["b"]))
        elif found := _NO_DAMAGE.match(text):
            self.strong.append(phrase("{target}: no damage", target=sentence.value(found["b"])))
        else:
            self._read_whereabouts(sentence)

    def _read_whereabouts(self, sentence: _Sentence) -> None:
        text = sentence.text
        if found := _MOVES.match(text):
            said = sentence.named(found, "a", "x", "y")
            self.moves[said["a"]] = said["x"]
            self.weak.append(phrase("{mover} moves {start} → {end}", mover=said["a"],
                                    start=said["x"], end=said["y"]))
        elif found := _MOVED.fullmatch(text):
            said = sentence.named(found, "a", "y")
            start = self.moves.get(said["a"])
            self.strong.append(
                phrase("{mover} moves {start} → {end}", mover=said["a"], start=start,
                       end=said["y"]) if start is not None
                else phrase("{mover} is now in {area}", mover=said["a"], area=said["y"]))
        elif found := _JOINS.fullmatch(text):
            said = sentence.named(found, "a", "t", "x")
            self.strong.append(phrase("{name} joins ({team}) in {area}", name=said["a"],
                                      team=said["t"], area=said["x"]))
        elif (found := _DOWN.match(text)) and sentence.value(found["b"]) not in self.down:
            self.strong.append(_down_alone(found["how"], sentence.value(found["b"])))

    def _damage(self, sentence: _Sentence, found: re.Match[str]) -> Phrase:
        """"Goon: 5 damage, right leg, level 12 → 7, unconscious" (its state read from the
        rest of the sentence's event, which the caller gives whole)."""
        said = sentence.named(found, "b", "n", "loc")
        if found["ll"]:
            line = phrase("{target}: {amount} less-lethal damage, {location}",
                          target=said["b"], amount=said["n"], location=said["loc"])
        else:
            line = phrase("{target}: {amount} damage, {location}", target=said["b"],
                          amount=said["n"], location=said["loc"])
        if found["x"] is not None:
            line = phrase("{said}, level {before} → {after}", said=line,
                          before=sentence.value(found["x"]), after=sentence.value(found["y"]))
        down = _DOWN.search(found.string, found.end())
        if down is not None and sentence.ends_with(down["b"], said["b"]):
            line = _down_after(down["how"], line)
            self.down.add(said["b"])
        return line

    def facts(self) -> list[Phrase]:
        return _unrepeated(self.strong or self.weak)


def _unrepeated(facts: Iterable[Phrase]) -> list[Phrase]:
    return list(dict.fromkeys(facts))


def _sentences(texts: Sequence[Said]) -> list[_Sentence]:
    """Each event's first line, sentence by sentence; a damage event stays whole (its later
    sentences say what the damage did to the one it hit)."""
    found: list[_Sentence] = []
    for said in texts:
        values: list[Argument] = []
        words: dict[str, Phrase] = {}
        text = _held(said, values, words)
        first = (text.splitlines() or [""])[0].strip()
        kept = (tuple(values), tuple(words.items()))
        if _DAMAGE.match(first):
            found.append(_Sentence(first, *kept))
            continue
        found += [_Sentence(part, *kept) for part in _SENTENCE_END.split(first) if part]
    return found


def _turn_of(team: Argument) -> Phrase:
    """Whose turn it is, as said inside a sentence. A team's name ending in a single "s"
    reads as a plural in English ("PCs", "Goons"): "the PCs' turn"; any other name takes
    "'s" (as :func:`engine.words.team_turn` says it)."""
    name = str(team)
    if not name.endswith("s") or name.endswith("ss"):
        return phrase("{team}'s turn", team=team)
    if name.casefold().startswith("the "):
        return phrase("{team}' turn", team=team)
    return phrase("the {team}' turn", team=team)


def _clock_line(first: Argument | None, last: Argument | None,
                turn: Argument | None) -> Phrase | None:
    """"Round 3 → 5, now the PCs' turn"; "Now the NPCs' turn" when no round began."""
    if first is None or last is None:
        return None if turn is None else phrase("Now {turn}", turn=_turn_of(turn))
    if turn is None:
        return (phrase("Round {first} begins", first=first) if first == last else
                phrase("Round {first} → {last}", first=first, last=last))
    if first == last:
        return phrase("Round {first} begins, now {turn}", first=first, turn=_turn_of(turn))
    return phrase("Round {first} → {last}, now {turn}", first=first, last=last,
                  turn=_turn_of(turn))


def fold_steps(steps: Sequence[Sequence[Said]], language: str) -> list[str]:
    """A line per step of ``steps`` (each its events' texts, oldest first) in ``language``:
    its facts, or its first sentence; the rounds and turns between deeds in one line; a
    line that repeats the one before it counted ("× 3")."""
    lines: list[str] = []
    first: Argument | None = None
    last: Argument | None = None
    turn: Argument | None = None

    def flush_clock() -> None:
        nonlocal first, last, turn
        said = _clock_line(first, last, turn)
        if said is not None:
            lines.append(render(said, language))
        first = last = turn = None

    for texts in steps:
        step = _Step()
        for sentence in _sentences(texts):
            step.read(sentence)
        facts = step.facts()
        deed = ("; ".join(render(fact, language) for fact in facts) if facts else
                _first_sentence(texts, language) if not (step.rounds or step.turn) else "")
        if deed:
            flush_clock()
            lines.append(deed)
        if step.rounds:
            first = step.rounds[0] if first is None else first
            last = step.rounds[-1]
        turn = step.turn or (None if step.rounds else turn)
    flush_clock()
    return _counted(lines)


def _first_sentence(texts: Sequence[Said], language: str) -> str:
    """The step's first sentence in ``language``, cut to :data:`FIRST_SENTENCE`."""
    sentences = [part for said in texts
                 for part in _SENTENCE_END.split(
                     (render(said, language).splitlines() or [""])[0].strip()) if part]
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
