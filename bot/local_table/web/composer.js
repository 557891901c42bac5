// The composer, as Discord's: plain text is a message in the channel, said as the person
// chosen; "/" lists the bot's own synced slash commands (subcommands as "character
// create"), best match first, the arrow keys moving the highlight, Tab completing, Enter
// taking the highlighted one. A command typed whole with its options (`/roll level:50`)
// is sent by Enter; else Enter opens its options as fields, each as Discord shows it:
// choices and booleans as menus, users and channels as menus of the server's, autocomplete
// asked of the bot as you type. Nothing is sent that Discord's client would refuse: a bad
// value or a missing required option is said at the composer, naming the option.

import { icon } from "./icons.js";
import { el } from "./messages.js";
import { convert, flatten, ranked, read } from "./typed.js";

const TYPES = { 3: "text", 4: "integer", 5: "true/false", 6: "user", 7: "channel", 8: "role", 10: "number", 11: "file" };
const SHOWN = 25;
const HIGHLIGHT = "#404249";  // the palette's hover colour

export class Composer {
  constructor(root, table) {
    this.root = root;
    this.table = table;  // { state, channelName(), slash(command, options), say(text), autocomplete(...) }
    this.chosen = null;
    this.note = el("div", { class: "notice composer-note", role: "alert", hidden: "" });
    this.render();
  }

  commands() {
    return flatten(this.table.state.commands, this.table.state.locale);
  }

  render() {
    this.chosen = null;
    this.tell(null);
    this.list = el("ul", { class: "palette", role: "listbox", hidden: "" });
    this.entries = [];
    this.highlighted = 0;
    this.input = el("input", {
      class: "prompt", "aria-label": "Message", autocomplete: "off",
      placeholder: `Message #${this.table.channelName()}, or type / for the bot's commands`,
    });
    this.input.addEventListener("input", () => {
      this.tell(null);
      this.filter();
    });
    this.input.addEventListener("keydown", (event) => this.key(event));
    this.root.replaceChildren(this.list, this.note, el("div", { class: "composer-line" }, this.input));
  }

  // Said at the composer (null: nothing), the field concerned focused.
  tell(text, field = null) {
    this.note.textContent = text ? `⚠ ${text}` : "";
    this.note.hidden = !text;
    field?.focus();
  }

  key(event) {
    const open = !this.list.hidden && this.entries.length;
    if (event.key === "Enter") {
      event.preventDefault();
      this.enter();
    } else if (open && (event.key === "ArrowDown" || event.key === "ArrowUp")) {
      event.preventDefault();
      const count = Math.min(this.entries.length, SHOWN);
      this.highlight((this.highlighted + (event.key === "ArrowDown" ? 1 : count - 1)) % count);
    } else if (open && event.key === "Tab") {
      event.preventDefault();
      this.input.value = `/${this.entries[this.highlighted].name} `;
      this.filter();
    } else if (event.key === "Escape") {
      this.list.hidden = true;
    }
  }

  filter() {
    const text = this.input.value;
    this.entries = text.startsWith("/") ? ranked(this.commands(), read(text, this.commands()).wanted)
      : [];
    this.list.replaceChildren(...this.entries.slice(0, SHOWN).map((command) => el("li", {
      role: "option", onclick: () => this.choose(command),
    }, el("strong", {}, `/${command.name}`), " ",
    command.options.map((o) => el("span", { class: o.required ? "opt required" : "opt" }, o.name)),
    el("div", { class: "hint" }, command.description))));
    this.list.hidden = !this.entries.length;
    this.highlight(0);
  }

  highlight(index) {
    this.highlighted = index;
    [...this.list.children].forEach((item, at) => {
      item.setAttribute("aria-selected", String(at === index));
      item.style.background = at === index ? HIGHLIGHT : "";
      if (at === index) item.scrollIntoView?.({ block: "nearest" });
    });
  }

  // Enter on the line: a message, or the highlighted command sent or opened.
  enter() {
    const line = this.input.value.trim();
    if (!line) return;
    if (!line.startsWith("/")) {
      this.say(line);
      return;
    }
    const typed = read(line, this.commands());
    const picked = this.entries[this.highlighted];
    if (!picked) {
      this.tell(`No command /${typed.wanted} — type / to see the bot's commands`);
    } else if (picked.name !== typed.command?.name) {
      this.choose(picked);
    } else if (typed.problems.length) {
      this.tell(typed.problems[0]);
    } else if (!Object.keys(typed.given).length && picked.options.length) {
      this.choose(picked);
    } else {
      this.sendTyped(picked, typed.given);
    }
  }

