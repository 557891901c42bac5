"""Refusals said in their reader's language, played as a German player meets them: a button or
form the bot no longer answers, a value not among an option's choices, a fighter not in the
fight, the database away, a pasted character that is not valid, and the names of maps and
languages."""

from __future__ import annotations

from testbed.harness import ALICE, GM, Table
from testbed.seen import Modal


async def test_an_old_button_and_an_old_form_are_answered_in_the_persons_language(
    table: Table,
) -> None:
    table.locales[ALICE.id] = "de"
    table.dice(2, 9)
    await table.slash("roll", level=40)
    message = table.channel_messages()[-1]
    pressed = await table.press("combat:Ana:defend", message=message)
    assert pressed.ephemeral and pressed.content == (
        "Dieser Knopf funktioniert nicht mehr: Der Bot hat sich geändert, seit er gezeigt "
        "wurde. Nichts wurde geändert."), pressed.content
    sent = await table.submit(Modal("old-form:1", "Old", {"Text": "text"}), {"Text": "Ana -- Bo"})
    assert sent.ephemeral and sent.content.startswith(
        "Dieses Formular funktioniert nicht mehr: Der Bot hat sich geändert, seit es geöffnet "
        "wurde. Nichts wurde gespeichert. Was du eingegeben hast:\n"), sent.content
    assert "Ana -- Bo" in sent.content  # what was typed is not lost
    table.locales[GM.id] = "en-US"
    english = await table.press("combat:Ana:defend", message=message, user=GM)
    assert english.content.startswith("That button no longer works"), english.content
