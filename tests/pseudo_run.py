"""The test suite played in the pseudo-locale (``UNHEX_PSEUDO=1``, ``make test-pseudo``): every
table plays in ``en-XA`` (testbed/pseudo.py) and what the bot sends is read for English.

The run is judged by the English found, not by the tests: they still read the table in English
(the harness shows them a pseudo text as the English it was made from), but one that fails all
the same (a longer text past a limit, a source's own trailing ``~``) is counted as stopped, its
later steps not played, and listed. At the end: every English sentence found, grouped, with the
file that says it and the tests that made the bot send it; counts by file and by test module;
the run fails if any English was found. (With pytest-xdist each worker writes its leaks to the
folder ``UNHEX_PSEUDO_LEAKS``, which the controller reads.)
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from testbed.pseudo import Leak, PseudoWatch, group, start_watching

__all__ = ["PseudoRun", "asked"]

#: Where each process of the run writes what it found.
LEAKS_FOLDER = "UNHEX_PSEUDO_LEAKS"


def asked() -> bool:
    return os.environ.get("UNHEX_PSEUDO", "") not in ("", "0")


class PseudoRun:
    """The pytest plugin of a pseudo-locale run (registered by tests/conftest.py)."""

    def __init__(self, config: pytest.Config) -> None:
        self.watch: PseudoWatch = start_watching()
        self.worker = getattr(config, "workerinput", {}).get("workerid")
        if self.worker is None:
            os.environ[LEAKS_FOLDER] = tempfile.mkdtemp(prefix="unhex-pseudo-")
        self.folder = Path(os.environ[LEAKS_FOLDER])
        self.stopped: dict[str, str] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Iterator[None]:
        self.watch.begin(item.nodeid)
        yield

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item,
                                  call: pytest.CallInfo[Any]) -> Iterator[None]:
        outcome = yield
        report = outcome.get_result()  # type: ignore[attr-defined]
        if report.failed:  # (at its end too: Discord refused a longer text)
            first = str(call.excinfo.value if call.excinfo else "").splitlines()
            self.stopped.setdefault(item.nodeid, first[0][:200] if first else "")
            report.outcome = "skipped"
            report.wasxfail = "stopped in the pseudo-locale (its English not judged here)"

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.watch.flush()
        mine = {"leaks": [asdict(leak) for leak in self.watch.leaks], "stopped": self.stopped}
        (self.folder / f"{self.worker or 'main'}.json").write_text(json.dumps(mine))
        if self.worker is None:
            leaks, stopped = self._everyone()
            session.config.stash[_FOUND] = (leaks, stopped)
            if leaks:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def _everyone(self) -> tuple[list[Leak], dict[str, str]]:
        leaks: list[Leak] = []
        stopped: dict[str, str] = {}
        for path in sorted(self.folder.glob("*.json")):
            found = json.loads(path.read_text())
            leaks += [Leak(**{**leak, "words": tuple(leak["words"])}) for leak in found["leaks"]]
            stopped.update(found["stopped"])
        return leaks, stopped

    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        """No dot per test: the run's output is its English (a test stopped is counted)."""
        if report.when == "call" and report.passed:
            return "passed", "", "PASSED"
        if hasattr(report, "wasxfail"):
            return "xfailed", "", "STOPPED"
        return None

    def pytest_terminal_summary(self, terminalreporter: Any, config: pytest.Config) -> None:
        if self.worker is not None or _FOUND not in config.stash:
            return
        leaks, stopped = config.stash[_FOUND]
        write = terminalreporter.write_line
        if leaks:
            terminalreporter.section("English left in the pseudo-locale")
            self._report(write, leaks)
            if stopped:
                write(f"{len(stopped)} tests stopped before their end in the pseudo-locale:")
        elif stopped:  # (the stopped tests' later steps were not read: said, listed on -v)
            write(f"No English left in the pseudo-locale. {len(stopped)} tests stopped before "
                  f"their end" + (":" if config.option.verbose > 0 else " (-v lists them)."))
        else:
            write("No English left in the pseudo-locale.")
        if leaks or config.option.verbose > 0:
            for test, why in sorted(stopped.items()):
                write(f"  {test}: {why}")

    @staticmethod
    def _report(write: Any, leaks: list[Leak]) -> None:
        for found in group(leaks):
            write(f"{found.count:4}× {found.sentence}")
            write(f"      from {found.source}; words {', '.join(found.words)}; "
                  f"as {', '.join(found.where)}; in {', '.join(_short(found.tests))}")
            write(f"      e.g. {found.example!r}")
        write("")
        by_file = Counter[str]()
        for found in group(leaks):
            by_file["? (several)" if " (+" in found.source else found.source] += found.count
        write("By file (the one file saying it, else ?): " + _counted(by_file))
        write("By test module: " + _counted(Counter(leak.test.split("::")[0]
                                                    for leak in leaks)))
        write(f"{len(leaks)} English texts, {len(group(leaks))} sentences.")


_FOUND = pytest.StashKey[tuple[list[Leak], dict[str, str]]]()


def _short(tests: tuple[str, ...]) -> list[str]:
    shown = [test.split("/")[-1] for test in tests[:3]]
    return shown + ([f"+{len(tests) - 3} more"] if len(tests) > 3 else [])


def _counted(counts: Counter[str]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.most_common())
