"""The bot killed with SIGKILL in the middle of fights, again and again, loses nothing.

A driver process (:mod:`tests.crash.drive`) plays scripted fights through the real bot, on a
SQLite file and on a PostgreSQL database of the test session's server; this test kills it at
random moments (just after it starts, just after start-up, or 0-300 ms after one of its
acknowledged actions) and starts it again, until it has been killed ``UNHEX_CRASH_KILLS`` times
(3 in ``make test``, 25 in ``make crash``); then one last run finishes the fights. A fight takes
a fraction of a second, so a run that is to be killed is asked to play a few fights beyond those
already over: kills land in fights, in setting them up, at their ends and at start-ups, not
after the driver is done.

After every run, with no process holding the database (on SQLite, a copy of the file as the
kill left it; on PostgreSQL, the database itself once the killed driver's sessions are gone):

- on SQLite, ``PRAGMA integrity_check`` is ``ok``;
- every acknowledged action is in the database, once: a fight step at its place in
  ``combat_log`` with the command the driver sent and the very text the player was answered;
  a sheet change on the sheet; no step is acknowledged twice (it would have been lost and
  played again) and no log entry is one the driver did not send;
- each fight's version counts its log entries; the `fighting` rows are exactly the active
  fight's characters; a sheet is untouched while its fight runs and, once it has ended,
  carries the fight's final level and wounds, written back once;
- after each start-up the channel shows what the newest fight waits for: the newest message
  with buttons has exactly the prompt's buttons (or none is offered when the fight waits for
  a slash command), and the board is the fight as saved.

In the end every fight is over. ``UNHEX_CRASH_SEED`` picks the kills (and the dice);
``UNHEX_CRASH_ENGINES`` (``sqlite``, ``postgresql``, or both, comma-separated: the default) the
engines.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.combat.views import events_text
from bot.i18n import SOURCE
from bot.store import is_postgres
from engine.character import Character
from engine.combat import Combat, Event, EventKind, Phase
from testbed.harness import CHANNEL_ID, GUILD_ID
from tests.crash.drive import LEVEL, SPECS, digest, load_journal
from tests.processes_io import stdout_lines
from tests.rows import Reader

ROOT = Path(__file__).resolve().parents[2]
KILLS = int(os.environ.get("UNHEX_CRASH_KILLS", "3"))
SEED = int(os.environ.get("UNHEX_CRASH_SEED", "4242"))
#: The engines the test runs on: both, unless ``UNHEX_CRASH_ENGINES`` names one
#: (``sqlite`` or ``postgresql``).
ENGINES = os.environ.get("UNHEX_CRASH_ENGINES", "sqlite,postgresql").split(",")
#: The file, in the test's folder, that keeps Discord's messages across kills.
JOURNAL = "discord.jsonl"
#: How many fights beyond those over a run that may be killed is asked to play.
AHEAD = 3
#: How long a driver may stay silent before the test gives up on it.
SILENCE = 60.0
#: Sheet changes each character gets before its fight: its items, holding one, its abilities.
CHANGES = {spec.base: len(spec.items) + 1 + len(spec.abilities) for spec in SPECS}


@dataclass
class Run:
    number: int
    fights: int
    plan: str
    lines: list[str] = field(default_factory=list)
    returncode: int | None = None
    stderr: Path | None = None

    @property
    def finished(self) -> bool:
        return "FINISHED" in self.lines

    @property
    def killed(self) -> bool:
        """Killed before it was done (a kill while it closed the store does not count)."""
        return self.returncode == -9 and not self.finished

    def tagged(self, tag: str, fields: int = 1) -> list[list[str]]:
        """The lines starting with ``tag``, each cut into ``fields`` fields after it (the
        last one keeps its spaces)."""
        return [line.split(" ", fields)[1:] for line in self.lines
                if line.split(" ", 1)[0] == tag]

    def describe(self) -> str:
        tail = self.stderr.read_text()[-3000:] if self.stderr and self.stderr.exists() else ""
        return (f"run {self.number} (fights {self.fights}, {self.plan}, exit {self.returncode})"
                f"\n  " + "\n  ".join(self.lines[-8:]) + f"\n{tail}")


@dataclass
class Ledger:
    """What every run said, and what the checks found."""

    acks: dict[str, tuple[int, str, Any]] = field(default_factory=dict)  # key -> run, hash, expect
    sends: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    runs: list[Run] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    reshown: int = 0  # kills after which the newest step was not shown yet
    unanswered: int = 0  # steps committed whose answer a kill cut off
    prompts: Counter[str] = field(default_factory=Counter)
    ended: int = 0  # fights over

    def take(self, run: Run) -> None:
        self.runs.append(run)
        for key, expect in run.tagged("SEND", 2):
            self.sends[key].add(expect)
        for key, hashed, expect in run.tagged("ACK", 3):
            if key in self.acks:
                self.problems.append(f"run {run.number}: {key} acknowledged again (first in run "
                                     f"{self.acks[key][0]}): the first time was lost")
            self.acks[key] = (run.number, hashed, json.loads(expect))
        for verdict in run.tagged("PROMPT", 2):
            self.prompts[verdict[0]] += 1
            if verdict[0] not in ("ok", "none"):
                self.problems.append(f"run {run.number}: after start-up PROMPT {' '.join(verdict)}")
        for verdict in run.tagged("BOARD", 2):
            if verdict[0] != "ok":
                self.problems.append(f"run {run.number}: after start-up BOARD {' '.join(verdict)}")
        for error in run.tagged("ERROR"):
            self.problems.append(f"run {run.number}: the driver stopped: {' '.join(error)}\n"
                                 + run.describe())


def drive(database: str, folder: Path, run: Run, seed: int, rng: random.Random) -> Run:
    """Start a driver and, unless ``run.plan`` is ``finish``, kill it as the plan says."""
    run.stderr = folder / f"run{run.number}.stderr"
    with run.stderr.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.crash.drive", database,
             "--journal", str(folder / JOURNAL), "--fights", str(run.fights), "--seed", str(seed)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr)
        lines = stdout_lines(proc)

        def until(tag: str, count: int = 1) -> bool:
            """Wait for the ``count``-th line starting with ``tag``; False at the end."""
            seen = 0
            while True:
                try:
                    line = lines.get(timeout=SILENCE)
                except queue.Empty:
                    proc.kill()
                    raise AssertionError(f"the driver said nothing for {SILENCE} s: "
                                         f"{run.describe()}") from None
                if line is None:
                    return False
                run.lines.append(line)
                if line.startswith(tag + " ") or line == tag:
                    seen += 1
                    if seen == count:
                        return True

        kind, _, count = run.plan.partition("#")
        if kind == "finish" or until(kind, int(count or 1)):
            if kind != "finish":
                time.sleep(rng.uniform(0.0, 0.3))
                proc.kill()
            until("never")  # (to the end of its output: every line is in)
        run.returncode = proc.wait()
    return run


def _plan(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.15:
        return "BOOT"  # during start-up, while it shows again what the last kill cut short
    if roll < 0.3:
        return "READY"
    return f"ACK#{rng.randint(1, 4)}"


def _subset(expect: dict[str, Any] | None, command: dict[str, Any]) -> bool:
    return expect is None or all(command.get(k) == v for k, v in expect.items())


def _copy(database: str, folder: Path) -> str:
    """A copy of a SQLite database and its write-ahead log as the kill left them: the next bot
    process, not this test, is the first to open the database after a crash. A PostgreSQL
    database is read where it is, once the killed driver's sessions are gone."""
    if is_postgres(database):
        return database
    copy = folder / "check.sqlite3"
    for suffix in ("", "-wal"):
        source = Path(f"{database}{suffix}")
        target = Path(f"{copy}{suffix}")
        target.unlink(missing_ok=True)
        if source.exists():
            shutil.copyfile(source, target)
    Path(f"{copy}-shm").unlink(missing_ok=True)
    return str(copy)


