"""The example files an operator starts from (deploy/, .env.example, the README's settings)
name only settings the bot has, document every one, and split the shards right.

- every ``DISCORD_TOKEN``/``UNHEX_*`` name in deploy/, in .env.example and in the README's
  settings table is a setting of ``bot.settings.Settings``, and every setting is in
  .env.example and in that table;
- ``deploy/compose.yaml`` parses (with PyYAML when it is installed, else with the small reader
  below, which knows just the YAML those files use) and has the services the README promises;
- each example process (compose's bot services, the systemd env files) has settings
  ``Settings`` accepts, and together they run every shard exactly once.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from dotenv import dotenv_values

from bot.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
SETTING_NAME = re.compile(r"\b(DISCORD_TOKEN|UNHEX_[A-Z_]+)\b")
HAS_PYYAML = importlib.util.find_spec("yaml") is not None


def setting_names() -> set[str]:
    """The environment variable of every field of Settings."""
    names = {str(field.validation_alias) for field in Settings.model_fields.values()}
    assert all(SETTING_NAME.fullmatch(name) for name in names), names
    return names


def deploy_files() -> list[Path]:
    return sorted(path for path in DEPLOY.rglob("*") if path.is_file())


def readme_settings_table() -> list[str]:
    """The first column of the README's "### Settings" table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n### Settings\n", 1)[1]
    rows = []
    for line in section.lstrip("\n").splitlines():
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip().strip("`"))
    return rows[2:]  # past the heading and the |---| line


def environment_example() -> dict[str, str | None]:
    return dotenv_values(ROOT / ".env.example")


# --- a reader for the YAML of deploy/ when PyYAML is missing -------------------------------

def _without_comment(line: str) -> str:
    quote = None
    for i, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


