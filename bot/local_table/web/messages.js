// A message as Discord's client draws it: author, time, "(edited)", the Markdown, embeds,
// attachments, components (buttons with their styles, select menus), the "thinking" state
// and "Only you can see this" for an ephemeral answer. Forms (modals) are drawn here too.

import { render, names } from "./markdown.js";
import { icon } from "./icons.js";

const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;
const BUTTON_STYLES = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link" };

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
};
export { el };

const clock = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

function html(markup, className) {
  const node = el("div", { class: className });
  node.innerHTML = markup;
  return node;
}

function attachment(file) {
  const url = new URL(file.url).pathname;  // the server the page came from
  const isImage = (file.content_type || "").startsWith("image/");
  return el("div", { class: "attachment" },
    isImage ? el("img", { src: url, alt: file.filename }) : null,
    el("a", { href: url, download: file.filename, class: "file" },
      icon("file"), ` ${file.filename}`, el("span", { class: "size" }, ` ${file.size.toLocaleString()} bytes`)));
}

function embed(data) {
  return el("div", { class: "embed" },
    data.title ? el("div", { class: "embed-title" }, data.title) : null,
    data.description ? html(render(data.description), "embed-body") : null,
    ...(data.fields || []).map((f) => el("div", { class: "embed-field" },
      el("div", { class: "embed-name" }, f.name), html(render(f.value), "embed-value"))));
}

function button(part, message, actions) {
  const style = BUTTON_STYLES[part.style] || "secondary";
  const label = [part.emoji?.name, part.label].filter(Boolean).join(" ");
  if (part.style === 5) {
    return el("a", { class: `button ${style}`, href: part.url, target: "_blank", rel: "noopener" },
      label, " ", icon("link", "opens elsewhere"));
  }
  const node = el("button", {
    class: `button ${style}`, disabled: part.disabled ? "" : null, "data-custom-id": part.custom_id,
    onclick: () => actions.press(message, part, node),
  }, label);
  return node;
}

function menuOptions(part, state) {
  if (part.type === 3) return part.options || [];
  const users = [...state.members].map((m) => ({ label: m.name, value: m.id }));
  const channels = [...state.channels.values()].map((c) => ({ label: `#${c.name}`, value: c.id }));
  const roles = Object.entries(state.roles).map(([value, label]) => ({ label, value }));
  return { 5: users, 6: roles, 7: [...users, ...roles], 8: channels }[part.type] || [];
}

function menu(part, message, actions, state) {
  const many = (part.max_values || 1) > 1;
  const select = el("select", {
    class: "menu", disabled: part.disabled ? "" : null, multiple: many ? "" : null,
    "aria-label": part.placeholder || "Make a selection", "data-custom-id": part.custom_id,
  });
  // The bot's defaults are shown picked (e.g. the item in hand), else the placeholder.
  const options = menuOptions(part, state);
  const picked = options.some((o) => o.default);
  if (!many) {
    select.append(el("option", { value: "", selected: picked ? null : "" },
      part.placeholder || "Make a selection"));
  }
  for (const option of options) {
    select.append(el("option", {
      value: option.value, title: option.description || "", selected: option.default ? "" : null,
    }, [option.emoji?.name, option.label].filter(Boolean).join(" ")));
  }
  const send = () => {
    const values = [...select.selectedOptions].map((o) => o.value).filter(Boolean);
    if (values.length) actions.pick(message, part, values, select);
  };
  if (!many) {
    select.addEventListener("change", send);
    return select;
  }
  return el("div", { class: "multi" }, select,
    el("button", { class: "button secondary", onclick: send }, "Choose"));
}

function components(message, actions, state) {
  return (message.components || []).map((row) => el("div", { class: "row" },
    (row.components || [row]).map((part) => (part.type === 2 ? button(part, message, actions)
      : [3, 5, 6, 7, 8].includes(part.type) ? menu(part, message, actions, state)
        : part.content ? html(render(part.content), "content") : null))));
}