  sendTyped(command, given) {
    const options = {};
    for (const option of command.options) {
      const { value, error } = convert(option, given[option.name], this.table.state);
      if (error) {
        this.tell(error);
        return;
      }
      if (value !== undefined) options[option.name] = value;
    }
    const missing = command.options.find((o) => o.required && !(o.name in options));
    if (missing) {
      this.choose(command, given);
      this.submit(command, this.root.querySelector("form.command"));
      return;
    }
    this.send(command, options);
  }

  async say(text) {
    this.input.value = "";
    this.list.hidden = true;
    try {
      await this.table.say(text);
    } catch (error) {
      if (!this.input.value) this.input.value = text;
      this.tell(`Not sent: ${error.message}`);
    }
  }

  send(command, options) {
    this.table.slash(command.name, options);
    this.render();
    this.input.focus();
  }

  // The command's options as fields (filled from `given`, as typed); Enter or Send runs it.
  choose(command, given = {}) {
    this.chosen = command;
    this.tell(null);
    const fields = command.options.map((option) => this.optionField(option, given[option.name]));
    const form = el("form", { class: "command", "data-command": command.name, novalidate: "" },
      el("span", { class: "command-name" }, `/${command.name}`), fields,
      el("button", { type: "submit", class: "button primary send" }, "Send"),
      el("button", {
        type: "button", class: "button linkish", "aria-label": "Close", onclick: () => this.render(),
      }, icon("close")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit(command, form);
    });
    form.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.render();  // back to the line, as the close button
    });
    this.root.replaceChildren(this.note, form);
    (form.querySelector("input, select") || form.querySelector(".send")).focus();
  }

  // The fields checked as Discord's client checks them, then sent; else the first problem
  // said and its field focused.
  submit(command, form) {
    const options = {};
    for (const option of command.options) {
      const field = form.elements[option.name];
      const { value, error } = convert(option, field.value, this.table.state);
      if (error || (value === undefined && option.required)) {
        this.tell(error || `/${command.name} needs ${option.name}: fill it in to send`, field);
        return;
      }
      if (value !== undefined) options[option.name] = value;
    }
    this.send(command, options);
  }

  optionField(option, given) {
    const state = this.table.state;
    const label = el("span", { class: "option-name" }, option.name, option.required ? "*" : "");
    const picked = convert(option, given, state).value;
    let input;
    const fixed = option.choices ? option.choices.map((c) => [c.value, c.name])
      : option.type === 5 ? [["true", "True"], ["false", "False"]]
        : option.type === 6 ? state.members.map((m) => [m.name, m.name])
          : option.type === 7 ? [...state.channels.values()].map((c) => [c.id, `#${c.name}`])
            : option.type === 8 ? Object.entries(state.roles) : null;
    if (fixed) {
      input = el("select", { name: option.name, "aria-label": option.name },
        el("option", { value: "" }, option.required ? "" : "—"),
        fixed.map(([value, text]) => el("option", {
          value, selected: picked !== undefined && String(value) === String(picked) ? "" : null,
        }, text)));
    } else {
      const list = `ac-${option.name}`;
      input = el("input", {
        name: option.name, "aria-label": option.name, list: option.autocomplete ? list : null,
        type: "text", inputmode: option.type === 4 || option.type === 10 ? "decimal" : null,
        maxlength: option.max_length, autocomplete: "off", placeholder: TYPES[option.type] || "",
        value: given ?? null,
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
    if (!form?.isConnected) return;  // sent or closed meanwhile
    const command = this.chosen;
    const options = {};
    for (const other of command.options) {
      const value = convert(other, form.elements[other.name].value, this.table.state).value;
      if (value !== undefined) options[other.name] = value;
    }
    options[option.name] = input.value;  // focused: as typed, even a number half-typed
    const choices = await this.table.autocomplete(command.name, option.name, options);
    datalist.replaceChildren(...choices.map((c) => el("option", { value: c.value }, c.name)));
  }
}
