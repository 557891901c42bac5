"""The combat board: one plain-text message, edited as the fight goes."""

from __future__ import annotations

from functools import lru_cache

from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.abilities.hooks import board_words
from engine.combat.actions.aoe import effects_text
from engine.combat.at_hand import abilities_at_hand
from engine.combat.model import Combat, Phase, Prompt, game_map_of
from engine.combat.prompts import SPECS
from engine.combat.stealth import hidden
from engine.maprender import render_map

__all__ = ["render_board"]

MAX_CHARS = 1980  # the bot wraps the board in a 12-character code block



# Short, so that a fighter's line fits a phone: the sheet spells the condition out.
_CONDITION = {
    Status.FINE: "",
    Status.UNCONSCIOUS: " KO",
    Status.SURRENDERED: " yielded",
    Status.DEAD: " dead",
}


def _waiting(combat: Combat) -> str:
    if combat.phase is Phase.SETUP:
        return "Waiting for: the GM to add fighters and begin."
    if combat.phase is Phase.ENDED:
        return "The fight is over."
    parts: list[str] = []
    for p in combat.prompts:
        if not SPECS[p.kind].offer:
            parts.append(f"{_who(combat, p)} ({SPECS[p.kind].waiting})")
    return "Waiting for: " + (", ".join(parts) if parts else "nothing")


def _at_hand(combat: Combat, rules: Rules, width: int) -> list[str]:
    """Under the waiting line, per decider, what their abilities give the roll at hand
    ("Ana: good (2H melee attack)"), each line cut to ``width``."""
    if combat.phase in (Phase.SETUP, Phase.ENDED):
        return []
    lines: list[str] = []
    for p in combat.prompts:
        if SPECS[p.kind].offer or p.fighter is None:
            continue
        said = abilities_at_hand(combat, p, rules)
        if said is None:
            continue
        line = f"{_who(combat, p)}: {said}"
        if len(line) > width:
            line = line[: width - 1] + "…"
        if line not in lines:
            lines.append(line)
    return lines


def _who(combat: Combat, p: Prompt) -> str:
    if p.fighter is None:
        return p.team or "GM"
    return combat.fighter(p.fighter).name


@lru_cache(maxsize=256)
def _drawn(map_text: str, changes: tuple[tuple[str, str], ...],
           occupants: tuple[tuple[str, tuple[str, ...]], ...], width: int) -> str:
    """The map (with the AoE Cover and Demolish in play) with who is where; most steps move
    nobody, so the drawing is kept."""
    m = game_map_of(map_text)
    for kind, area in changes:
        m = m.with_area_cover(area) if kind == "cover" else m.demolished(area)
    return render_map(m, dict(occupants), width=width)


def render_board(combat: Combat, *, rules: Rules, width: int = 40) -> str:
    """Round, phase, whose turn, one line per fighter (name, team, area, level/max, actions
    left — ``d1``: a leader's action that can only direct, ``directed``: a leader's direction
    waits on them —, KO, yielded or dead when out of the fight, a declaration in force such as
    all-out, and hidden while Stealth's mark counts), the items on the floor, the AoE effects
    in play and when they end, the map with occupants (AoE cover and demolished marks drawn),
    what the fight waits for (offers aside), and under it what each decider's abilities give
    the roll at hand ("Ana: good (2H melee attack)"); at most 1,980 characters."""
    head = f"Round {combat.round} · {combat.phase.value}"
    if combat.acting_team is not None and combat.phase is not Phase.ENDED:
        head += f" · {combat.acting_team} acting"
    lines = [head]
    for f in combat.fighters:
        ch = f.character
        cond = _CONDITION[status(ch, rules=rules)]
        lead = (f" d{f.direct_actions}" if f.direct_actions else "") + (
            " directed" if f.directed is not None else "")
        cond += "".join(f" {word}" for word in board_words(f))
        if hidden(combat, f, rules):
            cond += " hidden"
        line = f"{f.name} [{f.team}] {f.area} {ch.level}/{ch.max_level}"
        tail = f" a{f.actions}{lead}{cond}"
        if len(line) + len(tail) > width:  # the name or area gives way, never the markers
            line = line[: max(width - len(tail) - 1, 1)] + "…"
        lines.append(line + tail)
    floor = [
        f"{f.character.items[d.index].name} ({f.name}) in {d.area}"
        for f in combat.fighters
        for d in f.dropped
        if not f.character.items[d.index].destroyed
    ]
    if floor:
        lines.append("On the floor: " + "; ".join(floor))
    occupants: dict[str, list[str]] = {}
    for f in combat.fighters:
        occupants.setdefault(f.area, []).append(f.name)
    changes = tuple((e.kind, e.area) for e in combat.effects if e.kind != "continuous")
    board_map = _drawn(combat.map_text, changes,
                       tuple((a, tuple(n)) for a, n in occupants.items()), width)
    effects = effects_text(combat)
    if effects:
        lines.append(effects)
    waiting = "\n".join([_waiting(combat), *_at_hand(combat, rules, width)])
    text = "\n".join([*lines, board_map, waiting])
    if len(text) > MAX_CHARS:
        text = "\n".join([*lines, waiting])
    if len(text) > MAX_CHARS:
        text = text[: MAX_CHARS - 1] + "…"
    return text
