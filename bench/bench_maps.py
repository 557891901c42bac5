"""Benchmark engine.maps on a 200-area map: how long range / line of sight / cover / intercept
take per query, as ratios to baselines measured in the same run (a plain dict lookup, and a
naive breadth-first search per query). Prints numbers; asserts nothing about time.

Run: python bench/bench_maps.py
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable

from engine.maps import GameMap, parse_map

COLS, ROWS = 20, 10  # 200 areas
PAIRS = 20_000
SYMBOLS = ["--", "--", "--", "..", "->", "-[ ]-", "-[]-"]


def build(seed: int = 5) -> tuple[str, GameMap]:
    """A grid of rooms joined to their right and lower neighbours, plus some long sight lines."""
    rng = random.Random(seed)
    lines = [f"Room {c}-{r} @ {c},{r}" for r in range(ROWS) for c in range(COLS)]
    for r in range(ROWS):
        for c in range(COLS):
            for dc, dr in ((1, 0), (0, 1)):
                if c + dc < COLS and r + dr < ROWS and rng.random() < 0.85:
                    left = "|" if rng.random() < 0.3 else ""
                    right = "|" if rng.random() < 0.3 else ""
                    symbol = rng.choice(SYMBOLS)
                    lines.append(f"Room {c}-{r} {left}{symbol}{right} Room {c + dc}-{r + dr}")
    for _ in range(40):
        a, b = rng.sample(range(COLS * ROWS), 2)
        ca, ra, cb, rb = a % COLS, a // COLS, b % COLS, b // COLS
        if abs(ca - cb) + abs(ra - rb) > 1:
            lines.append(f"Room {ca}-{ra} {rng.choice(['..', '.x.'])} Room {cb}-{rb}")
    text = "\n".join(dict.fromkeys(lines))  # no repeated pair
    return text, parse_map(text)


def naive_range(m: GameMap, a: str, b: str) -> int | None:
    """Range by a fresh breadth-first search over the connections, per query."""
    a, b = m.area(a), m.area(b)
    edges: dict[str, list[str]] = {}
    for c in m.connections:
        if c.gives_sight:
            edges.setdefault(c.a, []).append(c.b)
            edges.setdefault(c.b, []).append(c.a)
    dist = {a: 0}
    queue = deque([a])
    while queue:
        v = queue.popleft()
        if v == b:
            return dist[v]
        for u in edges.get(v, []):
            if u not in dist:
                dist[u] = dist[v] + 1
                queue.append(u)
    return None


def per_call(fn: Callable[[str, str], object], pairs: list[tuple[str, str]]) -> float:
    """Seconds per call of ``fn`` over ``pairs`` (best of 3 runs)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for a, b in pairs:
            fn(a, b)
        best = min(best, time.perf_counter() - start)
    return best / len(pairs)


def main() -> None:
    start = time.perf_counter()
    text, _ = build()
    parse_start = time.perf_counter()
    m = parse_map(text)
    parse_time = time.perf_counter() - parse_start
    rng = random.Random(7)
    pairs = [(rng.choice(m.areas), rng.choice(m.areas)) for _ in range(PAIRS)]
    upper = [(a.upper(), b.lower()) for a, b in pairs]

    cold_start = time.perf_counter()
    for a in m.areas:
        m.range(a, a)
    cold = time.perf_counter() - cold_start

    table = {(a, b): 1 for a, b in pairs}
    baseline = per_call(lambda a, b: table[(a, b)], pairs)
    naive = per_call(lambda a, b: naive_range(m, a, b), pairs[:300])
    third = m.areas[len(m.areas) // 2]
    queries: dict[str, Callable[[str, str], object]] = {
        "range": m.range,
        "line_of_sight": m.line_of_sight,
        "line_of_sight hidden": lambda a, b: m.line_of_sight(a, b, hidden=True),
        "has_cover": m.has_cover,
        "intercept_range": lambda a, b: m.intercept_range(a, b, third),
        "intercept_sight": lambda a, b: m.intercept_sight(a, b, third),
        "range (other case)": m.range,
    }
    print(f"map: {len(m.areas)} areas, {len(m.connections)} lines; parse {parse_time * 1e3:.1f} ms")
    print(f"first query from every area (the lazy precompute): {cold * 1e3:.1f} ms in all")
    print(f"baseline dict lookup: {baseline * 1e6:.3f} µs/query")
    print(f"baseline naive BFS per query: {naive * 1e6:.1f} µs/query")
    print(f"{'query':24} {'µs/query':>9} {'x dict':>8} {'naive BFS / this':>17}")
    for name, fn in queries.items():
        t = per_call(fn, upper if "other case" in name else pairs)
        print(f"{name:24} {t * 1e6:9.2f} {t / baseline:8.1f} {naive / t:17.0f}")
    print(f"total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
