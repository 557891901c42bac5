"""Driving the local table's page in Debian's Chromium (Playwright given its path: nothing
downloads a browser). Without Chromium or Playwright the tests skip with one line, and fail
under ``CI=true``, where ``.ci/run`` installs Chromium."""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("UNHEX_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Long enough for a bot on a busy 2-core machine; a page that never updates still fails.
WAIT_MS = 20_000


def missing() -> str | None:
    """Why the browser tests cannot run here; None: they can."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]')"
    if not os.path.exists(CHROMIUM):
        return "Chromium is not installed (apt-get install chromium)"
    return None


def need_browser() -> None:
    problem = missing()
    if problem is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests need a browser: {problem}")
    pytest.skip(f"browser tests skipped: {problem}")


async def open_browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            await browser.close()


class Page:
    """The page as a person uses it: who they are, the composer, buttons, forms."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.timings: list[float] = []

    async def be(self, name: str) -> None:
        label = "gamemaster (GM)" if name == "gamemaster" else name
        await self.page.select_option("#who", label=label)
        await self.page.locator("#me", has_text=name).wait_for(timeout=WAIT_MS)

    async def channel(self, name: str) -> None:
        await self.page.locator(f'button.channel[data-channel="{name}"]').click()

    async def slash(self, command: str, **options: Any) -> None:
        """Type ``/command``, pick it in the list, fill its options, send; until answered."""
        page = self.page
        await page.locator("input.prompt").fill(f"/{command}")
        await page.locator(".palette li").filter(
            has=page.locator("strong", has_text=f"/{command}")).first.click()
        form = page.locator(f'form.command[data-command="{command}"]')
        for name, value in options.items():
            field = form.locator(f'[name="{name}"]')
            if await field.evaluate("node => node.tagName") == "SELECT":
                await field.select_option(label=str(value))
            else:
                await field.fill(str(value))
        await form.locator("button.send").click()
        await page.locator(".sending").wait_for(state="detached", timeout=WAIT_MS)

    def message(self, text: str) -> Any:
        return self.page.locator("#messages .message", has_text=text).last

    async def press(self, label: str, on: str | None = None) -> None:
        where = self.page.locator("#messages") if on is None else self.message(on)
        button = where.get_by_role("button", name=label, exact=True).last
        await button.click(timeout=WAIT_MS)
        await self.page.wait_for_function(
            "() => !document.querySelector('.button.busy')", timeout=WAIT_MS)

    async def pick(self, menu: str, entry: str, on: Any) -> None:
        """Choose ``entry`` in the menu whose placeholder is ``menu`` on the message ``on``
        (a locator; of a long list's menus, the one offering it), as a click in the open
        menu does; until the bot has answered."""
        offered = self.page.locator("option").filter(has_text=re.compile(
            f"^{re.escape(entry)}$"))
        menus = on.get_by_role("combobox", name=menu).filter(has=offered)
        await menus.select_option(label=entry, timeout=WAIT_MS)
        await self.page.wait_for_function(
            "() => !document.querySelector('.menu.busy')", timeout=WAIT_MS)

    async def board_after(self, label: str, on: str | None = None) -> None:
        """Press ``label``; until the board (the pinned code block) changes: timed."""
        board = self.page.locator("#messages .message", has_text="Round").first
        before = await board.inner_text()
        started = time.monotonic()
        await self.press(label, on)
        await self.page.wait_for_function(
            "([before]) => { const b = [...document.querySelectorAll('#messages .message')]"
            ".find(m => m.innerText.includes('Round')); return b && b.innerText !== before; }",
            arg=[before], timeout=WAIT_MS)
        self.timings.append(time.monotonic() - started)

    async def fill_form(self, values: dict[str, str]) -> None:
        """Fill the open form's fields (by label, or the first field for ``""``), submit."""
        form = self.page.locator("form.modal")
        await form.wait_for(timeout=WAIT_MS)
        for label, value in values.items():
            field = form.locator("input, textarea").first if not label else \
                form.get_by_label(label, exact=False)
            await field.fill(value)
        await form.get_by_role("button", name="Submit").click()
        await form.wait_for(state="detached", timeout=WAIT_MS)


#: A phone's screen, as the page is tried at it.
PHONE = {"width": 390, "height": 844}
#: A desk's screen.
DESK = {"width": 1100, "height": 900}


async def open_page(browser: Any, url: str, errors: list[str], *,
                    viewport: dict[str, int] = DESK, welcomed: bool = False) -> Page:
    """The page at ``url`` in a context of its own, ready; its script's errors put in
    ``errors``. ``welcomed``: as by someone who closed the welcome card before."""
    context = await browser.new_context(viewport=viewport)
    made = await context.new_page()
    made.on("pageerror", lambda error: errors.append(str(error)))
    if welcomed:
        await made.add_init_script("localStorage.setItem('unhex.welcomed', 'yes')")
    await made.goto(url)
    await made.locator("body[data-ready=true]").wait_for()
    return Page(made)


async def open_phone(browser: Any, url: str, errors: list[str]) -> Page:
    """The page at ``url`` on a phone's screen (:func:`open_page`)."""
    return await open_page(browser, url, errors, viewport=PHONE)
