// The composer: "/" lists the bot's own synced slash commands (subcommands as
// "character create"); picking one shows its options, each as Discord types it: choices and
// booleans as menus, users and channels as menus of the server's, autocomplete asked of the
// bot as you type. Enter sends it.

import { el } from "./messages.js";

const TYPES = { 3: "text", 4: "integer", 5: "true/false", 6: "user", 7: "channel", 8: "role", 10: "number", 11: "file" };

// Every command a person can type, subcommands flattened.
export function flatten(commands) {
  const out = [];
  const walk = (path, description, options) => {
    const subs = (options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) {
      out.push({ name: path.join(" "), description, options: options || [] });
      return;
    }
    for (const sub of subs) walk([...path, sub.name], sub.description, sub.options);
  };
  for (const command of commands) {
    if ((command.type || 1) === 1) walk([command.name], command.description, command.options);
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function typed(option, raw) {
  if (raw === "" || raw === undefined) return undefined;
  if (option.type === 4) return Number.parseInt(raw, 10);
  if (option.type === 10) return Number.parseFloat(raw);
  if (option.type === 5) return raw === "true";
  return raw;
}

export class Composer {
  constructor(root, table) {
    this.root = root;
    this.table = table;  // { state, channelId(), slash(command, options), autocomplete(...) }
    this.chosen = null;
    this.render();
  }

  render() {
    this.root.replaceChildren();
    this.list = el("ul", { class: "palette", role: "listbox", hidden: "" });
    this.input = el("input", {
      class: "prompt", "aria-label": "Message", autocomplete: "off",
      placeholder: `Type / for the bot's commands in #${this.table.channelName()}`,
    });
    this.input.addEventListener("input", () => this.filter());
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        const first = this.list.querySelector("li");
        if (!this.list.hidden && first) first.click();
      }
    });
    this.root.append(this.list, el("div", { class: "composer-line" }, this.input));
  }

  filter() {
    const text = this.input.value;
    if (!text.startsWith("/")) {
      this.list.hidden = true;
      return;
    }
    const wanted = text.slice(1).trim().toLowerCase();
    const found = flatten(this.table.state.commands).filter((c) => c.name.startsWith(wanted)
      || c.name.includes(wanted));
    this.list.replaceChildren(...found.slice(0, 25).map((command) => el("li", {
      role: "option", onclick: () => this.choose(command),
    }, el("strong", {}, `/${command.name}`), " ",
    command.options.map((o) => el("span", { class: o.required ? "opt required" : "opt" }, o.name)),
    el("div", { class: "hint" }, command.description))));
    this.list.hidden = !found.length;
  }

  // The command's options as fields; Enter or Send runs it.
  choose(command) {
    this.chosen = command;
    this.list.hidden = true;
    const fields = command.options.map((option) => this.optionField(option));
    const form = el("form", { class: "command", "data-command": command.name },
      el("span", { class: "command-name" }, `/${command.name}`), fields,
      el("button", { type: "submit", class: "button primary send" }, "Send"),
      el("button", { type: "button", class: "button linkish", onclick: () => this.render() }, "✕"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const options = {};
      for (const option of command.options) {
        const value = typed(option, form.elements[option.name].value);
        if (value !== undefined) options[option.name] = value;
      }
      this.table.slash(command.name, options);
      this.render();
    });
    this.root.replaceChildren(form);
    (form.querySelector("input, select") || form.querySelector(".send")).focus();
  }

  optionField(option) {
    const state = this.table.state;
    const label = el("span", { class: "option-name" }, option.name, option.required ? "*" : "");
    let input;
    const fixed = option.choices ? option.choices.map((c) => [c.value, c.name])
      : option.type === 5 ? [["true", "True"], ["false", "False"]]
        : option.type === 6 ? state.members.map((m) => [m.name, m.name])
          : option.type === 7 ? [...state.channels.values()].map((c) => [c.id, `#${c.name}`])
            : option.type === 8 ? Object.entries(state.roles) : null;
    if (fixed) {
      input = el("select", { name: option.name, "aria-label": option.name },
        el("option", { value: "" }, option.required ? "" : "—"),
        fixed.map(([value, text]) => el("option", { value }, text)));
    } else {
      const list = `ac-${option.name}`;
      input = el("input", {
        name: option.name, "aria-label": option.name, list: option.autocomplete ? list : null,
        type: option.type === 4 || option.type === 10 ? "number" : "text", autocomplete: "off",
        min: option.min_value, max: option.max_value, maxlength: option.max_length,
        placeholder: TYPES[option.type] || "",
      });
      if (option.autocomplete) {
        const datalist = el("datalist", { id: list });
        let timer = 0;
        const ask = () => this.suggest(option, input, datalist);
        input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(ask, 200); });
        input.addEventListener("focus", ask);
        return el("label", { class: "option", title: option.description }, label, input, datalist);
      }
    }
    return el("label", { class: "option", title: option.description }, label, input);
  }

  async suggest(option, input, datalist) {
    const form = input.form;
    const options = {};
    for (const other of this.chosen.options) {
      const value = typed(other, form.elements[other.name].value);
      if (value !== undefined) options[other.name] = value;
    }
    options[option.name] = input.value;  // focused: as typed, even a number half-typed
    const choices = await this.table.autocomplete(this.chosen.name, option.name, options);
    datalist.replaceChildren(...choices.map((c) => el("option", { value: c.value }, c.name)));
  }
}
