r"""The local table's page shows the bot's Markdown as Discord's client does, in a real
browser: a table of messages and what Discord shows for each (escapes, emphasis and how it
nests, spoilers, `-#` small text, headings, quotes, lists, links, mentions, code), every
escape ``discord.utils.escape_markdown`` writes shown as the plain character, a deadline days
away counting down as Discord's client counts it, while the page stays open, and three wound
marks the GM sets shown as ``\\\``, not doubled."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from discord.utils import escape_markdown

from localdiscord import LocalDiscord
from tests.localdiscord.browser import WAIT_MS, Page, need_browser, open_browser

LINK = '<a href="{0}" target="_blank" rel="noopener">{1}</a>'
LI = '<div class="li" style="--depth:{0}">{1} {2}</div>'

#: Message → the HTML the page shows (Discord's look: <em>, <strong>, <u>, <s>, …).
CASES: list[tuple[str, str]] = [
    # Escapes: a backslash before a Markdown character shows the character.
    ("\\\\\\\\\\\\", "\\\\\\"),  # escape_markdown of three wound marks
    (r"\*not\* \_not\_ \~\~not\~\~ \|\|not\|\| \`not\`", "*not* _not_ ~~not~~ ||not|| `not`"),
    (r"\# not a heading", "# not a heading"),
    (r"\> not a quote", "&gt; not a quote"),
    (r"\>>> not a quote", "&gt;&gt;&gt; not a quote"),
    (r"\-# not small", "-# not small"),
    (r"\- not a list", "- not a list"),
    (r"\<@1> \:) 100\%", "&lt;@1&gt; :) 100%"),
    (r"a\b \1 \ x", r"a\b \1 \ x"),  # before a letter, digit or space it stays
    (r"*a\*b*", "<em>a*b</em>"),
    # Nothing is escaped inside code.
    (r"`a\*b` and `\\`", r"<code>a\*b</code> and <code>\\</code>"),
    ("```\n\\*x\\* **y**\n```", '<pre class="codeblock"><code>\\*x\\* **y**</code></pre>'),
    # Emphasis, and how it nests.
    ("**b** *i* _i_ __u__ ~~s~~", "<strong>b</strong> <em>i</em> <em>i</em> <u>u</u> <s>s</s>"),
    ("***bi*** ___ui___", "<em><strong>bi</strong></em> <em><u>ui</u></em>"),
    ("**bold *both* bold**", "<strong>bold <em>both</em> bold</strong>"),
    ("__*u i*__ ~~**s b**~~", "<u><em>u i</em></u> <s><strong>s b</strong></s>"),
    ("**a\nb**", "<strong>a<br>b</strong>"),
    ("snake_case_name and __init__.py", "snake_case_name and <u>init</u>.py"),
    ("a*b*c", "a<em>b</em>c"),
    ("2 * 3 * 4", "2 * 3 * 4"),  # a `*` before a space opens nothing
    ("** not bold", "** not bold"),
    ("||hidden **bold**||", '<span class="spoiler">hidden <strong>bold</strong></span>'),
    # Lines: small text, headings at a line's start only, quotes.
    ("-# small *text*", '<div class="subtext">small <em>text</em></div>'),
    ("# One\n## Two\n### Three\n#### Four",
     '<div class="h1">One</div><div class="h2">Two</div><div class="h3">Three</div>#### Four'),
    ("#no space, a # b", "#no space, a # b"),
    ("> one\n> two\nout", "<blockquote>one<br>two</blockquote>out"),
    (">no space", "&gt;no space"),
    ("before\n>>> all\n\nthe rest", "before<br><blockquote>all<br><br>the rest</blockquote>"),
    ("> # heading\n> - item", '<blockquote><div class="h1">heading</div>'
     + LI.format(0, "•", "item") + "</blockquote>"),
    # Lists: `-`/`*` bullets, nested by indent; numbers count on from the first.
    ("- a\n* b\n  - c\nafter", LI.format(0, "•", "a") + LI.format(0, "•", "b")
     + LI.format(1, "•", "c") + "after"),
    ("3. x\n3. y\n1\\. not", LI.format(0, "3.", "x") + LI.format(0, "4.", "y") + "1. not"),
    # Links: masked (http(s) only), bare, <suppressed>; none inside code.
    ("[the **rules**](https://example.com/a_b)",
     LINK.format("https://example.com/a_b", "the <strong>rules</strong>")),
    ("see https://example.com/x_y_z.", "see " + LINK.format(*["https://example.com/x_y_z"] * 2)
     + "."),
    ("<https://example.com>", LINK.format(*["https://example.com"] * 2)),
    ("[x](javascript:alert(1))", "[x](javascript:alert(1))"),
    ("`https://example.com`", "<code>https://example.com</code>"),
    # Code: inline with double backticks, blocks with a language, mid-line.
    ("``a`b`` `` `c` `` ``` `` ```",
     '<code>a`b</code> <code>`c`</code> <pre class="codeblock"><code> `` </code></pre>'),
    ("```py\nx = 1\n```\nafter", '<pre class="codeblock"><code>x = 1</code></pre>after'),
    ("```one line```", '<pre class="codeblock"><code>one line</code></pre>'),
    ("<b>&</b>", "&lt;b&gt;&amp;&lt;/b&gt;"),
    ("a\n\nb\n", "a<br><br>b"),
]

#: Text the bot escapes with discord.utils.escape_markdown (names, notes, events): shown as
#: typed, with no Markdown.
TYPED = [
    "\\\\\\", "■X\\\\", "*Star*", "__init__", "snake_case_", "~~gone~~", "||secret||",
    "`tick`", "```block```", "a|b", "2 * 3", "[a](https://example.com)", "> quoted",
    ">>> all", "# One", "## Two", "### Three", "-# small", "- item", "* item", "x\n- item",
    "a\\b", "\\*", "***", "50% off & <b>", "C:\\dir\\", "one\ntwo",
]


@pytest.fixture
async def page(discord: LocalDiscord) -> AsyncIterator[Any]:
    need_browser()
    async for browser in open_browser():
        made = await browser.new_page()
        await made.goto(f"{discord.base}/")
        await made.locator("body[data-ready=true]").wait_for()
        yield made


RENDER = """async (sources) => {
  const markdown = await import('/web/markdown.js');
  return sources.map((source) => markdown.render(source));
}"""

# What a reader sees of the rendered text: its characters, a line break for each <br>;
# and how many elements other than line breaks (links aside) it made.
SHOWN = """async (sources) => {
  const markdown = await import('/web/markdown.js');
  return sources.map((source) => {
    const node = document.createElement('div');
    node.innerHTML = markdown.render(source);
    node.querySelectorAll('br').forEach((br) => br.replaceWith('\\n'));
    return [node.textContent, node.querySelectorAll(':not(a)').length];
  });
}"""


DAY, HOUR = 86400, 3600

# A deadline two days and an hour away, then what it says as the page's clock moves on (each
# after the one before; the seconds after the first moment).
COUNTDOWN = """async (later) => {
  const markdown = await import('/web/markdown.js');
  const now = Math.floor(Date.now() / 1000);
  const node = document.createElement('div');
  node.innerHTML = markdown.render(`ends <t:${now + 2 * 86400 + 3600}:R>`);
  const shown = [node.textContent];
  for (const seconds of later) {
    markdown.tick(node, now + seconds);
    shown.push(node.textContent);
  }
  return shown;
}"""

#: When the clock says it, and what the deadline then says.
COUNTED = [
    (HOUR, "ends in 2 days"), (DAY + HOUR - 1, "ends in 1 day"), (DAY + HOUR, "ends in 1 day"),
    (DAY + 2 * HOUR, "ends in 23 hours"), (2 * DAY + HOUR - 90, "ends in 1 minute"),
    (2 * DAY + HOUR - 59, "ends in 59 seconds"), (3 * DAY + HOUR, "ends 1 day ago"),
    (5 * DAY + HOUR, "ends 3 days ago"),
]

# A deadline two days away put on the open page as not yet counted: the page's own clock
# (every second) says how long is left, without a reload.
ON_THE_PAGE = """async () => {
  const markdown = await import('/web/markdown.js');
  const node = document.createElement('div');
  node.id = 'countdown';
  node.innerHTML = markdown.render(`<t:${Math.floor(Date.now() / 1000) + 2 * 86400 + 3600}:R>`);
  node.querySelector('time').textContent = 'not counted yet';
  document.body.append(node);
}"""


async def test_messages_render_as_discord_shows_them(page: Any) -> None:
    state = await page.evaluate("fetch('/table/state').then((answer) => answer.json())")
    member, channel = state["members"][0], state["channels"][0]
    role_id, role = next(iter(state["roles"].items()))
    named = [
        (f"<@{member['id']}> <@!{member['id']}> <@999>",
         f'<span class="mention">@{member["name"]}</span> '
         f'<span class="mention">@{member["name"]}</span> '
         '<span class="mention">@unknown-user</span>'),
        (f"<@&{role_id}> <#{channel['id']}> </combat begin:12>",
         f'<span class="mention">@{role}</span> <span class="mention">#{channel["name"]}</span> '
         '<span class="mention">/combat begin</span>'),
        (f"`<@{member['id']}>`", f"<code>&lt;@{member['id']}&gt;</code>"),
    ]
    cases = CASES + named
    stamps = ["<t:0:R>", "<t:0>", "**<t:0:d>**"]
    escaped = [escape_markdown(text) for text in TYPED]
    rendered, timed = await page.evaluate(
        "async ([a, b]) => [await (" + RENDER + ")(a), await (" + RENDER + ")(b)]",
        [[source for source, _ in cases], stamps])
    shown = await page.evaluate(SHOWN, escaped)

    wrong = [(source, want, got) for (source, want), got in zip(cases, rendered, strict=True)
             if got != want]
    assert not wrong, "\n".join(f"{s!r}\n  want {w!r}\n  got  {g!r}" for s, w, g in wrong)
    assert re.fullmatch(r'<time class="stamp" data-t="0" data-f="R" title="[^"]+">'
                        r"\d+ years ago</time>", timed[0]), timed[0]
    assert 'data-f="f"' in timed[1] and "ago" not in timed[1], timed[1]
    assert timed[2].startswith('<strong><time class="stamp" data-t="0" data-f="d"'), timed[2]
    counted = await page.evaluate(COUNTDOWN, [seconds for seconds, _ in COUNTED])
    assert counted == ["ends in 2 days", *[said for _, said in COUNTED]], counted
    await page.evaluate(ON_THE_PAGE)
    await page.locator("#countdown time", has_text="in 2 days").wait_for(timeout=WAIT_MS)
    plain = [(typed, source, text, elements)
             for typed, source, (text, elements) in zip(TYPED, escaped, shown, strict=True)
             if (text, elements) != (typed, 0)]
    assert not plain, "\n".join(f"{t!r} escaped {s!r} shows {x!r} ({n} elements)"
                                for t, s, x, n in plain)


async def test_three_wound_marks_show_as_three_backslashes(
        discord: LocalDiscord, bot: Path, page: Any) -> None:
    r"""The GM marks Ana's torso \\\ (three less-lethal marks): the bot escapes them in what
    it tells the table, and the page shows the three marks Discord shows."""
    people = discord.people
    await people.slash("alice", "fight", "character create", name="Ana", level=40)
    await people.slash("gamemaster", "fight", "combat start", map="Nightclub")
    await people.slash("alice", "fight", "combat add", character="Ana", area="Dance Floor")
    marks = "\\" * 3
    reply = await people.slash("gamemaster", "fight", "combat set", character="Ana",
                               location="torso", marks=marks)
    told = next(m.content for m in reply.messages if "torso marks" in m.content)
    assert "none → " + "\\" * 6 in told, told  # escaped: six backslashes sent

    await Page(page).channel("fight")
    shown = page.locator("#messages .message", has_text="torso marks").last
    await shown.wait_for(timeout=WAIT_MS)
    text = await shown.inner_text()
    assert re.search(r"torso marks none → \\\\\\(?!\\)", text), text
