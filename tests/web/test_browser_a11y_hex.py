"""Issue 19, points 3 and 4 on Frigate's hex map and Naval Warfare's sea, in a real Chromium: the map's
keyboard cursor (arrows hex by hex, the hex read out at once, Enter as a click on it, Escape puts the
ship down, the focus kept on the map), and the chosen ship's outline and the cursor standing 3:1 or more
against every hex and sea colour.

Fixtures (a real server process, Debian's Chromium) come from tests/web/test_browser.py.
"""

from __future__ import annotations

from tests.web import test_browser as shared
from tests.web.test_browser import create_game, game_detail, open_game, play_by_api, settle
from tests.web.test_browser_a11y import contrast, wcag_findings
from tests.web.test_browser_frigate import DIRECTIONS, ahead_of, ship_at

server, browser, page = shared.server, shared.browser, shared.page

SEED = 1  # the duel: Constitution moves first in the first segment


def to_the_first_movement(server, game_id: str, token: str) -> dict:
    """The duel by HTTP up to the first ship's first point of movement: fighting sail, the largest
    Movement Allowance declared, the first order of movers, every fire window held."""
    for _ in range(60):
        view = game_detail(server, game_id, token)["view"]
        for seat in view["to_act"]:
            texts = [a["text"] for group in view["legal"].get(seat) or [] for a in group["actions"]]
            if any(text.startswith("move ") for text in texts):
                return view
            if texts:
                declared = [text for text in texts if text.startswith("declare ")]
                chosen = (
                    max(declared, key=lambda text: int(text.split()[2]))
                    if declared
                    else next((t for t in texts if t.startswith(("hold ", "sail "))), texts[0])
                )
                play_by_api(server, game_id, token, seat, chosen)
                break
    raise AssertionError("no movement reached")


def cursor_hex(page) -> str | None:
    return (
        page.get_attribute(".board-svg .cursor", "data-cursor") if page.locator(".board-svg .cursor").count() else None
    )


def cursor_to(page, target: str) -> str:
    """The arrow keys from the cursor's hex to `target`: along the row, then up or down the column; each
    hex is read out the moment the cursor reaches it. Returns what was said of `target`."""
    at = cursor_hex(page)
    columns, rows = int(target[:2]) - int(at[:2]), int(target[2:]) - int(at[2:])
    across = ["ArrowRight" if columns > 0 else "ArrowLeft"] * abs(columns)
    keys = across + ["ArrowDown" if rows > 0 else "ArrowUp"] * abs(rows)
    for key in keys:
        page.keyboard.press(key)
        now = cursor_hex(page)
        assert page.inner_text("#cursor-line").startswith(f"{now}: "), (now, page.inner_text("#cursor-line"))
    assert cursor_hex(page) == target
    return page.inner_text("#cursor-line")


def wait_for_ship(page, name: str, key: str, value: str) -> None:
    """Until the map shows ship `name` with data-`key` `value` (her hex, her facing)."""
    page.wait_for_function(
        "([name, key, value]) => document.querySelector(`.board-svg .ship[data-piece='${name}']`)"
        "?.dataset[key] === value",
        arg=[name, key, value],
    )


def board_has_focus(page) -> bool:
    return page.evaluate("document.activeElement.classList.contains('board')")


