"""What tests read from the processes they start: their stdout's lines, and their metrics."""

from __future__ import annotations

import queue
import subprocess
import threading

from prometheus_client.parser import text_string_to_metric_families


def stdout_lines(proc: subprocess.Popen[bytes]) -> queue.Queue[str | None]:
    """Each line ``proc`` writes on stdout, as it comes (read by a thread); None at the end."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            lines.put(raw.decode(errors="replace").rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def metric(text: str, name: str, **labels: str) -> float:
    """The value of the sample ``name{labels}`` in Prometheus' text format (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return float(sample.value)
    return 0.0
