"""The combat board: one plain-text message, edited as the fight goes."""

from __future__ import annotations

from functools import lru_cache

from engine import textwidth as tw
from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.abilities.hooks import board_words
from engine.combat.actions.aoe_effects import effect_text
from engine.combat.at_hand import abilities_at_hand
from engine.combat.hidden_npcs import level_text
from engine.combat.model import Combat, Fighter, Phase, Prompt, game_map_of
from engine.combat.prompts import SPECS
from engine.combat.stealth import hidden
from engine.maprender import marker_letters, render_map

__all__ = ["fighter_lines", "render_board"]

MAX_CHARS = 1980  # the bot wraps the board in a 12-character code block


# Short, so that a fighter's line fits a phone: the sheet spells the condition out.
_CONDITION = {
    Status.FINE: "",
    Status.UNCONSCIOUS: " KO",
    Status.SURRENDERED: " yielded",
    Status.DEAD: " dead",
}


def _waiting(combat: Combat, columns: int) -> list[str]:
    if combat.phase is Phase.SETUP:
        return tw.wrap("Waiting for: /combat add, then begin.", columns)
    if combat.phase is Phase.ENDED:
        return ["The fight is over."]
    parts: list[str] = []
    for p in combat.prompts:
        if not SPECS[p.kind].offer:
            parts.append(f"{_who(combat, p)} ({SPECS[p.kind].waiting})")
    return tw.wrap_items("Waiting for:", parts or ["nothing"], columns)


def _at_hand(combat: Combat, rules: Rules, columns: int) -> list[str]:
    """Under the waiting line, per decider, what their abilities give the roll at hand
    ("Ana: good (2H melee attack)"), wrapped to ``columns``."""
    if combat.phase in (Phase.SETUP, Phase.ENDED):
        return []
    said_lines: list[str] = []
    for p in combat.prompts:
        if SPECS[p.kind].offer or p.fighter is None:
            continue
        said = abilities_at_hand(combat, p, rules)
        if said is None:
            continue
        line = f"{_who(combat, p)}: {said}"
        if line not in said_lines:
            said_lines.append(line)
    return [part for line in said_lines for part in tw.wrap(line, columns)]


def _who(combat: Combat, p: Prompt) -> str:
    if p.fighter is None:
        return p.team or "GM"
    return combat.fighter(p.fighter).name


def fighter_lines(name: str, team: str, area: str, level: str, state: str,
                  columns: int = 40) -> list[str]:
    """One fighter on the board: ``Ana [PCs] Dance Floor 40/40 a1`` when that fits
    ``columns``. Else the name, the ``level`` text and the ``state`` (actions left and
    markers) come first and team and area follow on an indented line; a name too long to
    share its line goes alone (wrapped, never cut) with the numbers leading the next line.

    >>> fighter_lines("Ana", "PCs", "Dance Floor", "40/40", "a1")
    ['Ana [PCs] Dance Floor 40/40 a1']
    >>> fighter_lines("Anastasia Fairweather", "PCs", "Pool Tables", "40/40", "a1 KO")
    ['Anastasia Fairweather 40/40 a1 KO', '  [PCs] Pool Tables']
    """
    whole = f"{name} [{team}] {area} {level} {state}"
    if tw.width(whole) <= columns:
        return [whole]
    where = f"[{team}] {area}"
    first = f"{name} {level} {state}"
    if tw.width(first) <= columns:
        return [first, *tw.wrap(f"  {where}", columns)]
    return [*tw.wrap(name, columns), *tw.wrap(f"  {level} {state} {where}", columns)]


def _fighter_state(combat: Combat, f: Fighter, rules: Rules) -> str:
    """Actions left, then the leader's marks, the condition and the words in force."""
    lead = (f" d{f.direct_actions}" if f.direct_actions else "") + (
        " directed" if f.directed is not None else "")
    cond = _CONDITION[status(f.character, rules=rules)]
    cond += "".join(f" {word}" for word in board_words(f))
    if hidden(combat, f, rules):
        cond += " hidden"
    return f"a{f.actions}{lead}{cond}"


@lru_cache(maxsize=256)
def _drawn(map_text: str, changes: tuple[tuple[str, str], ...],
           occupants: tuple[tuple[str, tuple[str, ...]], ...],
           markers: tuple[tuple[str, str], ...], width: int) -> str:
    """The map (with the AoE Cover and Demolish in play) with who is where; most steps move
    nobody, so the drawing is kept."""
    m = game_map_of(map_text)
    for kind, area in changes:
        m = m.with_area_cover(area) if kind == "cover" else m.demolished(area)
    return render_map(m, dict(occupants), width=width, markers=dict(markers))


def render_board(combat: Combat, *, rules: Rules, width: int = 40, gm: bool = False) -> str:
    """Round, phase, whose turn, each fighter (name, team, area, level/max, actions left —
    ``d1``: a leader's action that can only direct, ``directed``: a leader's direction waits
    on them —, KO, yielded or dead when out of the fight, a declaration in force such as
    all-out, and hidden while Stealth's mark counts; see :func:`fighter_lines`), the items on
    the floor, the AoE effects in play and when they end, the map with a marker per fighter
    (AoE cover and demolished marks drawn), what the fight waits for (offers aside), and
    under it what each decider's abilities give the roll at hand ("Ana: good (2H melee
    attack)"). Every line within ``width`` columns; at most 1,980 characters. An NPC whose
    figures the GM hides shows how hurt it looks instead of its level, unless ``gm``."""
    head = f"Round {combat.round} · {combat.phase.value}"
    if combat.acting_team is not None and combat.phase is not Phase.ENDED:
        head += f" · {combat.acting_team} acting"
    fighters = [
        "\n".join(fighter_lines(f.name, f.team, f.area,
                                level_text(combat, f, rules, gm=gm),
                                _fighter_state(combat, f, rules), width))
        for f in combat.fighters
    ]
    rest: list[str] = []
    floor = [
        f"{f.character.items[d.index].name} ({f.name}) in {d.area}"
        for f in combat.fighters
        for d in f.dropped
        if not f.character.items[d.index].destroyed
    ]
    if floor:
        rest += tw.wrap_items("On the floor:", floor, width, ";")
    if combat.effects:
        rest += tw.wrap_items("Effects:", [effect_text(e) for e in combat.effects], width, ";")
    on_map = combat.fighters
    occupants: dict[str, list[str]] = {}
    for f in on_map:
        occupants.setdefault(f.area, []).append(f.name)
    markers = marker_letters([f.name for f in on_map])
    changes = tuple((e.kind, e.area) for e in combat.effects if e.kind != "continuous")
    board_map = _drawn(combat.map_text, changes,
                       tuple((a, tuple(n)) for a, n in occupants.items()),
                       tuple(markers.items()), width)
    waiting = "\n".join([*_waiting(combat, width), *_at_hand(combat, rules, width)])
    return _fit("\n".join(tw.wrap(head, width)), fighters, rest, board_map, waiting)


def _fit(head: str, fighters: list[str], rest: list[str], board_map: str, waiting: str) -> str:
    """The board within MAX_CHARS: without the map if need be, then without the last fighters
    (counted); what the fight waits for always stays."""
    for drawn in ([board_map], []):
        text = "\n".join([head, *fighters, *rest, *drawn, waiting])
        if len(text) <= MAX_CHARS:
            return text
    shown = list(fighters)
    while shown:
        shown.pop()
        more = f"… {len(fighters) - len(shown)} more: /combat status character:"
        text = "\n".join([head, *shown, more, *rest, waiting])
        if len(text) <= MAX_CHARS:
            return text
    return text[: MAX_CHARS - 1] + "…"
