"""BoardEditor in a real browser (tests/browser.py: Voila on 127.0.0.1, Debian's Chromium).

Through Voila (tests/notebooks/board_editor_demo.ipynb, which also shows ``repr(editor.board)`` as
Python sees it): a ladder added with the mouse and another with the keyboard, the numbers shown
against the library's ``expected_turns`` for that board, the Python mirror following; a chained
jump refused with Board's ValueError text, word for word; undo; axe-core finds no serious or
critical WCAG 2.1 A/AA violation in the editor.

With no kernel at all (what the course website does): a page served from memory by Playwright
(every other request is refused: no network; each of the editor's modules is served as its own
file, as a browser imports them) mounts the editor with ``mount(el, {board, presets, syncHash:
true})``; the board in the page's address opens, and an edit is written back to it. Then issue
27's checks: crafted addresses (huge sizes, a megabyte of text, junk, unicode, repeated and
unknown fields) leave the 1943 board working with one line of words; a click on the centre of
every free square of the 1943 board picks that square; the size box, the "custom board" entry,
the visible copy confirmation, the skip link and the wrapping line of Python; the expected length
in view beside each control at 1366x800 and 390x844; square numbers of 10 px or none; old numbers
marked while new ones are computed.

Slow boards (1,000 squares, a die of 1,000 faces, a board whose distribution the library
refuses) opened through the address: the answer is the library's and comes in slices, the page
given back between them (tests/browser.py ``pauses``). No test here times anything: the issue's
budget (no task over 50 ms on the page's thread, an answer within 1 s for boards up to 1,000
squares) and the edit-to-settled medians are ``make bench``'s (benchmarks/bench_widgets.py,
benchmarks/bench_editor.py). Screenshots are kept in tests/artifacts/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from chutes_edu import MILTON_BRADLEY_1943, Board, expected_turns
from chutes_edu.plots.board import square_center
from chutes_edu.widgets.board_editor import FRONT_END, board_to_json, presets_json

from . import browser

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "tests" / "notebooks" / "board_editor_demo.ipynb"
ARTIFACTS = ROOT / "tests" / "artifacts"
PAGE_TIMEOUT = 180_000   # ms for the kernel to start and the widget to appear
UPDATE_TIMEOUT = 120_000  # ms, a hang guard: the page (and the kernel's mirror) follow an edit

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]




def _turns(board: Board) -> str:
    return f"{float(expected_turns(board)[0]):.4f}"


def _above(square: int, size: int) -> int:
    """The square drawn right above ``square`` (draw_board's geometry)."""
    x, y = square_center(square, size)
    return next(s for s in range(1, size + 1) if square_center(s, size) == (x, y + 1))


def _click_square(page: Any, square: int) -> None:
    page.mouse.click(*browser.square_point(page, square))


# The screen point of a jump's end handle.
_HANDLE_POINT = """([source, end]) => {
  const el = document.querySelector(
    `.chutes-editor .handle[data-source="${source}"][data-end="${end}"]`);
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""


def _drag_end(page: Any, source: int, square: int) -> None:
    """Drag the destination end of the jump from ``source`` onto ``square``, with the mouse."""
    page.mouse.move(*page.evaluate(_HANDLE_POINT, [source, "destination"]))
    page.mouse.down()
    x, y = browser.square_point(page, square)
    page.mouse.move(x, y, steps=8)
    page.mouse.up()


def _refusal(build: Any) -> str:
    with pytest.raises(ValueError) as error:
        build()
    return str(error.value)


voila_url = browser.voila_fixture(NOTEBOOK)


def test_edit_with_mouse_and_keyboard_in_voila(voila_url):
    from playwright.sync_api import expect

    mb = MILTON_BRADLEY_1943
    mouse = mb.with_jump(30, 35)
    up = _above(2, 100)
    keys = mouse.with_jump(2, up)
    chained = _refusal(lambda: Board([*keys.jumps.items(), (3, 4)], size=100))
    ARTIFACTS.mkdir(exist_ok=True)
    with browser.chromium() as chromium:
        page = browser.open_voila(chromium, voila_url, [], viewport=(1200, 1000))
        editor = page.locator(".chutes-editor")
        readout = editor.locator(".chutes-editor-readout")
        mirror = page.locator(".python-mirror")
        message = editor.locator(".chutes-editor-message")
        live = editor.locator("[aria-live=polite]")
        expect(readout).to_contain_text(_turns(mb), timeout=PAGE_TIMEOUT)
        expect(mirror).to_contain_text(repr(mb))
        expect(message).to_have_text("")
        # in JupyterLab no key pressed in the editor may run a notebook shortcut (a letter would
        # add or change a cell)
        assert editor.evaluate(browser.OUTSIDE_LAB_KEYS) == []

        # a ladder with the mouse: click a square, then another
        _click_square(page, 30)
        _click_square(page, 35)
        expect(readout).to_contain_text(_turns(mouse), timeout=UPDATE_TIMEOUT)
        expect(live).to_contain_text("ladder 30 to 35 added: expected length")
        expect(mirror).to_contain_text(repr(mouse), timeout=UPDATE_TIMEOUT)

        # a ladder with the keyboard: Home, right twice (square 2), Enter, up, Enter
        board = editor.locator("svg.chutes-editor-board")
        board.focus()
        for key in ["Home", "ArrowRight", "ArrowRight", "Enter", "ArrowUp", "Enter"]:
            board.press(key)
        expect(readout).to_contain_text(_turns(keys), timeout=UPDATE_TIMEOUT)
        was = float(expected_turns(mouse)[0])
        now = float(expected_turns(keys)[0])
        expect(live).to_have_text(f"ladder 2 to {up} added: expected length {now:.1f} turns, "
                                  f"was {was:.1f}")
        expect(editor.locator(".chutes-editor-change")).to_contain_text(f"ladder 2 to {up} added")
        expect(mirror).to_contain_text(repr(keys), timeout=UPDATE_TIMEOUT)
        expect(editor.locator(".chutes-editor-python")).to_have_value(
            f"Board({{{', '.join(f'{a}: {b}' for a, b in keys.jumps.items())}}}, size=100, "
            "die=6, overshoot='stay')")

        # a chained jump (3 onto the source of 4->14): refused in Board's words, board unchanged
        for key in ["Home", "ArrowRight", "ArrowRight", "ArrowRight", "Enter", "ArrowRight",
                    "Enter"]:
            board.press(key)
        expect(message).to_have_text(chained)
        expect(readout).to_contain_text(_turns(keys))
        page.screenshot(path=str(ARTIFACTS / "browser_board_editor.png"), full_page=True)
        editor.screenshot(path=str(ARTIFACTS / "browser_board_editor_only.png"))
        expect(mirror).to_contain_text(repr(keys))

        # undo (Ctrl+Z) takes the keyboard's ladder away, in the page and in Python
        board.press("Control+z")
        expect(readout).to_contain_text(_turns(mouse), timeout=UPDATE_TIMEOUT)
        expect(live).to_contain_text(f"undone: ladder 2 to {up} added")
        expect(mirror).to_contain_text(repr(mouse), timeout=UPDATE_TIMEOUT)
        expect(message).to_have_text("")

        violations = browser.axe_violations(page, context="document.querySelector('.chutes-editor')")
        assert not violations, browser.describe_violations(violations)
        assert "Traceback" not in page.content()


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Board editor, no kernel</title>
<link rel="stylesheet" href="/explorer.css"></head>
<body><main><h1>Board editor</h1><div id="editor"></div></main>
<script type="module">
import { mount } from "/explorers/board_editor/board_editor.js";
const presets = %s;
window.editor = mount(document.getElementById("editor"),
  { board: presets["Milton Bradley 1943"], name: "Milton Bradley 1943", presets, syncHash: true });
</script></body></html>"""


def _serve(page: Any, refused: list[str]) -> None:
    """The editor's page with no kernel at http://editor.test/ (:func:`browser.serve_page`);
    every other URL refused and noted."""
    browser.serve_page(page, "editor.test", refused, css=FRONT_END.style_source(),
                       html=_PAGE % json.dumps(presets_json()))


def test_mount_with_no_kernel_keeps_the_board_in_the_address():
    from playwright.sync_api import expect

    opened = Board({5: 12, 14: 3}, size=30)
    trapped = opened.replace(traps=[11])
    moved = trapped.without_jump(5).with_jump(5, 20)
    removed = moved.without_jump(14)
    refused: list[str] = []
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1100, "height": 1000})
        _serve(page, refused)
        page.goto("http://editor.test/#board=s30-d6-stay-j5.12,14.3", timeout=60_000)
        editor = page.locator(".chutes-editor")
        readout = editor.locator(".chutes-editor-readout")
        expect(readout).to_contain_text(_turns(opened), timeout=UPDATE_TIMEOUT)
        board = editor.locator("svg.chutes-editor-board")
        board.focus()
        for key in ["Home", "ArrowRight", "ArrowUp", "ArrowRight", "t"]:   # 0, 1, 12, 11: trap
            board.press(key)
        expect(readout).to_contain_text(_turns(trapped), timeout=UPDATE_TIMEOUT)
        assert page.evaluate("location.hash") == "#board=s30-d6-stay-j5.12,14.3-t11"
        assert page.evaluate("window.editor.board().traps") == [11]
        expect(editor.locator(".chutes-editor-edge")).to_contain_text("not computed on a board "
                                                                      "with traps")
        # drag the end of 5->12 onto 14, the source of 14->3: refused in Board's words, and
        # the ladder snaps back; then onto 20: moved
        chained = _refusal(lambda: Board([(14, 3), (5, 14)], size=30))
        _drag_end(page, 5, 14)
        expect(editor.locator(".chutes-editor-message")).to_have_text(chained)
        assert page.evaluate("window.editor.board().jumps") == [[5, 12], [14, 3]]
        _drag_end(page, 5, 20)
        expect(readout).to_contain_text(_turns(moved), timeout=UPDATE_TIMEOUT)
        expect(editor.locator(".chutes-editor-message")).to_have_text("")
        # click the dot at the chute's start to select it, Delete removes it
        page.mouse.click(*page.evaluate(_HANDLE_POINT, [14, "source"]))
        expect(editor.locator(".chutes-editor-delete")).to_have_text("delete jump 14 to 3")
        board.press("Delete")
        expect(readout).to_contain_text(_turns(removed), timeout=UPDATE_TIMEOUT)
        # a board set on the model (what Python's `editor.board = ...` does) is drawn
        tiny = Board({3: 7}, size=10, die=3)
        page.evaluate("""board => { const m = window.editor.model;
          m.set("board_json", board); m.set("board_name", "tiny"); m.save_changes(); }""",
                      board_to_json(tiny))
        expect(readout).to_contain_text(_turns(tiny), timeout=UPDATE_TIMEOUT)
        expect(editor.locator("[aria-live=polite]")).to_contain_text("board set from Python")
        expect(editor.locator(".chutes-editor-title")).to_have_text("Board editor: tiny")
        assert editor.locator("rect.cell").count() == 11
        # the reset menu has the named boards; resetting leaves the address with that board
        editor.locator("select").first.select_option("Milton Bradley 1943")
        editor.get_by_role("button", name="reset to this board").click()
        expect(readout).to_contain_text(_turns(MILTON_BRADLEY_1943), timeout=UPDATE_TIMEOUT)
        assert page.evaluate("location.hash").startswith("#board=s100-d6-stay-j1.38,4.14,")
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)
        page.screenshot(path=str(ARTIFACTS / "browser_board_editor_mount.png"), full_page=True)
    assert not [u for u in refused if "favicon" not in u], refused


