"""The recap of a fight that ended, in a few short lines: how it ended and after how many rounds,
who is out of action and by whose hand, each fighter's damage dealt and taken, and the items
used up. Made from the fighters' tallies (``Fighter.tally``), never from the log's sentences.
The recap is for everyone: an NPC whose figures the GM hides shows how hurt it looks instead
of the damage it took (``engine.combat.hidden_npcs``).

Plain text (the bot escapes it for Discord) in the reader's language (``say`` renders each
phrase; English by default), at most ``limit`` characters of it whatever the number of
fighters: past :data:`MAX_ROWS` fighters, the least involved are summed up in one line, and the
long lists end in "and N more" (measured as said, so a longer language cuts sooner)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.catalog import Rules
from engine.character import Status, status
from engine.combat.fighters import standing_teams
from engine.combat.hidden_npcs import figures_hidden, looks_phrase
from engine.combat.model import Combat, Fighter, Phase
from engine.copies import group_alike
from engine.phrases import Phrase, Said, english, phrase, plural_phrase

__all__ = ["MAX_ROWS", "Say", "outcome", "recap_text"]

#: How the recap says a phrase: in the reader's language (the bot renders it), else English.
Say = Callable[[Said], str]

#: The most fighters with a damage line of their own.
MAX_ROWS = 10


def recap_text(c: Combat, *, rules: Rules, limit: int = 1500, say: Say = english) -> str:
    """The recap of ``c`` (an ended fight), at most ``limit`` characters, each phrase said
    with ``say``.

    >>> from data import load_rules
    >>> from engine.combat.model import Combat
    >>> recap_text(Combat(map_text="Bar -- Kitchen", phase="ended", ended_by_gm=True),
    ...            rules=load_rules())
    'The GM ended the fight before it began.'
    """
    lines = [say(_outcome(c, rules))]
    out = _out_of_action(c, rules, say)
    if out:
        lines.append(out)
    lines.extend(say(line) for line in _damage(c, rules))
    used = _used_up(c, say)
    if used:
        lines.append(used)
    return _fit(lines, limit)


def outcome(c: Combat, rules: Rules) -> Phrase:
    """How the fight ended, in one sentence; or where it stands while it lasts.

    >>> from data import load_rules
    >>> outcome(Combat(map_text="Bar -- Kitchen", round=2, phase="turn"), load_rules()).english()
    'Under way, round 2.'
    """
    if c.phase is Phase.SETUP:
        return phrase("Being set up.")
    if c.phase is not Phase.ENDED:
        return phrase("Under way, round {round}.", round=c.round)
    return _outcome(c, rules)


def _outcome(c: Combat, rules: Rules) -> Phrase:
    standing = standing_teams(c, rules)
    if c.ended_by_gm:
        if c.round == 0:
            return phrase("The GM ended the fight before it began.")
        if standing:
            return phrase("The GM ended the fight in round {round}. Still standing: {teams}.",
                          round=c.round, teams=", ".join(standing))
        return phrase("The GM ended the fight in round {round}.", round=c.round)
    if len(standing) == 1:
        return plural_phrase("{team} win after {count} round.", "{team} win after {count} rounds.",
                             "count", team=standing[0], count=c.round)
    return plural_phrase("Nobody is left standing after {count} round.",
                         "Nobody is left standing after {count} rounds.", "count", count=c.round)


def _listing(items: list[str], whole: Callable[[str], str], cut: Callable[[str, int], str],
             budget: int = 400, sep: str = ", ") -> str:
    """The items (said already), ``sep``-separated, in ``whole``'s sentence; past ``budget``
    characters, as many as fit in ``cut``'s, which says how many more there are."""
    shown = items[0]
    for i, item in enumerate(items[1:], 1):
        longer = shown + sep + item
        if len(cut(longer, len(items) - i)) > budget:
            return cut(shown, len(items) - i)
        shown = longer
    return whole(shown)


