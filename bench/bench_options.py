"""Benchmark ``engine.combat.options``: what the busiest fighter of a 10-fighter fight may start
now (every group), timed over many calls, on a new state of the fight and asked again of the
same state (the answer is kept per state). Prints numbers and a ratio line; asserts nothing
about time.

Run: python bench/bench_options.py [--quick]
"""

from __future__ import annotations

import sys
import time

from data import builtin_maps, load_rules
from engine.character import Character, Item
from engine.combat import (
    Actor,
    AddFighter,
    Begin,
    ChooseOrder,
    ChooseRoller,
    Combat,
    PromptKind,
    apply,
    new_combat,
    options,
)
from engine.dice import RandomDice

RULES = load_rules()
GM = Actor(user_id=1, gm=True)
AREAS = ("Dance Floor", "Dance Floor", "Bar", "Entrance", "DJ Booth")


def _character(name: str, npc: bool) -> Character:
    """A pistol in the right hand, a knife in the left, ammo of both sorts, a kit; a leader
    with Speed, so every group has something."""
    return Character(
        name=name, npc=npc, level=99, max_level=99,
        items=(Item(name="Pistol", kind="ranged_1h"), Item(name="Knife", kind="melee_1h"),
               Item(name="Bullets", kind="ammo"),
               Item(name="Darts", kind="ammo", less_lethal=True),
               Item(name="Kit", kind="first_aid")),
        right_hand=0, left_hand=1,
        abilities=("speed.move_twice", "leader.rally", "leader.direct"),
    )


def fight() -> Combat:
    """Ten fighters in the nightclub, five a side, the PCs acting."""
    dice = RandomDice(3)
    c = new_combat(builtin_maps()["nightclub"])
    for i in range(10):
        npc = i % 2 == 1
        cmd = AddFighter(character=_character(f"F{i}", npc), area=AREAS[i // 2],
                         owner_id=None if npc else 100 + i)
        c, _ = apply(c, cmd, actor=GM, dice=dice, rules=RULES, now=0.0)
    c, _ = apply(c, Begin(), actor=GM, dice=dice, rules=RULES, now=0.0)
    while asked := [p for p in c.waiting_for()
                    if p.kind in (PromptKind.CHOOSE_ROLLER, PromptKind.LEADER_ROLLS)]:
        c, _ = apply(c, ChooseRoller(fighter=asked[0].options[0]), actor=GM, dice=dice,
                     rules=RULES, now=0.0)
    c, _ = apply(c, ChooseOrder(first_team="PCs"), actor=GM, dice=dice, rules=RULES, now=0.0)
    return c


def _per_call(c: Combat, name: str, calls: int, fresh: bool) -> float:
    """Milliseconds a call of ``options``; ``fresh``: each call on a new copy of the state
    (nothing asked of it yet), else all on the one state."""
    states = [c.model_copy() if fresh else c for _ in range(calls)]
    start = time.perf_counter()
    for state in states:
        options(state, name, RULES, GM)
    return (time.perf_counter() - start) / calls * 1000


def main(calls: int) -> None:
    c = fight()
    counts = {f.name: len(options(c, f.name, RULES, GM)) for f in c.fighters}
    busiest = max(counts, key=lambda n: counts[n])
    _per_call(c, busiest, 10, fresh=True)
    first = min(_per_call(c, busiest, calls, fresh=True) for _ in range(3))
    again = min(_per_call(c, busiest, calls, fresh=False) for _ in range(3))
    print(f"options() for {busiest} ({counts[busiest]} options), best of 3 x {calls} calls: "
          f"{first:.2f} ms on a new state, {again:.3f} ms asked again of the same state")
    ratio = again / first
    print(f"ratio asked again / new state: {ratio:.3f} (goal ≤ 0.1) "
          + ("ok" if ratio <= 0.1 else "OVER"))


if __name__ == "__main__":
    main(5 if "--quick" in sys.argv else 200)