def _settled(db: Reader, patience: float = 10.0) -> None:
    """Wait until no other session is connected to the PostgreSQL database ``db`` reads: the
    server ends a killed process's sessions (and rolls back what they had begun) once it sees
    their sockets closed, which may take a moment."""
    deadline = time.monotonic() + patience
    while db("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
             "AND pid <> pg_backend_pid()"):
        if time.monotonic() > deadline:
            raise AssertionError(f"sessions of a killed driver still open after {patience} s")
        time.sleep(0.02)


@dataclass
class Snapshot:
    """The database as a run left it: what the checks read."""

    integrity: str  # SQLite's PRAGMA integrity_check; "ok" on PostgreSQL, which has none
    combats: list[tuple[int, str, int, bool, int]]  # id, state, version, active, shown_version
    logs: dict[int, list[tuple[str, str, bool]]]  # per fight: command, events, undone
    sheets: dict[str, tuple[int, Character, int]]  # by name: id, sheet, version
    fighting: list[tuple[int, int]]  # character, fight


def snapshot(database: str, folder: Path) -> Snapshot:
    with closing(Reader(_copy(database, folder))) as db:
        integrity = "ok"
        if db.postgres:
            _settled(db)
        else:
            ((integrity,),) = db("PRAGMA integrity_check")
        combats = [(cid, state, version, bool(active), shown) for cid, state, version, active,
                   shown in db("SELECT id, state, version, active, shown_version FROM combats "
                               "WHERE channel_id = ? ORDER BY id", CHANNEL_ID)]
        logs = {cid: [(command, events, bool(undone)) for command, events, undone in db(
            "SELECT command, events, undone FROM combat_log WHERE combat_id = ? ORDER BY id",
            cid)] for cid, *_ in combats}
        sheets = {name: (cid, Character.model_validate_json(data), version) for cid, name, data,
                  version in db("SELECT id, name, data, version FROM characters "
                                "WHERE guild_id = ?", GUILD_ID)}
        fighting = [(ch, cid) for ch, cid in db("SELECT character_id, combat_id FROM fighting")]
    return Snapshot(integrity, combats, logs, sheets, fighting)