def _scalar(text: str) -> Any:
    text = text.strip()
    if text[:1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if text[:1] == "'":
        return text[1:-1].replace("''", "'")
    if text in ("", "~", "null"):
        return None
    if text in ("true", "false"):
        return text == "true"
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _flow_sequence(text: str) -> list[Any]:
    """``[a, "b, c"]``: scalars only, commas inside quotes kept."""
    items, current, quote = [], "", None
    for char in text.strip()[1:-1]:
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == ",":
            items.append(_scalar(current))
            current = ""
            continue
        current += char
    return [*items, _scalar(current)] if current.strip() else items


class _MiniYaml:
    """Block mappings and sequences, scalars, flow sequences of scalars, anchors, aliases and
    ``<<`` merges: what compose files and prometheus.yml use. Anything else is refused."""

    def __init__(self, text: str) -> None:
        self.lines = []
        for raw in text.splitlines():
            line = _without_comment(raw)
            if line.strip():
                self.lines.append((len(line) - len(line.lstrip(" ")), line.strip()))
        self.anchors: dict[str, Any] = {}
        self.at = 0

    def document(self) -> Any:
        value = self.block(0)
        assert self.at == len(self.lines), f"unread YAML from {self.lines[self.at]}"
        return value

    def block(self, indent: int) -> Any:
        if self.lines[self.at][1].startswith("- ") or self.lines[self.at][1] == "-":
            return self.sequence(indent)
        return self.mapping(indent)

    def sequence(self, indent: int) -> list[Any]:
        items = []
        while self.at < len(self.lines) and self.lines[self.at][0] == indent \
                and self.lines[self.at][1].startswith("- "):
            content = self.lines[self.at][1][2:]
            if re.match(r"[^\"'\[]*?:( |$)", content):  # "- key: value": a mapping item
                self.lines[self.at] = (indent + 2, content)
                items.append(self.mapping(indent + 2))
            else:
                self.at += 1
                items.append(self.value(content, indent))
        return items

    def mapping(self, indent: int) -> dict[str, Any]:
        explicit: dict[str, Any] = {}
        merged: dict[str, Any] = {}
        while self.at < len(self.lines) and self.lines[self.at][0] == indent:
            key, colon, rest = self.lines[self.at][1].partition(": ")
            if not colon:
                assert key.endswith(":"), f"not a mapping entry: {key!r}"
                key, rest = key[:-1], ""
            self.at += 1
            value = self.value(rest, indent)
            if key == "<<":
                merged.update(value)
            else:
                explicit[_scalar(key)] = value
        return {**merged, **explicit}

    def value(self, rest: str, indent: int) -> Any:
        anchor = None
        if rest.startswith("&"):
            anchor, _, rest = rest.partition(" ")
        if rest.startswith("*"):
            return self.anchors[rest[1:]]
        assert rest[:1] not in ("|", ">", "{"), f"not read here: {rest!r}"
        if rest.startswith("["):
            value: Any = _flow_sequence(rest)
        elif rest:
            value = _scalar(rest)
        elif self.at < len(self.lines) and (
                self.lines[self.at][0] > indent
                or (self.lines[self.at][0] == indent and self.lines[self.at][1][:2] == "- ")):
            value = self.block(self.lines[self.at][0])
        else:
            value = None
        if anchor:
            self.anchors[anchor[1:]] = value
        return value


def read_yaml(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    if HAS_PYYAML:
        import yaml

        return yaml.safe_load(text)
    return _MiniYaml(text).document()


# --- the processes of the examples ---------------------------------------------------------

def compose_value(value: object) -> str:
    """A compose environment value as the container sees it, a stand-in for the variables
    compose would take from deploy/.env (``${NAME:-default}`` takes the default)."""
    return re.sub(r"\$\{(\w+)(?::?([-?])([^}]*))?\}",
                  lambda m: m.group(3) if m.group(2) == "-" else f"stand-in-{m.group(1)}",
                  str(value))


def compose_processes() -> dict[str, dict[str, str]]:
    services = read_yaml(DEPLOY / "compose.yaml")["services"]
    return {name: {key: compose_value(value) for key, value in service["environment"].items()}
            for name, service in services.items() if name.startswith("bot-")}


def systemd_processes() -> dict[str, dict[str, str | None]]:
    folder = DEPLOY / "systemd"
    common = dotenv_values(folder / "common.env")
    return {path.stem: {**common, **dotenv_values(path)}
            for path in sorted(folder.glob("[0-9]*.env"))}


@pytest.fixture
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings read only what a test gives them, not this machine's environment."""
    for name in setting_names():
        monkeypatch.delenv(name, raising=False)


def settings_of(environment: Mapping[str, Any]) -> Settings:
    """Settings from these variables only (no .env file)."""
    return Settings(_env_file=None, **environment)


# --- the tests ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", deploy_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_setting_a_deploy_file_names_exists(path: Path) -> None:
    named = set(SETTING_NAME.findall(path.read_text(encoding="utf-8")))
    assert named - setting_names() == set()


def test_the_environment_example_and_the_readme_name_only_settings_that_exist() -> None:
    assert set(environment_example()) - setting_names() == set()
    assert set(readme_settings_table()) - setting_names() == set()


def test_every_setting_is_in_the_environment_example_and_the_readme_table() -> None:
    assert setting_names() - set(environment_example()) == set()
    table = readme_settings_table()
    assert setting_names() - set(table) == set()
    assert len(table) == len(set(table)), "a setting twice in the README's table"


def test_a_copy_of_the_environment_example_is_accepted(clean_environment: None) -> None:
    settings = settings_of(environment_example())
    assert settings.shards.ids is None and settings.http_port is None


def test_the_compose_file_has_a_database_and_bot_processes_with_health_checks() -> None:
    compose = read_yaml(DEPLOY / "compose.yaml")
    services = compose["services"]
    assert "healthcheck" in services["postgres"]
    bots = [name for name in services if name.startswith("bot-")]
    assert bots == ["bot-0", "bot-1"]
    for name in bots:
        bot = services[name]
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "/healthz" in " ".join(bot["healthcheck"]["test"])
        assert bot["build"]["dockerfile"] == "deploy/Dockerfile"
        assert bot["environment"]["UNHEX_HTTP_HOST"] == "0.0.0.0"
        assert bot["environment"]["UNHEX_DATABASE"].startswith("postgresql://")
    assert (DEPLOY / "Dockerfile").is_file()


def test_prometheus_scrapes_every_compose_process() -> None:
    jobs = read_yaml(DEPLOY / "prometheus.yml")["scrape_configs"]
    targets = {target for job in jobs for config in job["static_configs"]
               for target in config["targets"]}
    assert targets == {f"{name}:{environment['UNHEX_HTTP_PORT']}"
                       for name, environment in compose_processes().items()}


@pytest.mark.skipif(not HAS_PYYAML, reason="PyYAML is not installed")
def test_the_small_yaml_reader_reads_the_examples_as_pyyaml_does() -> None:
    import yaml

    for name in ("compose.yaml", "prometheus.yml"):
        text = (DEPLOY / name).read_text(encoding="utf-8")
        assert _MiniYaml(text).document() == yaml.safe_load(text)


@pytest.mark.parametrize("example", ["compose", "systemd"])
def test_the_example_processes_run_every_shard_once(
        example: str, clean_environment: None) -> None:
    processes = compose_processes() if example == "compose" else systemd_processes()
    assert len(processes) >= 2
    plans = [settings_of(environment).shards for environment in processes.values()]
    counts = {plan.count for plan in plans}
    assert len(counts) == 1 and None not in counts, f"one UNHEX_SHARD_COUNT for all: {counts}"
    (count,) = counts
    run = sorted(shard for plan in plans for shard in plan.ids or ())
    assert run == list(range(count or 0)), "each shard run by exactly one process"
    assert sum(plan.runs_shard_zero for plan in plans) == 1


def test_the_systemd_processes_on_one_machine_listen_on_different_ports(
        clean_environment: None) -> None:
    ports = [settings_of(environment).http_port for environment in systemd_processes().values()]
    assert None not in ports and len(set(ports)) == len(ports)