def _how_out(f: Fighter, st: Status) -> Phrase:
    """How ``f`` is out of action: "knocked out by Ana, round 3"."""
    t = f.tally
    by = None if st is Status.SURRENDERED else t.out_by
    if st is Status.SURRENDERED:
        how = phrase("surrendered")
    elif st is Status.DEAD:
        how = (phrase("killed") if by is None else phrase("killed by themselves")
               if by == f.name else phrase("killed by {name}", name=by))
    else:
        how = (phrase("knocked out") if by is None else phrase("knocked out by themselves")
               if by == f.name else phrase("knocked out by {name}", name=by))
    if st is not Status.SURRENDERED and t.out_round is not None:
        how = phrase("{how}, round {round}", how=how, round=t.out_round)
    return how


def _out_of_action(c: Combat, rules: Rules, say: Say) -> str:
    items: list[tuple[str, Phrase]] = []
    for f in c.fighters:
        st = status(f.character, rules=rules)
        if st is not Status.FINE:
            items.append((f.name, _how_out(f, st)))
    alike = [say(phrase("{name} ({how})", name=name, how=how))  # "Goon 1-9 (surrendered)"
             for name, how in group_alike(items)]
    if not alike:
        return ""
    return _listing(alike, lambda shown: say(phrase("Out of action: {items}.", items=shown)),
                    lambda shown, more: say(plural_phrase(
                        "Out of action: {items} and {count} more.",
                        "Out of action: {items} and {count} more.", "count", items=shown,
                        count=more)))


def _row(c: Combat, f: Fighter, rules: Rules) -> Phrase:
    if figures_hidden(c, f):
        return phrase("{name} ({team}): dealt {dealt}, looks {looks}", name=f.name, team=f.team,
                      dealt=f.tally.dealt, looks=looks_phrase(f, rules))
    return phrase("{name} ({team}): dealt {dealt}, took {taken}", name=f.name, team=f.team,
                  dealt=f.tally.dealt, taken=f.tally.taken)


def _damage(c: Combat, rules: Rules) -> list[Phrase]:
    """One line per fighter (the most involved, past :data:`MAX_ROWS`), in the fight's order
    of teams and fighters; the rest summed up in one line."""
    fighters = sorted(c.fighters, key=lambda f: c.teams.index(f.team) if f.team in c.teams
                      else len(c.teams))
    if not any(f.tally.dealt or f.tally.taken for f in fighters):
        return [phrase("Nobody took any damage.")] if fighters else []
    shown = fighters
    if len(fighters) > MAX_ROWS:
        by_part = sorted(fighters, key=lambda f: -(f.tally.dealt + f.tally.taken))
        kept = {f.key for f in by_part[:MAX_ROWS - 1]}
        shown = [f for f in fighters if f.key in kept]
    rest = [f for f in fighters if f not in shown]
    lines = [phrase("Damage:"), *(_row(c, f, rules) for f in shown)]
    if rest:
        dealt = sum(f.tally.dealt for f in rest)
        if any(figures_hidden(c, f) for f in rest):  # a sum would tell a hidden one's part
            lines.append(plural_phrase("{count} other: dealt {dealt}",
                                       "{count} others: dealt {dealt}", "count",
                                       count=len(rest), dealt=dealt))
        else:
            lines.append(plural_phrase("{count} other: dealt {dealt}, took {taken}",
                                       "{count} others: dealt {dealt}, took {taken}", "count",
                                       count=len(rest), dealt=dealt,
                                       taken=sum(f.tally.taken for f in rest)))
    return lines


def _used_up(c: Combat, say: Say) -> str:
    items = []
    for f in c.fighters:
        if not f.tally.used_up:
            continue
        counts = Counter(f.tally.used_up)
        names = ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())
        items.append(f"{f.name}: {names}")  # names and numbers only: said alike everywhere
    if not items:
        return ""
    return _listing(items, lambda shown: say(phrase("Used up: {items}.", items=shown)),
                    lambda shown, more: say(plural_phrase(
                        "Used up: {items} and {count} more.",
                        "Used up: {items} and {count} more.", "count", items=shown,
                        count=more)), 300, "; ")


def _fit(lines: list[str], limit: int) -> str:
    """The lines, as many as fit in ``limit`` characters (the last cut with "…")."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit("\n", 1)[0] + "\n…"
