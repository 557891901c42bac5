"""What a test reads of the table (testbed/harness.py): a message as a user sees it now, a
modal the bot opened, and a :class:`Reply`, everything the bot did in answer to one
interaction. On a pseudo-locale table (testbed/pseudo.py) each is shown in English."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.i18n.pseudo import plain_text
from testbed.pseudo import english_view, watching

__all__ = ["EPHEMERAL", "Button", "Message", "Modal", "Reply", "message_of", "modal_of"]

EPHEMERAL = 1 << 6


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    disabled: bool = False
    style: int = 1


@dataclass(frozen=True)
class Message:
    """A message as a user sees it now."""

    id: int
    channel_id: int
    content: str
    ephemeral: bool
    components: tuple[dict[str, Any], ...]
    embeds: tuple[dict[str, Any], ...] = ()
    allowed_mentions: dict[str, Any] | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def buttons(self) -> list[Button]:
        found = []
        for row in self.components:
            for c in row.get("components", []):
                if c.get("type") == 2 and "custom_id" in c:
                    found.append(Button(c.get("label", ""), c["custom_id"],
                                        c.get("disabled", False), c.get("style", 1)))
        return found

    @property
    def labels(self) -> list[str]:
        return [b.label for b in self.buttons]

    def button(self, label: str) -> Button:
        for b in self.buttons:
            if b.label == label:
                return b
        raise AssertionError(f"no button {label!r} on message; buttons: {self.labels}")

    @property
    def files(self) -> dict[str, str]:
        """The text of each file attached, by file name."""
        shown = plain_text if watching() is not None else str
        return {a["filename"]: shown(a["data"].decode())
                for a in self.raw.get("attachments") or ()}

    def selects(self) -> list[dict[str, Any]]:
        return [c for row in self.components for c in row.get("components", [])
                if c.get("type") in (3, 5, 6, 7, 8)]


@dataclass(frozen=True)
class Modal:
    custom_id: str
    title: str
    fields: dict[str, str]  # label -> custom_id of each text input
    #: label -> (custom_id, the values it offers) of each select menu in a labelled row
    menus: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    #: label -> what the form says of that field: its labelled row's description, then its
    #: placeholder (each there is)
    notes: dict[str, list[str]] = field(default_factory=dict)
    labelled: set[str] = field(default_factory=set)  # the text inputs in labelled rows

    def field_component(self, label: str, value: str) -> dict[str, Any]:
        """The submitted component for ``value`` in the field or menu labelled ``label``."""
        if label in self.menus:
            custom_id, offered = self.menus[label]
            assert value in offered, f"{label!r} offers {offered}, not {value!r}"
            return {"type": 18, "component": {"type": 3, "custom_id": custom_id,
                                              "values": [value]}}
        typed = {"type": 4, "custom_id": self.fields[label], "value": value}
        if label in self.labelled:
            return {"type": 18, "component": typed}
        return {"type": 1, "components": [typed]}


@dataclass
class Reply:
    """What the bot did in answer to one interaction."""

    kind: str | None = None  # "message", "update", "modal", "autocomplete", "defer", ...
    messages: list[Message] = field(default_factory=list)  # created or edited, in order
    modal: Modal | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)

    @property
    def message(self) -> Message:
        """The last message this interaction created or edited."""
        assert self.messages, f"the bot sent no message (reply kind {self.kind})"
        return self.messages[-1]

    @property
    def content(self) -> str:
        return self.message.content

    @property
    def answer(self) -> Message:
        """The first message: the interaction's own response (later ones are what the bot
        posted or edited because of it, such as a fight's board and buttons)."""
        assert self.messages, f"the bot sent no message (reply kind {self.kind})"
        return self.messages[0]

    @property
    def said(self) -> str:
        """What the answer says happened: a press answered on the prompt it pressed quotes
        that prompt's question first ("> …"), then what happened."""
        lines = self.answer.content.split("\n")
        while len(lines) > 1 and lines[0].startswith("> "):
            lines.pop(0)
        return "\n".join(lines)

    @property
    def prompt(self) -> Message:
        """The last message with buttons among those sent or edited."""
        for m in reversed(self.messages):
            if m.buttons:
                return m
        raise AssertionError(f"no buttons in: {[m.content for m in self.messages]}")

    def posted(self, text: str) -> Message:
        """The message among those sent or edited that contains ``text``."""
        for m in self.messages:
            if text in m.content:
                return m
        raise AssertionError(f"no message with {text!r}: {[m.content for m in self.messages]}")

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral


def modal_of(data: dict[str, Any]) -> Modal:
    """A modal as the bot sent it: its text inputs and the menus of its labelled rows."""
    modal = Modal(data["custom_id"], data.get("title", ""), {})
    for row in data.get("components", []):
        for c in row.get("components") or [row.get("component")]:
            label = row.get("label") or c.get("label", "")
            modal.notes[label] = [text for text in (row.get("description"),
                                                    c.get("placeholder")) if text]
            if c.get("type") == 4:
                modal.fields[label] = c["custom_id"]
                if row.get("type") == 18:
                    modal.labelled.add(label)
            elif c.get("type") == 3:
                modal.menus[label] = (c["custom_id"], [o["value"] for o in c["options"]])
    return modal


def message_of(raw: dict[str, Any]) -> Message:
    """A message as a test reads it: in English when the table plays in the pseudo-locale
    (its ``raw`` as the bot sent it, to send back)."""
    shown = raw if watching() is None else english_view(raw)
    return Message(
        id=int(raw["id"]), channel_id=int(raw["channel_id"]),
        content=shown.get("content") or "",
        ephemeral=bool(int(raw.get("flags") or 0) & EPHEMERAL),
        components=tuple(shown.get("components") or ()),
        embeds=tuple(shown.get("embeds") or ()),
        allowed_mentions=raw.get("allowed_mentions"), raw=dict(raw),
    )