def check(database: str, folder: Path, ledger: Ledger, run: Run) -> None:
    """Everything the module docstring promises, on the database as the run left it."""
    where = f"after run {run.number} ({run.plan}, exit {run.returncode})"
    seen = snapshot(database, folder)
    if seen.integrity != "ok":
        ledger.problems.append(f"{where}: PRAGMA integrity_check says {seen.integrity!r}")
    combats = seen.combats
    if run.killed and combats and combats[-1][4] < combats[-1][2]:
        ledger.reshown += 1
    added = _check_fights(seen, ledger, where)
    _check_acknowledged(seen, added, ledger, where)
    acked_steps = {k for k in ledger.acks if k.partition(":")[0].isdigit()}
    logged = {f"{cid}:{n}" for cid, log in seen.logs.items() for n in range(1, len(log) + 1)}
    ledger.unanswered = len(logged - acked_steps)


def _check_fights(seen: Snapshot, ledger: Ledger, where: str) -> dict[str, Character]:
    """Each fight: its log, its characters, its sheets. Returns each character as it entered
    its fight."""
    problems = ledger.problems
    added: dict[str, Character] = {}
    for cid, state_text, version, active, _ in seen.combats:
        state = Combat.model_validate_json(state_text)
        log = seen.logs[cid]
        if len(log) != version:
            problems.append(f"{where}: fight {cid} is at version {version} with {len(log)} "
                            "log entries")
        for step, (command_text, _, undone) in enumerate(log, start=1):
            command = json.loads(command_text)
            key = f"{cid}:{step}"
            sent = [json.loads(e) for e in ledger.sends.get(key, ())]
            if undone or not any(_subset(e, command) for e in sent):
                problems.append(f"{where}: log entry {key} ({command['kind']}) is not what the "
                                f"driver sent for that step: {sent}")
            if command["kind"] == "add_fighter":
                added[command["character"]["name"]] = Character.model_validate(
                    command["character"])
        if active != (state.phase is not Phase.ENDED):
            problems.append(f"{where}: fight {cid} is active={active} in phase {state.phase}")
        held = {ch for ch, combat in seen.fighting if combat == cid}
        wanted = {f.character_id for f in state.fighters} if active else set()
        if held != wanted:
            problems.append(f"{where}: fight {cid} holds {held} in `fighting`, not {wanted}")
        _check_sheets(seen, state, active, problems, where)
    ledger.ended = sum(not active for *_, active, _ in seen.combats)
    if sum(active for *_, active, _ in seen.combats) > 1:
        problems.append(f"{where}: more than one active fight in the channel")
    return added


