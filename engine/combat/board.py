"""The combat board: one plain-text message, edited as the fight goes."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from engine import textwidth as tw
from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.abilities.hooks import board_words
from engine.combat.actions.aoe_effects import effect_text
from engine.combat.asking import asked
from engine.combat.crowd import Row, group_copies, group_waits, sectioned
from engine.combat.hidden_npcs import is_npc, level_said
from engine.combat.model import Combat, Fighter, Phase, game_map_of
from engine.combat.prompts import SPECS
from engine.combat.stealth import hidden
from engine.maprender import marker_letters, render_grid
from engine.names import name_key
from engine.phrases import Said, english, phrase, plural_phrase

__all__ = ["Say", "fighter_lines", "render_board"]

#: How the board says a phrase: in the reader's language (the bot renders it), else English.
Say = Callable[[Said], str]

MAX_CHARS = 1980  # the bot wraps the board in a 12-character code block
#: Said where the map would be when the fighters need its room (`/map show` draws it).
MAP_LEFT_OUT = phrase("Map left out (crowded): /map show")
#: Said where the map would be when it has no grid to draw (an area without ``@ col,row``):
#: its list of areas would fill the board at every edit, and each fighter's line names its area.
MAP_LISTED = phrase("Map: /map show lists its areas")
#: Said where the map would be when its grid is wider or longer than a board can hold.
MAP_TOO_BIG = phrase("Map: /map show (too big to draw here)")
#: Under the fighters, what their short marks mean (the second only when a leader has one).
#: Translators: the board's key; keep it within 40 columns.
KEY = phrase("aN: N actions left this round")
#: Translators: the board's key; keep it within 40 columns.
KEY_DIRECT = phrase("dN: N more, only to direct others")
#: The fields of a step that name a fighter the fight is resolving something for.
_STEP_FIGHTERS = ("attacker", "target", "mover", "treater", "leader", "fighter",
                  "intercepting")


# Short, so that a fighter's line fits a phone: the sheet spells the condition out.
_CONDITION = {
    Status.UNCONSCIOUS: phrase("KO"),
    Status.SURRENDERED: phrase("yielded"),
    Status.DEAD: phrase("dead"),
}
#: The phases as the board's first line names them.
_PHASES = {
    Phase.SETUP: phrase("setup"),
    Phase.INITIATIVE: phrase("initiative"),
    Phase.TURN: phrase("turn"),
    Phase.REACTION: phrase("reaction"),
    Phase.RESOLUTION: phrase("resolution"),
    Phase.ENDING: phrase("ending"),
    Phase.ENDED: phrase("ended"),
}


def _waiting(combat: Combat, rules: Rules, columns: int, say: Say, *, grouped: bool = False
             ) -> list[str]:
    """What the fight waits for; ``grouped``: NPC copies waited on for the same reason
    share an entry ("Goon 1-12 (act)")."""
    if combat.phase is Phase.SETUP:
        return tw.wrap(say(phrase("Waiting for: /combat add, then begin.")), columns)
    if combat.phase is Phase.ENDED:
        return [say(phrase("The fight is over."))]
    waits = [(q.who, say(q.waiting)) for q in asked(combat, rules).questions if not q.offer]
    parts = group_waits(waits) if grouped else [f"{who} ({why})" for who, why in waits]
    return tw.wrap_items(say(phrase("Waiting for:")), parts or [say(phrase("nothing"))],
                         columns)


def _at_hand(combat: Combat, rules: Rules, columns: int, say: Say) -> list[str]:
    """Under the waiting line, per decider, what their abilities give the roll at hand
    ("Ana: good (2H melee attack)"), wrapped to ``columns``."""
    if combat.phase in (Phase.SETUP, Phase.ENDED):
        return []
    said_lines: list[str] = []
    for q in asked(combat, rules).questions:
        if q.offer or q.fighter is None or q.applies is None:
            continue
        line = f"{q.who}: {say(q.applies)}"
        if line not in said_lines:
            said_lines.append(line)
    return [part for line in said_lines for part in tw.wrap(line, columns)]


def fighter_lines(name: str, team: str, area: str, level: str, state: str,
                  columns: int = 40) -> list[str]:
    """One fighter on the board: ``Ana [PCs] Dance Floor 40/40 a1`` when that fits
    ``columns``. Else the name, the ``level`` text and the ``state`` (actions left and
    markers) come first and team and area follow on an indented line; a name too long to
    share its line goes alone with the numbers leading the next line. A name, a team and an
    area are each broken over lines only when one is wider than a line.

    >>> fighter_lines("Ana", "PCs", "Dance Floor", "40/40", "a1")
    ['Ana [PCs] Dance Floor 40/40 a1']
    >>> fighter_lines("Anastasia Fairweather", "PCs", "Pool Tables", "40/40", "a1 KO")
    ['Anastasia Fairweather 40/40 a1 KO', '  [PCs] Pool Tables']
    >>> fighter_lines("Anastasia Longname-Fairweather X", "PCs", "Garden of the Silver Moon",
    ...               "50/50", "a0")
    ['Anastasia Longname-Fairweather X', '  50/50 a0 [PCs]', '  Garden of the Silver Moon']
    """
    whole = f"{name} [{team}] {area} {level} {state}"
    if tw.width(whole) <= columns:
        return [whole]
    where = [f"[{team}]", area]
    first = f"{name} {level} {state}"
    if tw.width(first) <= columns:
        return [first, *tw.wrap_items("  ", where, columns, sep="")]
    return [*tw.wrap(name, columns), *tw.wrap_items(f"  {level} {state}", where, columns, sep="")]


def _fighter_state(combat: Combat, f: Fighter, rules: Rules, say: Say) -> str:
    """Actions left, then the leader's marks, the condition and the words in force."""
    words: list[Said] = [f"a{f.actions}"]
    if f.direct_actions:
        words.append(f"d{f.direct_actions}")
    if f.directed is not None:
        words.append(phrase("directed"))
    condition = _CONDITION.get(status(f.character, rules=rules))
    if condition is not None:
        words.append(condition)
    words += board_words(f)
    if hidden(combat, f, rules):
        words.append(phrase("hidden"))
    return " ".join(say(word) for word in words)


