# Quick start: `make run` plays (without DISCORD_TOKEN: the local table in a browser; with it:
# the bot on Discord), `make test` runs every test and the linters, then the bot's tests once
# more in the pseudo-locale (`make test-pseudo` alone).
# Both (re)create .venv when it is missing or older than pyproject.toml (or localdiscord's).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-pseudo lint fuzz crash bench clean screenshot catalogues

# The catalogues (gettext, with Babel; README.md's "Translating"): the template unhex.pot is
# extracted from the sources, each language's unhex.po is a translator's, and the .mo files the
# bot reads are compiled here, never committed; en_XA is the pseudo-locale, made from the
# template (bot/i18n/pseudo.py) for the tests that look for English left behind.
LOCALE := bot/locale
POT := $(LOCALE)/unhex.pot
PSEUDO_PO := $(LOCALE)/en_XA/LC_MESSAGES/unhex.po
MO := $(patsubst %.po,%.mo,$(sort $(wildcard $(LOCALE)/*/LC_MESSAGES/unhex.po) $(PSEUDO_PO)))
BUILT := $(STAMP) $(MO)

# localdiscord (the local Discord the local table and the tests use) is a project of its own.
$(STAMP): pyproject.toml localdiscord/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e ./localdiscord -e '.[test]'
	touch $(STAMP)

$(PSEUDO_PO): $(POT) $(STAMP)
	$(PY) -m bot.i18n pseudo $(POT) $@

%.mo: %.po $(STAMP)
	$(VENV)/bin/pybabel compile --statistics -i $< -o $@

# Extract the template from the sources, bring every language's catalogue up to date with it
# (new entries empty, changed ones fuzzy, for the translator), and compile them all.
catalogues: $(STAMP)
	PYTHONPATH=. $(VENV)/bin/pybabel extract -F babel.cfg -k translated -k phrase \
		-k phrase_in:1c,2 -k plural_phrase:1,2 \
		-c Translators: --add-location=file --sort-by-file --project=Unhex \
		--copyright-holder="the Unhex authors" --msgid-bugs-address="" -o $(POT) .
	$(VENV)/bin/pybabel update --ignore-obsolete -i $(POT) -d $(LOCALE) -D unhex
	$(PY) -m bot.i18n pseudo $(POT) $(PSEUDO_PO)  # (made anew: the update above touched it)
	$(MAKE) --no-print-directory $(MO)

run: $(BUILT)
	$(PY) -m bot play

lint: $(BUILT)
	$(PY) -m ruff check .
	$(PY) -m mypy

# One worker per core (pytest-xdist): the real processes' tests mostly wait, so two workers
# on two cores take about half the time of one.
test: lint
	$(PY) -m pytest -q -n auto
	$(MAKE) --no-print-directory test-pseudo

# The bot's tests (tests/bot) played once more in the pseudo-locale (tests/pseudo_run.py): every
# English text that reaches Discord is listed, grouped by sentence with the file that says it;
# the run fails if there is any, and says one line if there is none. The tests' own verdicts
# are not the judge here. (The real processes' tests, tests/localdiscord and tests/processes,
# send through no test table, so nothing of theirs would be read.)
test-pseudo: $(BUILT)
	UNHEX_PSEUDO=1 $(PY) -m pytest -q -n auto -k "not postgresql" tests/bot

# The crash test in full: the bot killed with SIGKILL 25 times in the middle of fights, on
# SQLite and on PostgreSQL (`make test` kills it 3 times on each). UNHEX_CRASH_SEED=<n> picks
# other kill points and dice; UNHEX_CRASH_ENGINES=sqlite (or postgresql) one engine.
CRASH_KILLS ?= 25
crash: $(BUILT)
	UNHEX_CRASH_KILLS=$(CRASH_KILLS) $(PY) -m pytest -q -s tests/crash

# A long, random run of the interaction fuzz (make test runs a short, repeatable one).
fuzz: $(BUILT)
	HYPOTHESIS_PROFILE=long $(PY) -m pytest -q tests/bot/test_fuzz.py

# `make bench` runs every benchmark at full size (a few minutes); `make bench BENCH_ARGS=--quick`
# only checks that they run. Each prints "ratio ..." lines against baselines from the same run.
BENCH_ARGS ?=
bench: $(BUILT)
	@for script in bench/bench_*.py; do echo "== $$script"; $(PY) $$script $(BENCH_ARGS) || exit 1; done

# docs/local-table.png: the local table's page during a fight, as the browser test plays it.
screenshot: $(BUILT)
	UNHEX_SCREENSHOT=1 $(PY) -m pytest -q tests/localdiscord/test_page.py -k "fight_through"

clean:
	rm -rf $(VENV) *.egg-info $(MO) $(dir $(PSEUDO_PO))
