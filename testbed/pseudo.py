"""Playing in the pseudo-locale: the table's server and every user speak ``en-XA``, and every
text the bot sends to Discord (a message's content, embeds, button and menu labels, attached
text files, a modal, autocomplete choices, a thread's name) is read for English no catalogue
translated (:func:`bot.i18n.checks.untranslated`).

What may stay as it is: what users typed into commands and forms (names of characters, maps,
areas, items, notes), the data's names (the built-in maps and their areas), the server's
people and channels, Discord's markup and `code`. A :class:`PseudoWatch` keeps each leak as a
:class:`Leak`; :func:`group` folds them by the sentence they came from for a report.

Tests read the table in English all the same (:func:`english_view`): a pseudo text is shown
them as the English it was made from, so their clicks by label and their English assertions
still hold and a scenario is played to its end.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Protocol

from bot.cogs.maps.finding import builtin_map
from bot.cogs.player_settings import language_name
from bot.i18n import CATALOGUES
from bot.i18n.checks import untranslated
from bot.i18n.pseudo import plain_text
from data import builtin_maps

__all__ = ["LOCALE", "Group", "Leak", "PseudoWatch", "Waiting", "english_lines", "english_view",
           "group", "message_texts", "modal_texts", "sentence_of", "source_of",
           "start_watching", "stop_watching", "watching"]

#: The pseudo-locale as Discord would name it (the bot's catalogue ``en_XA``).
LOCALE = "en-XA"
#: Names on the table that are nobody's sentence: the bot's, the server's, its channels' and
#: its people's (testbed/harness.py).
TABLE_NAMES = ("Unhex", "Unhex Table", "fight", "tavern", "fight thread", "alice", "bob",
               "gamemaster")
_ROOT = Path(__file__).resolve().parent.parent
_WORDS = re.compile(r"[^\W\d_]+")
_JSON_KEY = re.compile(r'"[a-z_]+"\s*:')


@dataclass(frozen=True)
class Leak:
    """English that reached Discord: where (``content``, ``button``, ``modal``…), the whole
    text, its English words, and the test that made the bot send it."""

    test: str
    where: str
    text: str
    words: tuple[str, ...]


@cache
def _data_names() -> frozenset[str]:
    """The built-in maps' names and their areas' (data/maps), and the languages' own names
    (``Deutsch``, as `/settings language` lists them): names, never translated."""
    names = {*builtin_maps(), *(language_name(language) for language in CATALOGUES.languages())}
    for name in builtin_maps():
        names.update(builtin_map(name).areas)
    return frozenset(names)


@cache
def _data_notes() -> frozenset[str]:
    """The notes written on the built-in maps' areas (data/maps): the map's own text, said as
    written (allowed whole: their words are English anywhere else)."""
    return frozenset(note for name in builtin_maps()
                     for notes in builtin_map(name).notes_by_area for note in notes)


class Waiting(Protocol):
    """A table holding texts it suspects of English until it has looked in its store
    (testbed/languages.py)."""

    def flush(self) -> None: ...


@dataclass
class PseudoWatch:
    """What one run found: every leak, and what the test running now may say as it is."""

    leaks: list[Leak] = field(default_factory=list)
    test: str = ""
    allowed: set[str] = field(default_factory=set)
    #: Texts said as written only where they appear whole (their words are not allowed).
    allowed_whole: set[str] = field(default_factory=set)
    #: The tables whose suspects are not judged yet.
    waiting: list[Waiting] = field(default_factory=list)

    def begin(self, test: str) -> None:
        """A new test: nothing typed yet (the last test's suspects not judged are leaks)."""
        self.flush()
        self.test = test
        self.allowed = {*TABLE_NAMES, *_data_names()}
        self.allowed_whole = set(_data_notes())

    def flush(self) -> None:
        """Every suspect not judged yet kept as a leak."""
        while self.waiting:
            self.waiting.pop().flush()

    def allow(self, values: Iterable[Any]) -> None:
        """What a user typed: it reaches Discord again as it was typed (a value of another
        type, as a test may send where Discord would not, as Python writes it)."""
        typed = [value if isinstance(value, str) else str(value)
                 for value in values if isinstance(value, str | int | float)]
        # (a refusal quotes a name it does not know as Python writes a string: escaped)
        self.allowed.update(form for text in typed
                            for form in (text, repr(text), repr(text.strip())))

    def allow_whole(self, values: Iterable[str]) -> None:
        """Texts a test put on the table as a user would have (a map's name stored by the
        test): said as written wherever they appear whole."""
        self.allowed_whole.update(values)

    def suspect(self, where: str, text: str) -> Leak | None:
        """``text`` as a leak if it has English besides what was typed in this test."""
        words = self._english(text, self.allowed, self.allowed_whole)
        return Leak(self.test, where, text, tuple(words)) if words else None

    def judged(self, suspect: Leak, names: Iterable[str], whole: Iterable[str]) -> Leak | None:
        """``suspect`` without the words of ``names`` and ``whole`` (what the table's store
        holds): a leak if English is left."""
        words = set(self._english(suspect.text, {*self.allowed, *names},
                                  {*self.allowed_whole, *whole}))
        left = tuple(word for word in suspect.words if word in words)
        return Leak(suspect.test, suspect.where, suspect.text, left) if left else None

    def _english(self, text: str, allowed: set[str], whole: set[str]) -> list[str]:
        return [word for word in untranslated(_without_whole(text, whole), allowed)
                if not _cut_short(word, allowed)]


def _without_whole(text: str, wholes: set[str]) -> str:
    """``text`` with the texts allowed whole taken out, the longest first, and JSON's keys
    (``"schema_version":``, as in a paste's example): a format's words, like `code`."""
    for whole in sorted(wholes, key=len, reverse=True):
        if whole in text:
            text = text.replace(whole, " ")
    return _JSON_KEY.sub(" ", text)


def _cut_short(word: str, allowed: set[str]) -> bool:
    """Whether ``word`` is the start of a word of something typed, cut short to fit."""
    return len(word) >= 4 and any(typed.startswith(word) for name in allowed
                                  for typed in _WORDS.findall(name))


_WATCH: list[PseudoWatch] = []


def start_watching() -> PseudoWatch:
    """Every table made from now on plays in the pseudo-locale and reports to a new watch
    (until :func:`stop_watching`, which gives back the watch before it, if any)."""
    _WATCH.append(PseudoWatch())
    return _WATCH[-1]


def stop_watching() -> None:
    _WATCH.pop()


def watching() -> PseudoWatch | None:
    return _WATCH[-1] if _WATCH else None


# -- what a body says ----------------------------------------------------------------------

#: Components' keys whose text a user reads (labels, placeholders, a menu option's
#: description, a text display's content).
_SHOWN = ("label", "placeholder", "description", "content", "title")


def _component_texts(component: dict[str, Any]) -> Iterator[tuple[str, str]]:
    kind = {2: "button", 3: "menu", 4: "field", 10: "text", 18: "label"}.get(
        component.get("type", 0), "component")
    for key in _SHOWN:
        if isinstance(component.get(key), str):
            yield kind, component[key]
    for option in component.get("options") or ():
        for key in ("label", "description"):
            if option.get(key):
                yield "menu option", option[key]
    for child in (*(component.get("components") or ()), component.get("component")):
        if isinstance(child, dict):
            yield from _component_texts(child)


def _embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description"):
        if embed.get(key):
            yield embed[key]
    for part in ("footer", "author"):
        text = (embed.get(part) or {}).get("text") or (embed.get(part) or {}).get("name")
        if text:
            yield text
    for embed_field in embed.get("fields") or ():
        yield embed_field.get("name") or ""
        yield embed_field.get("value") or ""


def message_texts(body: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of everything a message body shows; a text file attached counts
    (the log file), a JSON one is data."""
    if body.get("content"):
        yield "content", body["content"]
    for embed in body.get("embeds") or ():
        for text in _embed_texts(embed):
            yield "embed", text
    for row in body.get("components") or ():
        yield from _component_texts(row)
    for attachment in body.get("attachments") or ():
        data = attachment.get("data")
        if isinstance(data, bytes) and not attachment["filename"].endswith(".json"):
            yield "file", data.decode(errors="replace")


def modal_texts(body: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(where, text)`` of a modal: its title, its rows' labels, descriptions, placeholders
    and menus (what is filled in already is the user's own)."""
    yield "modal", body.get("title") or ""
    for row in body.get("components") or ():
        for where, text in _component_texts(row):
            yield f"modal {where}", text


# -- what the tests read ---------------------------------------------------------------------

def english_view(value: Any) -> Any:
    """``value`` (a body, a component, a text) with every pseudo text back in English."""
    if isinstance(value, str):
        return plain_text(value)
    if isinstance(value, dict):
        return {key: english_view(item) if key != "custom_id" else item
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(english_view(item) for item in value)
    return value


# -- the report --------------------------------------------------------------------------------

_TOKEN = re.compile(r"<[^<>\s]+>|`[^`]*`|[^\W\d_]+|\d+")


def english_lines(leak: Leak) -> list[str]:
    """What a leak's English looks like wherever it is sent: each line with English, as its
    English words in order, ``#`` for a number, `code` as it is, ``…`` for the rest (what a
    catalogue translated, names, markup)."""
    english = set(leak.words)
    lines = []
    for line in leak.text.splitlines():
        tokens = _TOKEN.findall(line)
        if not english.intersection(tokens):
            continue
        shown: list[str] = []
        for token in tokens:
            said = (token if token in english or token.startswith("`")
                    else "#" if token.isdigit() else "…")
            if not (said == "…" and shown and shown[-1] == "…"):
                shown.append(said)
        lines.append(" ".join(shown))
    return list(dict.fromkeys(lines))


def sentence_of(leak: Leak) -> str:
    """The English a leak came from, its lines in one (:func:`english_lines`)."""
    return " / ".join(english_lines(leak))[:160]


@cache
def _sources() -> dict[str, str]:
    return {str(path.relative_to(_ROOT)): path.read_text()
            for folder in ("bot", "engine") for path in (_ROOT / folder).rglob("*.py")}


def source_of(sentence: str) -> str:
    """The bot's or engine's file that most likely says the sentence: the one with a string
    starting with its longest English run, else the one holding that run anywhere."""
    runs = sorted((run.strip() for run in re.split(r"…|#|`[^`]*`|/", sentence)),
                  key=len, reverse=True)
    for run in (run for run in runs if len(run) >= 3):
        for pattern in (f'"{run}', f"'{run}", run if len(run) >= 6 else None):
            found = [path for path, text in _sources().items() if pattern and pattern in text]
            if found:
                return found[0] if len(found) == 1 else f"{found[0]} (+{len(found) - 1})"
    return "?"


@dataclass(frozen=True)
class Group:
    """The leaks of one sentence: how often, from which tests, said where."""

    sentence: str
    source: str
    count: int
    tests: tuple[str, ...]
    where: tuple[str, ...]
    words: tuple[str, ...]
    example: str


def group(leaks: Iterable[Leak]) -> list[Group]:
    """The leaks folded by their sentence (:func:`sentence_of`), most frequent first."""
    by_sentence: dict[str, list[Leak]] = defaultdict(list)
    for leak in leaks:
        by_sentence[sentence_of(leak)].append(leak)
    groups = []
    for sentence, found in by_sentence.items():
        words = Counter(word for leak in found for word in leak.words)
        groups.append(Group(sentence, source_of(sentence), len(found),
                            tuple(dict.fromkeys(leak.test for leak in found)),
                            tuple(dict.fromkeys(leak.where for leak in found)),
                            tuple(word for word, _ in words.most_common(8)),
                            found[0].text[:300]))
    return sorted(groups, key=lambda g: (g.source, -g.count, g.sentence))
