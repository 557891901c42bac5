"""A throwaway PostgreSQL server for the tests: made with ``initdb`` in a temporary folder,
listening on 127.0.0.1 on a free port, stopped and removed at the end.

The server programs come from Debian's ``postgresql`` package (``/usr/lib/postgresql/<n>/bin``).
PostgreSQL refuses to run as root: as root, the server runs as the ``postgres`` user (or
``nobody``), which owns the folder.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pwd
import random
import shutil
import socket
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg

__all__ = ["MISSING", "PostgresServer", "free_port", "server_programs"]

#: Why the PostgreSQL tests cannot run on this machine.
MISSING = "PostgreSQL's server programs are missing: apt-get install postgresql"

_PROGRAMS = ("initdb", "pg_ctl", "postgres")


def server_programs() -> Path | None:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``: on the PATH, else the newest
    version's under ``/usr/lib/postgresql``."""
    found = shutil.which("initdb")
    if found is not None:
        folder = Path(found).resolve().parent
        if all((folder / p).exists() for p in _PROGRAMS):
            return folder
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    for folder in reversed(versions):
        if all((folder / p).exists() for p in _PROGRAMS):
            return folder
    return None


#: Ports handed out, below Linux's ephemeral range (32768-60999), where no connection's own
#: end is ever put: a server stopped for a while and started again on its port (a test of
#: the database going away) finds it free. Each pytest-xdist worker has a range of its own,
#: handed out in turn from a random start (processes a worker starts side by side, a bench's
#: runs, start apart; a port comes round again only after the whole range).
_PORTS_FROM, _PORTS_EACH = 20_000, 3_000
_port_turns = itertools.count(random.randrange(_PORTS_EACH))


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now, and that no recent call gave (in this
    worker's own range, so no other worker and no outgoing connection takes it either)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    first = _PORTS_FROM + (int(worker) % 4 if worker.isdigit() else 0) * _PORTS_EACH
    for _ in range(_PORTS_EACH):
        port = first + next(_port_turns) % _PORTS_EACH
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port between {first} and {first + _PORTS_EACH}")


def _memory_folder() -> str | None:
    """``/dev/shm`` when it is there with room to spare: a throwaway server in memory makes
    and empties databases several times faster than on a small disk."""
    shm = Path("/dev/shm")
    try:
        room = shutil.disk_usage(shm).free
    except OSError:
        return None
    return str(shm) if room > 512 * 2**20 and os.access(shm, os.W_OK) else None


def _server_user() -> str | None:
    """Who runs the server: None (this user) unless this is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root, and neither a postgres nor a nobody user exists")


class PostgresServer:
    """One server; :meth:`start` it, :meth:`stop` it (and start it again: same data, same
    port), :meth:`remove` it at the end."""

    def __init__(self, programs: Path, folder: Path | None = None, *,
                 durable: bool = False) -> None:
        """``durable``: PostgreSQL's default, every commit flushed to disk (the benchmarks);
        else fsync is off and the data in memory where there is room, for throwaway tests."""
        self.programs = programs
        self.durable = durable
        # A durable server's data stays on the disk, where a flush costs what it will cost.
        room = None if durable else _memory_folder()
        self.folder = Path(folder or tempfile.mkdtemp(prefix="unhex-pg-", dir=room))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = free_port()
        self.user = _server_user()
        self.running = False

    def _run(self, program: str, *args: str) -> None:
        result = subprocess.run([str(self.programs / program), *args], user=self.user,
                                capture_output=True, text=True, check=False,
                                cwd=self.folder)
        if result.returncode != 0:
            tail = self.log.read_text()[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{program} failed ({result.returncode}): "
                               f"{result.stdout}{result.stderr}{tail}")

    def start(self) -> PostgresServer:
        if self.user is not None:
            shutil.chown(self.folder, self.user)
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "unhex", "-E", "UTF8",
                      "--locale=C", "--no-sync")
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                   "-c max_connections=200")
        if not self.durable:
            # fsync off: the tests kill the bot, never this machine, so a committed step is
            # still there for them; it makes a throwaway server much faster on a small disk.
            options += " -c fsync=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "start")
        self.running = True
        return self

    def stop(self) -> None:
        """Stop the server as an operator would (``pg_ctl stop -m fast``)."""
        if self.running:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
            self.running = False

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://unhex@127.0.0.1:{self.port}/{database}"

    async def create_database(self, name: str, template: str | None = None) -> str:
        """A new database (a copy of ``template``, if given); its URL."""
        like = "" if template is None else f' TEMPLATE "{template}"'
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f'CREATE DATABASE "{name}"{like}')
        finally:
            await connection.close()
        return self.url(name)

    def create_database_now(self, name: str, template: str | None = None) -> str:
        """:meth:`create_database` for code outside an event loop (or inside another's)."""
        with ThreadPoolExecutor(1) as worker:
            return worker.submit(asyncio.run, self.create_database(name, template)).result()

    def drop_database_now(self, name: str) -> None:
        """:meth:`drop_database` for code outside an event loop (or inside another's)."""
        with ThreadPoolExecutor(1) as worker:
            worker.submit(asyncio.run, self.drop_database(name)).result()

    async def drop_database(self, name: str) -> None:
        connection = await asyncpg.connect(self.url())
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()