def test_a_frigate_turn_played_with_the_hex_cursor_alone(page, server):
    """The duel at one screen, at the first ship's movement: B goes to the map, an arrow puts the cursor on
    the ship to move (her words read out), Enter chooses her, the arrows take the cursor to the hex off her
    bow (read out with the turn Enter takes there) and Enter turns her, then to the hex ahead and Enter
    sails her there; the map keeps the focus after each, and Escape puts a chosen ship down."""
    created = create_game(server, "frigate", "local", scenario="frigate-duel", seed=SEED)
    game_id, token = created["id"], created["token"]
    view = to_the_first_movement(server, game_id, token)
    seat = next(s for s in view["to_act"] if view["legal"].get(s))
    name = next(g["piece"] for g in view["legal"][seat] if any(a["text"].startswith("move ") for a in g["actions"]))
    open_game(page, server, game_id, token, ready=".board-svg.hex-map")
    assert "the arrow keys move the cursor (its hex is read out)" in page.inner_text("#keys-help")

    page.keyboard.press("b")
    assert board_has_focus(page)
    page.keyboard.press("ArrowUp")  # the first press puts the cursor on a ship that may act
    ship = ship_at(page, name)
    at, facing = ship.get_attribute("data-hex"), ship.get_attribute("data-facing")
    assert cursor_hex(page) == at
    line = page.inner_text("#cursor-line")
    assert line.startswith(f"{at}: {name}, {seat}; ") and f"at {at} facing {facing}" in line
    assert line.endswith(f"Enter: choose {name}.")
    # A step off the ship and back: the hex beside her is read out, then hers again.
    page.keyboard.press("ArrowRight")
    assert cursor_hex(page) != at and page.inner_text("#cursor-line").startswith(f"{cursor_hex(page)}: ")
    page.keyboard.press("ArrowLeft")
    assert cursor_hex(page) == at
    page.keyboard.press("Enter")
    settle(page)
    assert ship.get_attribute("aria-pressed") == "true" and board_has_focus(page)
    page.keyboard.press("Escape")  # put down, and chosen again
    assert ship.get_attribute("aria-pressed") == "false" and board_has_focus(page)
    page.keyboard.press("Enter")
    settle(page)
    assert ship.get_attribute("aria-pressed") == "true"

    # Off the starboard bow: the turn, read out, and taken with Enter.
    turned = DIRECTIONS[(DIRECTIONS.index(facing) + 1) % 6]
    off_bow = ahead_of(turned, at)
    helm = {
        page.get_attribute(f'.board-svg .helm-target[data-helm="{step}"]', "data-target"): step
        for step in ("ahead", "port", "starboard")
        if page.locator(f'.board-svg .helm-target[data-helm="{step}"]').count()
    }
    assert helm.get(off_bow) == "starboard", helm
    said = cursor_to(page, off_bow)
    assert said.endswith(f"Enter: turn {name} starboard."), said
    page.keyboard.press("Enter")
    settle(page)
    wait_for_ship(page, name, "facing", turned)
    assert board_has_focus(page)
    assert page.inner_text("#still-to-do")  # planned, her second point still to come

    # Then the hex ahead on her new heading (her second point of the segment).
    ship = ship_at(page, name)
    at, facing = ship.get_attribute("data-hex"), ship.get_attribute("data-facing")
    assert ship.get_attribute("aria-pressed") == "true"
    ahead = ahead_of(facing, at)
    said = cursor_to(page, ahead)
    assert said.endswith(f"Enter: move {name}."), said
    page.keyboard.press("Enter")
    settle(page)
    if page.locator("#commit").count():  # the seat decides on: the planned turn sent with C
        page.keyboard.press("c")
        settle(page)
    wait_for_ship(page, name, "hex", ahead)
    assert board_has_focus(page)
    history = game_detail(server, game_id, token)["history"]
    assert [e["text"] for e in history if e["text"].startswith(("turn ", "move "))][-1] == f"move {name}"
    assert wcag_findings(page) == []


def marks_on_the_map(page, mark: str, ground: str) -> dict:
    return page.evaluate(
        """([mark, ground]) => {
            const style = (selector, what) => [...new Set([...document.querySelectorAll(selector)]
                .map((e) => getComputedStyle(e)[what]))];
            return {ground: style(ground, 'fill'), halo: style('.board-svg .selection-halo', 'stroke'),
                    outline: style(mark, 'stroke'), cursor: style('.board-svg .cursor', 'stroke')};
        }""",
        [mark, ground],
    )


def test_the_chosen_ship_and_the_cursor_stand_out_3_to_1_on_every_hex_colour(page, server):
    """Frigate after the first move (the hexes it touched tinted): the chosen ship's dark outer line and
    the cursor 3:1 or more against the sea's hexes and the tinted ones; the yellow 3:1 against its dark line."""
    created = create_game(server, "frigate", "local", scenario="frigate-duel", seed=SEED)
    game_id, token = created["id"], created["token"]
    view = to_the_first_movement(server, game_id, token)
    seat = next(s for s in view["to_act"] if view["legal"].get(s))
    name = next(g["piece"] for g in view["legal"][seat] if any(a["text"] == f"move {g['piece']}" for a in g["actions"]))
    play_by_api(server, game_id, token, seat, f"move {name}")
    open_game(page, server, game_id, token, ready=".board-svg.hex-map")
    page.keyboard.press("b")
    page.keyboard.press("ArrowUp")
    cursor_to(page, ship_at(page, name).get_attribute("data-hex"))
    page.keyboard.press("Enter")  # chosen (a click on her)
    settle(page)
    assert ship_at(page, name).get_attribute("aria-pressed") == "true"
    page.keyboard.press("ArrowDown")
    colours = marks_on_the_map(page, ".board-svg .ship.selected .hull", ".board-svg polygon.hex")
    assert len(colours["ground"]) >= 2, colours  # the open sea and the hexes of the last move
    check_marks(colours)


def test_the_chosen_ship_stands_out_3_to_1_on_naval_warfares_sea(page, server):
    created = create_game(server, "naval-warfare", "local", scenario="frigate-duel", seed=1)
    open_game(page, server, created["id"], created["token"], ready=".board-svg")
    page.locator(".board-svg .ship[tabindex]").first.focus()
    page.keyboard.press("Enter")
    settle(page)
    colours = marks_on_the_map(page, ".board-svg .ship.selected .hull", ".board-svg .sea")
    assert colours["ground"] and colours["outline"], colours
    assert min(contrast(colours["outline"][0], sea) for sea in colours["ground"]) >= 3, colours


def check_marks(colours: dict) -> None:
    for mark in ("halo", "cursor"):
        assert colours[mark], f"no {mark} drawn"
        worst = min(contrast(colours[mark][0], ground) for ground in colours["ground"])
        assert worst >= 3, f"{mark} at {worst:.2f}:1 on {colours['ground']}"
    assert contrast(colours["outline"][0], colours["halo"][0]) >= 3, colours