def _check_sheets(seen: Snapshot, state: Combat, active: bool, problems: list[str],
                  where: str) -> None:
    """A sheet is untouched while its fight runs and carries the fight's end once it is over."""
    for fighter in state.fighters:
        _, sheet, sheet_version = seen.sheets[fighter.name]
        base = fighter.name.rstrip("0123456789")
        if active and (sheet.level, sheet_version) != (LEVEL, CHANGES[base]):
            problems.append(f"{where}: {fighter.name}'s sheet changed during its fight: "
                            f"level {sheet.level}, version {sheet_version}")
        if not active:
            fought = fighter.character
            if (sheet.level, dict(sheet.wounds), sheet_version) != (
                    min(fought.level, sheet.max_level), dict(fought.wounds), CHANGES[base] + 1):
                problems.append(
                    f"{where}: {fighter.name}'s sheet (level {sheet.level}, version "
                    f"{sheet_version}) is not the fight's end (level {fought.level}) "
                    "written back once")


def _check_acknowledged(seen: Snapshot, added: dict[str, Character], ledger: Ledger,
                        where: str) -> None:
    """Every acknowledged action is in the database: a step at its place in its fight's log
    with the answer the player got, a fight started, a sheet change on its sheet."""
    problems = ledger.problems
    for key, (acked_in, hashed, expect) in ledger.acks.items():
        what, _, rest = key.partition(":")
        if what.isdigit():
            log = seen.logs.get(int(what), [])
            step = int(rest)
            if step > len(log):
                problems.append(f"{where}: step {key} was acknowledged in run {acked_in} but is "
                                "not in combat_log: LOST")
                continue
            command_text, events, _ = log[step - 1]
            if not _subset(expect, json.loads(command_text)):
                problems.append(f"{where}: step {key} acknowledged as {expect} is logged as "
                                f"{command_text[:200]}")
            # The log keeps each event's text only; the answer is made of the texts: all of
            # them, or those before the step's news (a turn or round over, told below it).
            said = [Event(kind=EventKind.ROLL, text=t) for t in json.loads(events)]
            answers = [events_text(said[:n], SOURCE) for n in range(len(said), 0, -1)]
            answered = answers[0] if answers else ""
            if hashed not in {digest(text) for text in answers}:
                problems.append(f"{where}: the answer to step {key} is not what its log entry "
                                f"says: {answered[:300]!r}")
        elif what == "start":
            if len(seen.combats) < int(rest):
                problems.append(f"{where}: fight {rest} was started (run {acked_in}) but is not "
                                "in the database: LOST")
        else:
            _check_sheet_change(seen, added, key, acked_in, problems, where)


def _check_sheet_change(seen: Snapshot, added: dict[str, Character], key: str, acked_in: int,
                        problems: list[str], where: str) -> None:
    what, _, rest = key.partition(":")
    name = rest.split(":")[0]
    if name not in seen.sheets:
        problems.append(f"{where}: {name} was created (run {acked_in}) but is gone")
        return
    sheet = added.get(name, seen.sheets[name][1])  # as it entered the fight, if it did
    item_names = [item.name for item in sheet.items]
    if what == "item" and item_names.count(rest.split(":")[1]) != 1:
        problems.append(f"{where}: {key} acknowledged; {name} has items {item_names}")
    if what == "hold" and sheet.right_hand is None and sheet.left_hand is None:
        problems.append(f"{where}: {key} acknowledged; {name} holds nothing")
    if what == "ability" and sheet.abilities.count(rest.split(":", 1)[1]) != 1:
        problems.append(f"{where}: {key} acknowledged; {name} has {sheet.abilities}")


