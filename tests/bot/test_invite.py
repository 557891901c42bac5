"""Inviting the bot: `python -m bot invite` asks for exactly the permissions of
``BOT_PERMISSIONS``, the same list the checks before a fight read their permissions from."""

from __future__ import annotations

import base64
import re
import socket
from pathlib import Path

import discord
import pytest

import bot.__main__ as main_module
from bot.permissions import BOT_PERMISSIONS, invite_permissions, permission_label
from engine.phrases import english
from testbed.harness import GM, Table

ROOT = Path(__file__).resolve().parents[2]
APPLICATION_ID = 123_456_789_012_345_678


def _expected_value() -> int:
    return sum(getattr(discord.Permissions, p.flag).flag for p in BOT_PERMISSIONS)


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No .env, no token, a database path that must stay unmade, and no network."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("UNHEX_DATABASE", str(tmp_path / "db.sqlite3"))

    def no_network(*_: object, **__: object) -> None:
        raise AssertionError("invite touched the network")

    def no_database(*_: object, **__: object) -> None:
        raise AssertionError("invite opened the database")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(main_module, "open_store", no_database)
    return tmp_path


def _invite(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main_module.main(["invite", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_invite_link_asks_for_exactly_the_permissions_of_the_list(
        offline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _invite(["--client-id", str(APPLICATION_ID)], capsys)
    assert (code, err) == (0, "")
    link, names = out.splitlines()
    assert link == (f"https://discord.com/oauth2/authorize?client_id={APPLICATION_ID}"
                    f"&scope=bot+applications.commands&permissions={_expected_value()}")
    assert names == (f"Permissions ({_expected_value()}): View Channel, Send Messages, "
                     "Send Messages in Threads, Create Public Threads, Pin Messages, "
                     "Attach Files, Read Message History.")
    assert not (offline / "db.sqlite3").exists()


def test_the_application_id_comes_from_the_token(
        offline: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    first = base64.b64encode(str(APPLICATION_ID).encode()).decode().rstrip("=")
    monkeypatch.setenv("DISCORD_TOKEN", f"{first}.GabcDE.0123456789abcdefghij")
    code, out, _ = _invite([], capsys)
    assert code == 0 and f"client_id={APPLICATION_ID}&" in out


@pytest.mark.parametrize(("argv", "token", "starts"), [
    ([], None, "No application id: pass --client-id"),
    ([], "not-a-bot-token", "No application id: pass --client-id"),
    (["--client-id", "my-bot"], None, "Usage: python -m bot ["),
    (["--client-id"], None, "Usage: python -m bot ["),
])
def test_without_a_usable_application_id_it_says_so_in_one_line(
        offline: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str], token: str | None, starts: str) -> None:
    if token is not None:
        monkeypatch.setenv("DISCORD_TOKEN", token)
    code, out, err = _invite(argv, capsys)
    assert code == 2 and out == ""
    [line] = err.splitlines()
    assert line.startswith(starts), line


def test_the_readme_names_the_invite_and_every_permission() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "python -m bot invite" in readme
    for permission in BOT_PERMISSIONS:
        assert english(permission.label) in readme, permission.label


def test_the_bot_reads_no_permission_of_its_own_outside_the_list() -> None:
    """Every ``app_permissions.<flag>`` the bot reads is one the invite asks for."""
    flags = {p.flag for p in BOT_PERMISSIONS}
    read = {flag for path in (ROOT / "bot").rglob("*.py")
            for flag in re.findall(r"app_permissions\.(\w+)", path.read_text())}
    assert read and read <= flags, read - flags
    with pytest.raises(KeyError):
        permission_label("manage_messages")


#: The permissions the checks before a fight's start read, each with the words of its refusal.
CHECKED = {
    "view_channel": "I can't show the fight here: I lack the **View Channel** permission in "
                    "this channel.",
    "send_messages": "I can't show the fight here: I lack the **Send Messages** permission in "
                     "this channel.",
    "create_public_threads": "I can't start that fight: I lack the **Create Public Threads** "
                             "permission here.",
    "send_messages_in_threads": "I can't start that fight: I lack the **Send Messages in "
                                "Threads** permission here.",
    "pin_messages": "I can't start that fight: I lack the **Pin Messages** permission here.",
}


async def test_each_permission_the_checks_need_is_named_when_missing(table: Table) -> None:
    assert set(CHECKED) <= {p.flag for p in BOT_PERMISSIONS}
    for flag, refusal in CHECKED.items():
        table.app_permissions = invite_permissions()
        setattr(table.app_permissions, flag, False)
        refused = await table.slash("combat start", user=GM, map="Nightclub", pin=True,
                                    thread=True)
        assert refused.ephemeral and refused.content.startswith(refusal), refused.content
        assert refused.content.endswith("Nothing was changed."), refused.content
        assert table.threads == {}
    assert (await table.slash("combat status")).content.startswith("There is no fight")

    table.app_permissions = invite_permissions()  # what the invite grants is enough
    started = await table.slash("combat start", user=GM, map="Nightclub", pin=True,
                                thread=True)
    [thread] = table.threads
    assert started.answer.content.startswith(f"⚔️ A fight starts on **nightclub** in <#{thread}>")
