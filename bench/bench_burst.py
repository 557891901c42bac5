"""Benchmark a fast exchange against Discord's limits: the real bot process (``python -m bot``)
connected to the local Discord (per-channel buckets with their headers, 429s), Ana and Goon
attacking in turn, one step every half second (sent once the previous step's prompt is out),
every question answered with its button. Prints, from the requests the local Discord recorded:
the time from each press to its board and prompt both shown (median, worst), the requests on
the channel's buckets per step, and the 429s, each against the issue's goal. The same burst
is played first on a Discord without limits (``server.limiter.enabled = False``: no buckets,
no headers, so nothing paced), a fresh bot and server, as the baseline in the same run: its
ratio lines say what Discord's limits cost. Asserts nothing.

Run: python bench/bench_burst.py [--quick] [--steps N]
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import sys
import tempfile
from pathlib import Path

from _driver import bench_args, machine, ratio_line

from bot.local_table.seed import table_seed
from localdiscord import LocalDiscord
from testbed.exchange import Burst, burst, set_up

ROOT = Path(__file__).resolve().parents[1]
STEPS, QUICK_STEPS = 12, 4
GOAL_SECONDS = 1.5  # the issue's: every step shown within 1.5 s of its press


async def played(steps: int, *, limited: bool = True) -> Burst:
    """The burst against a fresh server and bot process; ``limited``: Discord's buckets on."""
    server = LocalDiscord(table_seed())
    server.limiter.enabled = limited
    await server.start()
    with tempfile.TemporaryDirectory() as directory:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("UNHEX_", "DISCORD_"))}
        env |= {"DISCORD_TOKEN": "local-token", "UNHEX_DICE_SEED": "7",
                "UNHEX_DATABASE": str(Path(directory) / "db.sqlite3"),
                "UNHEX_DISCORD_API": server.api, "PYTHONPATH": str(ROOT)}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=directory, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        try:
            await asyncio.wait_for(server.gateway.state.ready.wait(), 60)
            for _ in range(1200):  # until its commands are synced
                if server.commands and any(c.method == "PUT" for c in server.calls):
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)
            await set_up(server)
            if limited:
                await asyncio.sleep(5.0)  # the set-up's buckets refill, as at a table
            return await burst(server, steps=steps, every=0.5)
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
            await asyncio.wait_for(process.wait(), 30)
            await server.stop()


def main() -> None:
    args = bench_args(__doc__, lambda p: p.add_argument("--steps", type=int, default=None))
    steps = args.steps or (QUICK_STEPS if args.quick else STEPS)
    print(f"# {machine()}; {steps} steps, one every 0.5 s, against the local Discord")
    free = asyncio.run(played(steps, limited=False))
    result = asyncio.run(played(steps))
    print(f"without limits: {free.summary()}")
    print(f"Discord's limits: {result.summary()}")
    times = sorted(result.shown_after())
    print(ratio_line("burst: median press → board and prompt shown", statistics.median(times),
                     GOAL_SECONDS, unit=" s"))
    print(ratio_line("burst: worst press → board and prompt shown", times[-1],
                     GOAL_SECONDS, unit=" s"))
    buckets = ", ".join(f"{k} {v / steps:.2f}" for k, v in sorted(result.by_bucket.items()))
    print(ratio_line("burst: requests on the channel's buckets a step", result.per_step, 1.0,
                     unit="", detail=buckets))
    print(ratio_line("burst: 429s from Discord", result.refused, 0, unit=""))
    print("\n".join(limits_cost(result, free)))


def limits_cost(limited: Burst, free: Burst) -> list[str]:
    """What Discord's limits cost: the burst under them beside the same burst without them.
    Times as the seconds the limits add (the free burst's are a few milliseconds, so a
    quotient of times says little; it is in the detail), each against what the issue's
    1.5 s leaves once the free burst's own time is taken; requests as a quotient, which must
    not pass 1 (a 429 retried would cost one more)."""
    lines = []
    for what, pick in (("median", statistics.median), ("worst", max)):
        slow, fast = pick(limited.shown_after()), pick(free.shown_after())
        lines.append(ratio_line(f"burst: {what} shown, added by the limits", slow - fast,
                                round(GOAL_SECONDS - fast, 2), unit=" s",
                                detail=f"{slow:.2f} s vs {fast:.2f} s without, "
                                       f"{slow / max(fast, 1e-3):.1f}×"))
    lines.append(ratio_line("burst: channel requests a step, limits / none",
                            limited.per_step / max(free.per_step, 1e-9), 1.0,
                            detail=f"{limited.per_step:.2f} / {free.per_step:.2f}"))
    return lines


if __name__ == "__main__":
    main()