def leftovers(database: str, journal: Path) -> dict[str, int]:
    """What the channel shows beyond what it should, once everything is over (not failures:
    what a kill between Discord taking a message and the bot recording its id leaves): older
    prompts whose buttons can still be pressed (the bot refuses them as out of date), boards
    no fight refers to, and Recovery offered twice for one character."""
    with closing(Reader(database)) as db:
        boards = {b for (b,) in db("SELECT board_message_id FROM combats")}
    messages = load_journal(journal)
    offers = Counter(raw["content"].split(" (", 1)[0] for raw in messages.values()
                     if "may recover" in (raw.get("content") or ""))
    return {
        "pressable old prompts": sum(
            1 for raw in messages.values()
            if any(c.get("custom_id", "").startswith("cb:") and not c.get("disabled")
                   for row in raw.get("components") or [] for c in row.get("components", []))),
        "boards of no fight": sum(1 for mid, raw in messages.items() if mid not in boards
                                  and (raw.get("content") or "").startswith("```text\nRound")),
        "Recovery offered twice": sum(n - 1 for n in offers.values()),
    }


def crash_fights(database: str, folder: Path, kills: int, seed: int) -> Ledger:
    rng = random.Random(seed)
    ledger = Ledger()
    fights, killed = 0, 0
    while True:
        plan = "finish" if killed >= kills else _plan(rng)
        if plan != "finish":
            fights = max(fights, ledger.ended + AHEAD)
        run = drive(database, folder, Run(len(ledger.runs) + 1, fights, plan), seed, rng)
        ledger.take(run)
        check(database, folder, ledger, run)
        if ledger.problems:
            return ledger
        if run.killed:
            killed += 1
        elif not run.finished or run.returncode not in (0, -9):
            ledger.problems.append("the driver failed: " + run.describe())
            return ledger
        elif plan == "finish":
            return ledger


@pytest.fixture(params=ENGINES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database on each engine: a SQLite file, or a PostgreSQL database of the test
    session's server."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_database")
        return url
    return str(tmp_path / "unhex.sqlite3")


def test_killed_at_random_points_the_bot_loses_nothing_and_the_fights_end(
    database: str, tmp_path: Path,
) -> None:
    started = time.monotonic()
    ledger = crash_fights(database, tmp_path, KILLS, SEED)
    if ledger.problems:
        pytest.fail("\n".join(ledger.problems[:10]) + f"\n(UNHEX_CRASH_SEED={SEED})",
                    pytrace=False)
    last = ledger.runs[-1]
    with closing(Reader(database)) as db:
        states = [Combat.model_validate_json(s) for (s,) in db(
            "SELECT state FROM combats ORDER BY id")]
        ((holding,),) = db("SELECT COUNT(*) FROM fighting")
    assert len(states) == last.fights and all(s.phase is Phase.ENDED for s in states)
    assert holding == 0
    assert sum(r.killed for r in ledger.runs) >= KILLS
    engine = "PostgreSQL" if is_postgres(database) else "SQLite"
    print(f"\ncrash test on {engine} (seed {SEED}): {sum(r.killed for r in ledger.runs)} kills "
          f"in {len(ledger.runs)} runs, {last.fights} fights, {len(ledger.acks)} acknowledged "
          f"actions, {ledger.unanswered} steps committed but never answered, "
          f"{ledger.reshown} kills before the newest step was shown, prompts after start-up "
          f"{dict(ledger.prompts)}, {time.monotonic() - started:.1f} s; left in the channel: "
          f"{leftovers(database, tmp_path / JOURNAL)}")
