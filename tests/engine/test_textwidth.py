"""engine.textwidth: text measured, cut, padded and wrapped in the columns a code block shows."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st
from wcwidth import iter_graphemes, wcswidth

from engine.textwidth import cells, centre, clip, pad, split, width, wrap, wrap_items

COMBINING_ACUTE = "\u0301"
FAMILY = "👨\u200d👩\u200d👧"  # one emoji made of three joined by zero-width joiners


def test_width_counts_columns_not_characters() -> None:
    assert width("Ana") == 3
    assert width("山田太郎") == 8  # CJK: two columns each
    assert width("🐉") == 2 and width(FAMILY) == 2 and width("🇫🇷") == 2
    assert width("Zoe" + COMBINING_ACUTE) == 3  # a combining mark takes no column
    assert width("") == 0


@given(st.lists(st.sampled_from(["a", " ", "·", "…", "─", "│", "■", "é", "山", "🐉", "\u200d",
                                  COMBINING_ACUTE, "🇫", "🇷", "\r", "\n", "\x00", "\ufe0f",
                                  "\u1100", "\u1161", "\u0d4e"]), max_size=12).map("".join))
def test_width_of_any_mix_is_its_graphemes_columns(text: str) -> None:
    """Whatever shortcut width takes, a text that is not ASCII measures as its graphemes do
    (each its columns, a character a terminal cannot place one)."""
    graphemes = sum(1 if wcswidth(g) < 0 else wcswidth(g) for g in iter_graphemes(text))
    assert text.isascii() or width(text) == graphemes


def test_clip_ends_in_an_ellipsis_within_the_columns() -> None:
    assert clip("Ana", 3) == "Ana"
    assert clip("Anastasia", 5) == "Anas…"
    assert clip("山田太郎", 6) == "山田…" and width(clip("山田太郎", 6)) == 5  # 太 would be 7
    assert clip("🐉🐉🐉", 4) == "🐉…"
    assert clip("Zoe" + COMBINING_ACUTE + "lle", 4) == "Zoe" + COMBINING_ACUTE + "…"
    assert clip(FAMILY + FAMILY, 3) == FAMILY + "…"  # never half a joined emoji


def test_split_keeps_graphemes_whole() -> None:
    assert split("ab" + FAMILY + "c", 3) == ("ab", FAMILY + "c")
    assert split("e" + COMBINING_ACUTE + "x", 1) == ("e" + COMBINING_ACUTE, "x")


def test_pad_and_centre_fill_to_the_columns() -> None:
    assert pad("山田", 6) == "山田  " and width(pad("山田", 6)) == 6
    assert pad("Zoe" + COMBINING_ACUTE, 5) == "Zoe" + COMBINING_ACUTE + "  "
    assert pad("too wide", 3) == "too wide"
    assert centre("🐉", 5) == " 🐉  "
    assert centre("Ana", 8) == "  Ana   "


def test_cells_give_one_entry_per_column() -> None:
    assert cells("a山b") == ["a", "山", "", "b"]
    assert cells("e" + COMBINING_ACUTE + "🐉") == ["e" + COMBINING_ACUTE, "🐉", ""]
    assert "".join(cells(FAMILY + "!")) == FAMILY + "!" and len(cells(FAMILY + "!")) == 3


def test_wrap_breaks_at_spaces_and_cuts_nothing() -> None:
    assert wrap("Waiting for: Ana (react), Bram (act)", 20) == [
        "Waiting for: Ana", "  (react), Bram", "  (act)"]
    assert wrap("  [PCs] Garden of the Moon", 16) == ["  [PCs] Garden", "  of the Moon"]
    assert wrap("山田太郎山田太郎", 6) == ["山田太", "  郎山", "  田太", "  郎"]
    assert wrap("", 10) == [""]


def test_wrap_items_keeps_each_item_whole_where_it_fits() -> None:
    assert wrap_items("Waiting for:", ["Ana (directed: act or refuse)", "Lou (act)"], 40) == [
        "Waiting for:", "  Ana (directed: act or refuse),", "  Lou (act)"]
    assert wrap_items("Waiting for:", ["Goon (react)", "Ana (directed: act or refuse)"], 40) == [
        "Waiting for: Goon (react),", "  Ana (directed: act or refuse)"]
    assert wrap_items("Effects:", ["a b", "c d"], 40, sep=";") == ["Effects: a b; c d"]


text = st.text(alphabet="ab 山🐉" + COMBINING_ACUTE, max_size=60)


@given(text, st.integers(min_value=3, max_value=40))
def test_wrap_fits_and_keeps_every_word(t: str, columns: int) -> None:
    lines = wrap(t, columns)
    assert all(width(line) <= columns for line in lines)
    assert "".join("".join(line.split()) for line in lines) == "".join(t.split())


@given(st.text(alphabet="ab ·…─■é山\u200d" + COMBINING_ACUTE, max_size=30),
       st.integers(min_value=1, max_value=40))
def test_wrap_puts_a_text_that_fits_on_one_line_as_the_words_go(t: str, columns: int) -> None:
    """Whatever shortcut wrap takes, it breaks a line exactly where putting one word after
    another would: a text whose words fit is one line of them, else no line would take the
    next line's first word too."""
    lines = wrap(t, columns)
    lead = t[: len(t) - len(t.lstrip(" "))]
    whole = lead + " ".join(t.split())
    if width(whole) <= columns and all(width(word) <= columns for word in t.split()):
        assert lines == [whole]
    for line, after in pairwise(lines):
        words = after.split()
        if words and width(words[0]) <= columns - 2:
            assert width(f"{line} {words[0]}") > columns


@given(text, st.integers(min_value=1, max_value=40))
def test_clip_fits(t: str, columns: int) -> None:
    cut = clip(t, columns)
    assert width(cut) <= columns
    assert cut == t or (cut.endswith("…") and t.startswith(cut[:-1]))