# --------------------------------------------------------------------------- issue 27's pages
_DIE_2 = "s100-d2-stay-j" + ",".join(f"{s}.0" for s in range(3, 42, 2))
_LINKS = [
    "s1000000000-d6-stay", "s100000000-d6-stay", "s1001-d6-stay", "s100-d1000000-stay",
    "s100-d6-warp", "s100-d6-stay-s50", "s100-d6-stay-j5.5", "%E0%A4%A", "💥🎲\u202e<b>x</b>",
    "j" + "1.2," * 250_000 + "1.2", "x" * (1 << 20), "-", "s2-d6-stay-t0",
]
_SETTLED_OR_REFUSED = """() => {
  const e = document.querySelector('.chutes-editor');
  if (!e) return false;
  const pending = e.querySelector('.chutes-editor-pending').textContent;
  const readout = e.querySelector('.chutes-editor-readout').textContent;
  return !pending && /turns/.test(readout);
}"""


def _open(page: Any, hash_: str = "", refused: list[str] | None = None) -> Any:
    """The no-kernel page at ``#board=hash_`` (the 1943 board without one), settled."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _serve(page, [] if refused is None else refused)
    page.goto(f"http://editor.test/{'#board=' + hash_ if hash_ else ''}", timeout=60_000)
    page.wait_for_function(_SETTLED_OR_REFUSED, timeout=UPDATE_TIMEOUT)
    page.__dict__["_chutes_errors"] = errors
    return page.locator(".chutes-editor")


@pytest.mark.parametrize("link", _LINKS, ids=[f"link{i}" for i in range(len(_LINKS))])
def test_any_address_leaves_a_working_editor_and_a_refusal_in_words(link: str) -> None:
    from playwright.sync_api import expect

    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1100, "height": 900})
        editor = _open(page, link)
        message = editor.locator(".chutes-editor-message")
        expect(message).to_contain_text("the page address holds")
        words = message.text_content() or ""
        assert "\n" not in words and len(words) <= 400, words[:500]
        if link == "s100-d6-warp":
            assert "unknown field 'warp'" in words and "repeat" not in words, words
        # the board it had (the page's 1943 board), drawn and working
        expect(editor.locator(".chutes-editor-readout")).to_contain_text(_turns(MILTON_BRADLEY_1943))
        assert editor.locator("rect.cell").count() == 101
        board = editor.locator("svg.chutes-editor-board")
        board.focus()
        for key in ["Home", "ArrowRight", "ArrowRight", "t"]:    # square 2 becomes a trap
            board.press(key)
        expect(editor.locator(".chutes-editor-readout")).to_contain_text(
            _turns(MILTON_BRADLEY_1943.replace(traps=[2])), timeout=UPDATE_TIMEOUT)
        assert page.__dict__["_chutes_errors"] == []


def test_a_click_on_the_centre_of_every_free_square_picks_it() -> None:
    from playwright.sync_api import expect

    mb = MILTON_BRADLEY_1943
    free = [s for s in range(mb.size + 1) if s not in mb.jumps]
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1366, "height": 800})
        editor = _open(page)
        cursor = editor.locator(".chutes-editor-cursor")
        missed = []
        for square in free:
            point = page.evaluate("""sq => {
              const cell = document.querySelector(`.chutes-editor rect.cell[data-square="${sq}"]`);
              cell.scrollIntoView({block: "center"});
              const r = cell.getBoundingClientRect();
              return [r.left + r.width / 2, r.top + r.height / 2];
            }""", square)
            page.mouse.click(*point)
            words = cursor.text_content() or ""
            if not words.startswith(f"Cursor: square {square}") or "a click here cancels" not in words:
                missed.append((square, words))
            page.mouse.click(*point)                          # the same square: cancelled
        assert not missed, missed[:5]
        expect(editor.locator(".chutes-editor-message")).to_have_text("")
        assert page.evaluate("window.editor.board().jumps") == [list(j) for j in mb.jumps.items()]
        words = cursor.text_content() or ""
        assert "Enter" not in words and "Escape" not in words


def test_size_menu_copy_skip_link_and_python_line() -> None:
    from playwright.sync_api import expect

    mb = MILTON_BRADLEY_1943
    smaller = Board({a: b for a, b in mb.jumps.items() if a < 60 and b <= 60}, size=60)
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1366, "height": 800})
        editor = _open(page)
        readout = editor.locator(".chutes-editor-readout")
        menu = editor.locator("select").first
        # the board's size: a number box with a name, within the limits
        size = editor.get_by_role("spinbutton", name="squares on the board")
        assert size.get_attribute("max") == "1000" and size.get_attribute("min") == "2"
        size.fill("60")
        size.press("Enter")
        expect(readout).to_contain_text(_turns(smaller), timeout=UPDATE_TIMEOUT)
        assert editor.locator("rect.cell").count() == 61
        expect(editor.locator(".chutes-editor-change")).to_contain_text("taken off with the squares past 60")
        # the menu says the board is the student's own, then the name again after undo
        assert menu.evaluate("m => m.selectedOptions[0].textContent") == "custom board (your edits)"
        expect(editor.get_by_role("button", name="reset to this board")).to_be_disabled()
        size.fill("5000")
        size.press("Enter")
        expect(editor.locator(".chutes-editor-message")).to_contain_text("from 2 to 1000, not 5000")
        assert size.input_value() == "60"
        editor.get_by_role("button", name="undo").click()
        expect(readout).to_contain_text(_turns(mb), timeout=UPDATE_TIMEOUT)
        assert menu.evaluate("m => m.selectedOptions[0].textContent") == "Milton Bradley 1943"
        # copying says so on the page, not only to a screen reader
        editor.get_by_role("button", name="copy the line").click()
        copied = editor.locator(".chutes-editor-copied")
        expect(copied).to_be_visible()
        # (headless Chromium may keep the clipboard to itself: then the line is selected and
        # the page says how to copy it)
        expect(copied).to_have_text(re.compile(r"^(Copied the line of Python\.|Could not reach "
                                               r"the clipboard: the line of Python is selected)"))
        # the line of Python is all in view: it wraps (or scrolls), never clipped
        python = editor.locator(".chutes-editor-python")
        assert python.evaluate("t => t.scrollWidth <= t.clientWidth + 1")
        assert python.evaluate("t => t.scrollHeight <= t.clientHeight + 1 || "
                               "getComputedStyle(t).overflowY === 'auto'")
        # the skip link: the first Tab stop of the editor, to the board
        page.evaluate("document.activeElement.blur()")
        page.locator("h1").click()
        page.keyboard.press("Tab")
        expect(editor.locator(".chutes-editor-skip")).to_be_focused()
        expect(editor.locator(".chutes-editor-skip")).to_be_visible()
        page.keyboard.press("Enter")
        expect(editor.locator("svg.chutes-editor-board")).to_be_focused()
        violations = browser.axe_violations(page)
        assert not violations, browser.describe_violations(violations)


@pytest.mark.parametrize("width, height", [(1366, 800), (390, 844)])
def test_the_expected_length_stays_in_view_beside_the_controls(width: int, height: int) -> None:
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": width, "height": height})
        editor = _open(page)
        for control in [".chutes-editor-die input", ".chutes-editor-size input",
                        ".chutes-editor-rules", ".chutes-editor-buttons"]:
            editor.locator(control).scroll_into_view_if_needed()
            boxes = page.evaluate("""selector => [selector, '.chutes-editor-readout',
                '.chutes-editor-change'].map(s => {
                  const r = document.querySelector(s).getBoundingClientRect();
                  return [r.left, r.top, r.right, r.bottom]; })""", f".chutes-editor {control}")
            for left, top, right, bottom in boxes:
                assert 0 <= top and bottom <= height and 0 <= left and right <= width, (control, boxes)
        page.screenshot(path=str(ARTIFACTS / f"browser_board_editor_{width}x{height}.png"))


def test_square_numbers_are_10px_or_left_out() -> None:
    with browser.chromium() as chromium:
        for width, link in [(1366, "s1000-d6-stay"), (390, "s400-d6-stay"), (1366, "s400-d6-stay"),
                            (1366, "")]:
            page = chromium.new_page(viewport={"width": width, "height": 900})
            editor = _open(page, link)
            shown = editor.locator("svg.chutes-editor-board .numbers").evaluate(
                "g => getComputedStyle(g).display !== 'none'")
            if shown:
                height = editor.locator("text.number").nth(7).evaluate(
                    "t => t.getBoundingClientRect().height")
                assert height >= 10, (width, link, height)
            else:
                assert editor.locator("rect.cell title").nth(7).text_content() == "square 7"
            if width == 1366 and link != "s1000-d6-stay":
                assert shown, link                  # 100 and 400 squares keep their numbers
            page.close()


_BIG = "s1000-d6-stay-j" + ",".join(
    f"{a}.{b}" for a, b in sorted([*((s, s - 45) for s in range(50, 1000, 50)),
                                   *((s, s + 30) for s in range(27, 980, 100)), (999, 1)]))
_SLOW = {"1000 squares with chutes": (_BIG, Board(dict([*((s, s - 45) for s in range(50, 1000, 50)),
                                                         *((s, s + 30) for s in range(27, 980, 100)),
                                                         (999, 1)]), size=1000)),
         "die of 1000 faces": ("s100-d1000-stay", Board(size=100, die=1000)),
         "die 2, chutes to 0": (_DIE_2, Board({s: 0 for s in range(3, 42, 2)}, size=100, die=2))}


@pytest.mark.parametrize("name", list(_SLOW))
def test_a_slow_board_is_answered_in_slices(name: str) -> None:
    """A big or slow board opened through the address: the answer comes in slices, the page
    given back between them (a distribution the library refuses is refused at once), and its
    numbers are the library's. No clock: the times are make bench's (a hang guard only)."""
    from playwright.sync_api import expect

    link, board = _SLOW[name]
    want = _turns(board)
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1366, "height": 800})
        browser.hold_slices(page, hold=False)                   # count the pauses only
        editor = _open(page)
        before = browser.pauses(page)
        page.evaluate("hash => { location.hash = hash; }", "#board=" + link)
        readout = editor.locator(".chutes-editor-readout")
        expect(readout).to_contain_text(want, timeout=browser.HANG_MS)
        expect(editor.locator(".chutes-editor-pending")).to_have_text("",
                                                                    timeout=browser.HANG_MS)
        expect(editor.locator(".chutes-editor-message")).to_have_text("")
        if name == "die 2, chutes to 0":                # the library refuses the distribution
            expect(editor.locator(".chutes-editor-lengths")).to_contain_text("not shown")
        else:                                           # work enough for many slices
            assert browser.pauses(page) - before >= 2, name   # the page was given back
        assert not page.__dict__["_chutes_errors"], page.__dict__["_chutes_errors"]


def test_while_an_answer_is_computed_the_old_numbers_stay_marked() -> None:
    """A 1000-square board through the address: right after the edit the readout still shows
    the 1943 board's numbers, marked out of date, and a polite status says the answer is being
    computed; then the new numbers replace them, unmarked."""
    from playwright.sync_api import expect

    big = _SLOW["1000 squares with chutes"][1]
    with browser.chromium() as chromium:
        page = chromium.new_page(viewport={"width": 1366, "height": 800})
        editor = _open(page)
        seen = page.evaluate("""async hash => {
          location.hash = hash;
          await new Promise((resolve) => window.addEventListener('hashchange', resolve,
                                                                 {once: true}));
          const e = document.querySelector('.chutes-editor');
          const readout = e.querySelector('.chutes-editor-readout');
          return {readout: readout.textContent, stale: readout.classList.contains('chutes-editor-stale'),
                  pending: e.querySelector('.chutes-editor-pending').textContent,
                  role: e.querySelector('.chutes-editor-pending').getAttribute('role'),
                  after: getComputedStyle(readout, '::after').content,
                  cells: e.querySelectorAll('rect.cell').length};
        }""", "#board=" + _BIG)
        assert _turns(MILTON_BRADLEY_1943) in seen["readout"], seen
        assert seen["stale"] and "out of date" in seen["after"], seen
        assert seen["pending"].startswith("Computing the answers for this board…"), seen
        assert seen["role"] == "status" and seen["cells"] == 1001, seen
        readout = editor.locator(".chutes-editor-readout")
        expect(readout).to_contain_text(_turns(big), timeout=120_000)
        expect(editor.locator(".chutes-editor-pending")).to_have_text("")
        assert "chutes-editor-stale" not in (readout.get_attribute("class") or "")