@lru_cache(maxsize=256)
def _drawn(map_text: str, changes: tuple[tuple[str, str], ...],
           occupants: tuple[tuple[str, tuple[str, ...]], ...],
           markers: tuple[tuple[str, str], ...], width: int, say: Say) -> str:
    """The map's grid (with the AoE Cover and Demolish in play) with who is where, its legend
    said by ``say``, else a line saying where the map is; most steps move nobody, so the
    drawing is kept (per ``say``: a reader's language keeps one ``say``)."""
    m = game_map_of(map_text)
    for kind, area in changes:
        m = m.with_area_cover(area) if kind == "cover" else m.demolished(area)
    grid = render_grid(m, dict(occupants), width=width, markers=dict(markers), say=say)
    if grid is not None:
        return grid
    return say(MAP_LISTED if None in m.positions else MAP_TOO_BIG)


def _key(combat: Combat, say: Say) -> list[str]:
    """The lines that say what ``a1`` (and ``d1``, when a leader has it) means."""
    if not combat.fighters:
        return []
    direct = [KEY_DIRECT] if any(f.direct_actions for f in combat.fighters) else []
    return [say(line) for line in (KEY, *direct)]


def render_board(combat: Combat, *, rules: Rules, width: int = 40, gm: bool = False,
                 say: Say = english) -> str:
    """Round, phase, whose turn, each fighter (name, team, area, level/max, actions left —
    ``d1``: a leader's action that can only direct, ``directed``: a leader's direction waits
    on them —, KO, yielded or dead when out of the fight, a declaration in force such as
    all-out, and hidden while Stealth's mark counts; see :func:`fighter_lines`), the items on
    the floor, the AoE effects in play and when they end, the map with a marker per fighter
    (AoE cover and demolished marks drawn), what the fight waits for (offers aside), and
    under it what each decider's abilities give the roll at hand ("Ana: good (2H melee
    attack)"). A key under the fighters says what ``a1`` (and ``d1``) means; a map that has
    no grid to draw here is a line saying ``/map show`` has it (its list of areas would fill
    the board at every edit). Every line within ``width`` columns; at most 1,980 characters:
    a crowded board groups NPC copies that read the same and lets the map give way first (see
    :func:`_fit`). An NPC whose figures the GM hides shows how hurt it looks instead of its
    level, unless ``gm``. ``say``: each phrase in the reader's language (the engine's
    English by default); every line is fitted to ``width`` as it reads in that language."""
    phase = _PHASES[combat.phase]
    head = say(phrase("Round {round} · {phase}", round=combat.round, phase=phase))
    if combat.acting_team is not None and combat.phase is not Phase.ENDED:
        head = say(phrase("Round {round} · {phase} · {team} acting", round=combat.round,
                          phase=phase, team=combat.acting_team))
    rows = _rows(combat, rules, gm, say)
    rest = _key(combat, say)
    floor = [
        say(phrase("{item} ({owner}) in {area}", item=f.character.items[d.index].name,
                   owner=f.name, area=d.area))
        for f in combat.fighters
        for d in f.dropped
        if not f.character.items[d.index].destroyed
    ]
    if floor:
        rest += tw.wrap_items(say(phrase("On the floor:")), floor, width, ";")
    if combat.effects:
        rest += tw.wrap_items(say(phrase("Effects:")),
                              [say(effect_text(e)) for e in combat.effects], width, ";")
    on_map = combat.fighters
    occupants: dict[str, list[str]] = {}
    for f in on_map:
        occupants.setdefault(f.area, []).append(f.name)
    markers = marker_letters([f.name for f in on_map])
    changes = tuple((e.kind, e.area) for e in combat.effects if e.kind != "continuous")
    board_map = _drawn(combat.map_text, changes,
                       tuple((a, tuple(n)) for a, n in occupants.items()),
                       tuple(markers.items()), width, say)
    at_hand = _at_hand(combat, rules, width, say)

    def waiting(grouped: bool) -> str:
        return "\n".join([*_waiting(combat, rules, width, say, grouped=grouped), *at_hand])

    return _fit("\n".join(tw.wrap(head, width)), rows, rest, board_map, waiting, width, say)


