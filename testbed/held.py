"""What a table's store holds that people named: in a pseudo-locale run (testbed/pseudo.py)
these are said as they were written, whoever wrote them and however they reached the store (a
command typed in this test, a set-up helper writing to the store, a database copied from a
template another test built).

- names: characters' names, their items', gear and non-combat activities; the server maps'
  names and areas; the fights' fighters and teams (a team named by default is named in the
  language the fight was started in, and keeps that name);
- whole texts (allowed only where they appear whole, their words being English anywhere
  else): a character's concept and description, a map's notes, a session's goal, and the
  plain sentences an older bot logged for a fight (before its log kept phrases).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.store.interfaces import Store
from engine.character.model import Character
from engine.maps.game_map import parse_map

__all__ = ["Held", "held_by"]


@dataclass
class Held:
    names: set[str] = field(default_factory=set)
    whole: set[str] = field(default_factory=set)

    def update(self, other: Held) -> None:
        self.names.update(other.names)
        self.whole.update(other.whole)

    def add_character(self, character: Character) -> None:
        self.names.add(character.name)
        self.names.update(item.name for item in character.items)
        self.names.update((*character.gear, *character.good_at))
        self.whole.update(text for text in (character.concept, character.description) if text)

    def add_map(self, name: str, text: str) -> None:
        self.names.add(name)
        try:
            game_map = parse_map(text)
        except ValueError:  # (a map the bot refused is nobody's words on the table)
            return
        self.names.update(game_map.areas)
        self.whole.update(note for notes in game_map.notes_by_area for note in notes)


async def held_by(store: Store, guilds: Iterable[int], channels: Iterable[int]) -> Held:
    """What ``store`` holds for the servers ``guilds`` and the fights in ``channels``."""
    held = Held()
    for guild in guilds:
        for stored in await store.characters.list(guild):
            held.add_character(stored.character)
        for stored_map in await store.maps.in_guild(guild):
            held.add_map(stored_map.name, stored_map.text)
        session = await store.sessions.current(guild)
        if session is not None:
            held.whole.add(session.goal)
    for channel in channels:
        fight = await store.combats.active(channel)
        if fight is None:
            continue
        held.names.update(fight.state.teams)
        # (an older bot logged English sentences, not phrases: its log is the table's record)
        held.whole.update(said for entry in await store.combats.log(fight.id, limit=None)
                          for said in (*entry.events, *entry.gm_events) if isinstance(said, str))
        for fighter in fight.state.fighters:
            held.names.update((fighter.name, fighter.team))
            held.add_character(fighter.character)
    return held
