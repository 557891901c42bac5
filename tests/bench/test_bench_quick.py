"""The benchmarks still run: each bench/bench_*.py of the bot, with --quick (tiny sizes), in a
fresh process, exits 0 and prints its ratio lines. Nothing here looks at the numbers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from testbed.postgres_server import server_programs

ROOT = Path(__file__).resolve().parents[2]
#: Each bench and how many "ratio …" lines it prints (on SQLite).
BENCHES = {
    "bench_exchange.py": 9,
    "bench_burst.py": 7,
    "bench_startup.py": 4,
    "bench_storage.py": 2,
    "bench_interleaved.py": 2,
    "bench_options.py": 1,
    "bench_throughput.py": 2,
    "bench_memory.py": 3,
    "bench_processes.py": 0,
    "bench_instructions.py": 4,
}

#: The benches that count instructions with valgrind's callgrind: no ratio lines without it.
NEED_VALGRIND = {"bench_instructions.py"}
#: The benches that run the Unhex bot on PostgreSQL too, with as many ratio lines again, when
#: the server programs are on the machine.
ON_POSTGRES = {"bench_exchange.py", "bench_interleaved.py", "bench_throughput.py"}
#: The benches that run on PostgreSQL only (bot processes sharing one server): their ratio
#: lines when the server programs are on the machine, none otherwise.
ONLY_POSTGRES = {"bench_processes.py": 3}


@pytest.fixture(scope="module")
def runs() -> dict[str, subprocess.CompletedProcess[str]]:
    """Every quick bench at once (they are independent), waited for together, on this
    checkout's packages (``bot``, ``testbed``) whichever checkout is installed."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    started = {
        name: subprocess.Popen([sys.executable, str(ROOT / "bench" / name), "--quick"],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        for name in BENCHES
    }
    done = {}
    for name, process in started.items():
        out, err = process.communicate(timeout=120)
        done[name] = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    return done


def test_every_bot_bench_is_checked() -> None:
    assert {p.name for p in (ROOT / "bench").glob("bench_*.py")} - {"bench_maps.py"} == set(
        BENCHES)


@pytest.mark.parametrize("name", sorted(BENCHES))
def test_quick_bench_runs_and_prints_its_ratios(
        runs: dict[str, subprocess.CompletedProcess[str]], name: str) -> None:
    result = runs[name]
    assert result.returncode == 0, result.stderr
    ratios = [line for line in result.stdout.splitlines() if line.startswith("ratio ")]
    engines = 2 if name in ON_POSTGRES and server_programs() is not None else 1
    if name in NEED_VALGRIND and shutil.which("valgrind") is None:
        assert "skipped" in result.stdout, result.stdout
        return
    expected = BENCHES[name] * engines + (ONLY_POSTGRES.get(name, 0)
                                          if server_programs() is not None else 0)
    assert len(ratios) == expected, result.stdout
    for line in ratios:
        assert "goal ≤" in line and ("ok" in line or "OVER" in line), line


def test_the_start_up_bench_checks_passed_deadlines_are_handled_once(
        runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    result = runs["bench_startup.py"]
    assert result.returncode == 0, result.stderr  # (the bench exits non-zero when not so)
    assert "passed deadlines handled exactly once at start-up" in result.stdout, result.stdout
    assert "a second start-up handled none" in result.stdout, result.stdout