export function messageNode(message, actions, state) {
  const node = el("article", { class: "message", id: `m${message.id}`, "data-id": message.id });
  if (message.type === 6) {
    node.classList.add("system");
    node.append(el("span", {}, icon("pin"), " Unhex pinned a message to this channel. "),
      el("button", { class: "linkish", onclick: () => actions.showPins() }, "See all pinned messages."));
    return node;
  }
  const author = message.author || {};
  const flags = Number(message.flags || 0);
  node.append(el("header", {},
    el("span", { class: "author" }, author.global_name || author.username),
    author.bot ? el("span", { class: "tag" }, "APP") : null,
    el("time", { class: "when", title: new Date(message.timestamp).toLocaleString() },
      clock(message.timestamp)),
    message.pinned ? el("span", { class: "pinned", title: "Pinned" }, icon("pin", "Pinned")) : null));
  if (flags & LOADING) {
    node.append(el("div", { class: "thinking" }, "Unhex is thinking", el("span", { class: "dots" })));
  } else {
    const body = html(render(message.content), "content");
    if (message.edited_timestamp) body.append(el("span", { class: "edited" }, " (edited)"));
    node.append(body);
  }
  for (const data of message.embeds || []) node.append(embed(data));
  for (const file of message.attachments || []) node.append(attachment(file));
  node.append(...components(message, actions, state));
  if (flags & EPHEMERAL) {
    node.classList.add("ephemeral");
    node.append(el("div", { class: "only-you" }, icon("eye"), " Only you can see this · ",
      el("button", { class: "linkish", onclick: () => node.remove() }, "Dismiss message")));
  }
  return node;
}

// -- forms (modals) ------------------------------------------------------------------------

function field(part, label, description) {
  const id = `f-${part.custom_id}`;
  let input;
  if (part.type === 4) {
    const attrs = {
      id, name: part.custom_id, placeholder: part.placeholder || "", required: part.required === false ? null : "",
      minlength: part.min_length, maxlength: part.max_length,
    };
    input = part.style === 2 ? el("textarea", attrs, part.value || "")
      : el("input", { ...attrs, type: "text", value: part.value || "" });
  } else {
    input = el("select", { id, name: part.custom_id, multiple: (part.max_values || 1) > 1 ? "" : null },
      (part.max_values || 1) > 1 ? null : el("option", { value: "" }, part.placeholder || "Make a selection"),
      (part.options || []).map((o) => el("option", { value: o.value, selected: o.default ? "" : null }, o.label)));
  }
  return el("div", { class: "field" },
    el("label", { for: id }, label || part.label || ""),
    description ? el("div", { class: "hint" }, description) : null, input);
}

// The form the bot asked for; onSubmit(fields) with each field's custom_id, type and value.
export function modalNode(modal, onSubmit, onClose) {
  const parts = [];
  const body = el("div", { class: "modal-body" });
  for (const row of modal.components || []) {
    if (row.type === 18) {
      parts.push({ part: row.component, labelled: true });
      body.append(field(row.component, row.label, row.description));
    } else if (row.type === 10) {
      body.append(html(render(row.content), "content"));
    } else {
      for (const part of row.components || []) {
        parts.push({ part, labelled: false });
        body.append(field(part, part.label));
      }
    }
  }
  const form = el("form", { class: "modal", role: "dialog", "aria-label": modal.title },
    el("h2", {}, modal.title || ""), body,
    el("footer", {},
      el("button", { type: "button", class: "button linkish", onclick: onClose }, "Cancel"),
      el("button", { type: "submit", class: "button primary" }, "Submit")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSubmit(parts.map(({ part, labelled }) => {
      const input = form.querySelector(`[name="${CSS.escape(part.custom_id)}"]`);
      const values = input.tagName === "SELECT" ? [...input.selectedOptions].map((o) => o.value).filter(Boolean) : null;
      return { custom_id: part.custom_id, type: part.type, labelled, value: input.value, values };
    }));
  });
  return el("div", { class: "overlay", onclick: (e) => { if (e.target === e.currentTarget) onClose(); } }, form);
}

export { names };
