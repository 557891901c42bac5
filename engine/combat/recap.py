"""The recap of a fight that ended, in a few short lines: how it ended and after how many rounds,
who is out of action and by whose hand, each fighter's damage dealt and taken, and the items
used up. Made from the fighters' tallies (``Fighter.tally``), never from the log's sentences.
The recap is for everyone: an NPC whose figures the GM hides shows how hurt it looks instead
of the damage it took (``engine.combat.hidden_npcs``).

Plain text (the bot escapes it for Discord) and at most ``limit`` characters whatever the
number of fighters: past :data:`MAX_ROWS` fighters, the least involved are summed up in one
line, and the long lists end in "and N more"."""

from __future__ import annotations

from collections import Counter

from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.fighters import standing_teams
from engine.combat.hidden_npcs import figures_hidden, looks
from engine.combat.model import Combat, Fighter, Phase
from engine.copies import group_alike
from engine.words import counted

__all__ = ["MAX_ROWS", "outcome", "recap_text"]

#: The most fighters with a damage line of their own.
MAX_ROWS = 10

_OUT = {
    Status.UNCONSCIOUS: "knocked out",
    Status.DEAD: "killed",
    Status.SURRENDERED: "surrendered",
}


def recap_text(c: Combat, *, rules: Rules, limit: int = 1500) -> str:
    """The recap of ``c`` (an ended fight), at most ``limit`` characters.

    >>> from data import load_rules
    >>> from engine.combat.model import Combat
    >>> recap_text(Combat(map_text="Bar -- Kitchen", phase="ended", ended_by_gm=True),
    ...            rules=load_rules())
    'The GM ended the fight before it began.'
    """
    lines = [_outcome(c, rules)]
    out = _out_of_action(c, rules)
    if out:
        lines.append(out)
    lines.extend(_damage(c, rules))
    used = _used_up(c)
    if used:
        lines.append(used)
    return _fit(lines, limit)


def outcome(c: Combat, rules: Rules) -> str:
    """How the fight ended, in one sentence; or where it stands while it lasts.

    >>> from data import load_rules
    >>> outcome(Combat(map_text="Bar -- Kitchen", round=2, phase="turn"), load_rules())
    'Under way, round 2.'
    """
    if c.phase is Phase.SETUP:
        return "Being set up."
    if c.phase is not Phase.ENDED:
        return f"Under way, round {c.round}."
    return _outcome(c, rules)


def _outcome(c: Combat, rules: Rules) -> str:
    standing = standing_teams(c, rules)
    if c.ended_by_gm:
        if c.round == 0:
            return "The GM ended the fight before it began."
        text = f"The GM ended the fight in round {c.round}."
        if standing:
            text += f" Still standing: {', '.join(standing)}."
        return text
    if len(standing) == 1:
        return f"{standing[0]} win after {counted(c.round, 'round')}."
    return f"Nobody is left standing after {counted(c.round, 'round')}."


def _listing(head: str, items: list[str], budget: int = 400, sep: str = ", ") -> str:
    """``head`` and the items, ``sep``-separated, ending in "and N more" past ``budget``."""
    text = head
    for i, item in enumerate(items):
        more = f" and {len(items) - i} more."
        piece = ("" if i == 0 else sep) + item
        if len(text) + len(piece) + len(more) > budget and i > 0:
            return text + more
        text += piece
    return text + "."


def _out_of_action(c: Combat, rules: Rules) -> str:
    items: list[tuple[str, str]] = []
    for f in c.fighters:
        st = status(f.character, rules=rules)
        if st is Status.FINE:
            continue
        how = _OUT[st]
        t = f.tally
        if st is not Status.SURRENDERED and t.out_by is not None:
            how += " by themselves" if t.out_by == f.name else f" by {t.out_by}"
        if st is not Status.SURRENDERED and t.out_round is not None:
            how += f", round {t.out_round}"
        items.append((f.name, f" ({how})"))
    alike = [name + how for name, how in group_alike(items)]  # "Goon 1-9 (surrendered)"
    return _listing("Out of action: ", alike) if alike else ""


def _row(c: Combat, f: Fighter, rules: Rules) -> str:
    took = (f"looks {looks(f, rules)}" if figures_hidden(c, f)
            else f"took {f.tally.taken}")
    return f"{f.name} ({f.team}): dealt {f.tally.dealt}, {took}"


def _damage(c: Combat, rules: Rules) -> list[str]:
    """One line per fighter (the most involved, past :data:`MAX_ROWS`), in the fight's order
    of teams and fighters; the rest summed up in one line."""
    fighters = sorted(c.fighters, key=lambda f: c.teams.index(f.team) if f.team in c.teams
                      else len(c.teams))
    if not any(f.tally.dealt or f.tally.taken for f in fighters):
        return ["Nobody took any damage."] if fighters else []
    shown = fighters
    if len(fighters) > MAX_ROWS:
        by_part = sorted(fighters, key=lambda f: -(f.tally.dealt + f.tally.taken))
        kept = {f.key for f in by_part[:MAX_ROWS - 1]}
        shown = [f for f in fighters if f.key in kept]
    rest = [f for f in fighters if f not in shown]
    lines = ["Damage:", *(_row(c, f, rules) for f in shown)]
    if rest:
        line = f"{len(rest)} others: dealt {sum(f.tally.dealt for f in rest)}"
        if not any(figures_hidden(c, f) for f in rest):  # a sum would tell a hidden one's part
            line += f", took {sum(f.tally.taken for f in rest)}"
        lines.append(line)
    return lines


def _used_up(c: Combat) -> str:
    items = []
    for f in c.fighters:
        if not f.tally.used_up:
            continue
        counts = Counter(f.tally.used_up)
        names = ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())
        items.append(f"{f.name}: {names}")
    return _listing("Used up: ", items, 300, "; ") if items else ""


def _fit(lines: list[str], limit: int) -> str:
    """The lines, as many as fit in ``limit`` characters (the last cut with "…")."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit("\n", 1)[0] + "\n…"