def _involved(combat: Combat) -> set[str]:
    """The keys of the fighters the fight acts or waits on: those a prompt (offers aside)
    asks, and those a step being resolved names (attacker, target, mover, …)."""
    names = [p.fighter for p in combat.prompts if p.fighter and not SPECS[p.kind].offer]
    for step in combat.steps:
        # (a step's fields are its values; a field it lacks is not looked up through pydantic's
        # __getattr__, which raises and catches for each)
        values = vars(step)
        names += [values.get(field) or "" for field in _STEP_FIGHTERS]
        names += [t.fighter for t in values.get("targets", ())]
    return {name_key(n) for n in names if n}


def _rows(combat: Combat, rules: Rules, gm: bool, say: Say) -> list[Row]:
    """Each fighter's line as the reader sees it (see :func:`fighter_lines`)."""
    involved = _involved(combat)
    return [Row(f.name, f.team, f.area, say(level_said(combat, f, rules, gm=gm)),
                _fighter_state(combat, f, rules, say), npc=is_npc(f), keep=f.key in involved)
            for f in combat.fighters]


def _lines(rows: list[Row], width: int) -> list[str]:
    return ["\n".join(fighter_lines(r.name, r.team, r.area, r.level, r.state, width))
            for r in rows]


def _fit(head: str, rows: list[Row], rest: list[str], board_map: str,
         waiting: Callable[[bool], str], width: int, say: Say) -> str:
    """The board within MAX_CHARS, every fighter in it while that can be. First the NPC
    copies that read the same share a line (:func:`group_copies`; so do they in the waiting
    line, ``waiting(True)``), which loses nothing. Then what gives way, in order: the map (a
    line says so), team and area beside each name (they go in headings, :func:`sectioned`),
    and last the fighters the fight neither acts nor waits on, the last added first
    (counted). What the fight waits for, and whom, always stays. Each way is drawn only when
    the one before it is too long (most boards fit the first)."""
    text = "\n".join([head, *_lines(rows, width), *rest, board_map, waiting(False)])
    if len(text) <= MAX_CHARS:
        return text
    grouped = group_copies(rows)
    crowded = waiting(True)
    grouped_lines = _lines(grouped, width)
    left_out_map = say(MAP_LEFT_OUT)
    ways: tuple[Callable[[], tuple[list[str], str]], ...] = (
        lambda: (grouped_lines, board_map), lambda: (grouped_lines, left_out_map),
        lambda: (sectioned(grouped, width), left_out_map))
    for way in ways:
        fighters, drawn = way()
        text = "\n".join([head, *fighters, *rest, drawn, crowded])
        if len(text) <= MAX_CHARS:
            return text
    shown, left_out = list(grouped), 0
    while droppable := [i for i, row in enumerate(shown) if not row.keep]:
        left_out += shown.pop(droppable[-1]).count
        more = say(plural_phrase("… {count} more: /combat status character:",
                                 "… {count} more: /combat status character:", "count",
                                 count=left_out))
        text = "\n".join([head, *sectioned(shown, width), more, *rest, left_out_map, crowded])
        if len(text) <= MAX_CHARS:
            return text
    return text[: MAX_CHARS - 1] + "…"
