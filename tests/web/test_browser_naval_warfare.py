"""Rules for Naval Warfare in a real Chromium (the fixtures of test_browser.py), and the board notes the
page draws from.

The Armada action at one screen: the table to scale with the ships' hulls, sides, headings and damage, the
wind pointer, the clock and the moves left, the wind and initiative throws; a move dragged too far refused
with its rule and nothing changed; Revenge dragged to a point and her end heading set by dragging the
ghost's bow, White Bear moved from the keyboard (the helm's turn, run, turn), Hope by a click on the sea
and the mouse wheel; the Spanish from the list of legal actions; then, closing to gun range, a broadside
fired from the helm with every die shown as it fell and the damage that followed. Also: a game against
the computer from the lobby; a move planned by one seat that neither the other seat nor a spectator sees
before it is committed; the "by eye" option (no area, fan, bearing or grid); names, keyboard and text size
at 390 px.

Positions after the page's own moves are known by replaying the server's history on a local copy of the
game (same scenario and seed, same dice).
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from quarterdeck import games
from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.protocol import CHANCE
from quarterdeck.games.naval_warfare.actions import Fire, Move
from quarterdeck.games.naval_warfare.fire import band
from tests.web import test_browser as shared
from tests.web.test_browser import game_detail, play_by_api, settle, start_game, wait_for_my_turn

# The fixtures of test_browser.py: a real server process, Debian's Chromium, a page that fails on script errors.
server, browser, page = shared.server, shared.browser, shared.page

GAME = games.get("naval-warfare")
ARMADA_SEED = 1  # the English move first; closing, Revenge's broadside bears in the second move
NOTES = GAME.hook("board_notes")


# --- the server, by HTTP ---------------------------------------------------------------------------------
def create(server, opponent: str, seed: int = ARMADA_SEED, scenario: str = "armada") -> dict[str, Any]:
    return shared.create_game(server, "naval-warfare", opponent, scenario=scenario, seed=seed)


def history(server, game_id: str) -> list[dict[str, Any]]:
    return httpx.get(f"{server.url}/api/games/{game_id}/history").json()["entries"]


def replay(server, game_id: str, scenario: str = "armada", seed: int = ARMADA_SEED):
    """The server's game on a local copy: the same scenario and seed, every stored entry applied (dice too)."""
    state = GAME.new_initial_state(scenario, seed=seed)
    for entry in history(server, game_id):
        player = CHANCE if entry["seat"] == "chance" else state.players.index(entry["seat"])
        state.apply(state.parse_action(entry["text"], None if player == CHANCE else player), player)
    return state


def ship_json(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(ship for ship in view["state"]["ships"] if ship["name"] == name)


# --- steering the local copy: each ship closes on the nearest enemy ------------------------------------------
def nearest_enemy(state, ship) -> float:
    return min(plane.distance(ship.point, e.point) for e in state.ships.values() if e.side != ship.side and e.in_play)


def closing_move(state, player: int, ship: str | None = None) -> Move:
    """Of the moves the rules offer (a ship's, or the side's), the plain one that ends nearest an enemy."""
    moves = [a for a in state.legal_actions(player, piece=ship) if isinstance(a, Move) and not a.extra]

    def gap(move: Move) -> float:
        trial = state.clone()
        trial.apply(move, player)
        return nearest_enemy(trial, trial.ships[move.ship])

    return min(moves, key=gap)


def english_may_fire(state) -> bool:
    head = state.agenda[0]
    return head[:3] == ("decide", "fire", 0) and any(isinstance(a, Fire) for a in state.legal_actions(0))


def closing_decisions(state, stop) -> list[tuple[str, str]]:
    """From the local copy: every decision (ships close; fire is passed; other choices the first offered)
    up to the first position where `stop(state)` holds."""
    decisions = []
    for _ in range(400):
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(), CHANCE)
            continue
        if stop(state):
            return decisions
        player = state.current_player()
        actions = state.legal_actions(player)
        if any(isinstance(a, Move) for a in actions):
            pick = closing_move(state, player)
        else:
            pick = next((a for a in actions if state.action_to_text(a) == "end-fire"), actions[0])
        decisions.append((state.players[player], state.action_to_text(pick)))
        state.apply(pick, player)
    raise AssertionError("the position never came")


# --- the board notes (no browser) -----------------------------------------------------------------------------
def first_decision(scenario: str, seed: int):
    state = GAME.new_initial_state(scenario, seed=seed)
    while state.current_player() == CHANCE:
        state.apply(state.sample_chance(), CHANCE)
    return state


def test_the_area_drawn_for_venerable_stops_at_monarchs_hull():
    """Camperdown: Monarch lies on Venerable's starboard bow. Each sampled heading's run in the notes is the
    longest the rules allow (rule 2's wind limit and run, rule 4's turn): it is legal and a hundredth
    more is refused, the run crossing Monarch's hull; headings clear of her run the full 6 inches."""
    state = first_decision("line-of-battle", 1)
    assert state.players[state.moving] == "british"
    reach = NOTES(state)["reach"]["Venerable"]
    venerable = state.ships["Venerable"]
    limit = venerable.spec.turn
    assert [turn for turn, _ in reach][0] == -limit and reach[-1][0] == limit
    stopped = [(turn, run) for turn, run in reach if run < 6.0]
    assert stopped and len(stopped) < len(reach)
    for turn, run in reach:
        heading = (venerable.heading + turn) % 360
        assert plane.angle_off(heading, state.wind) >= 45  # never into the wind's eye (rule 2)
        legal = Move("Venerable", turn, round(run * 100), 0)
        state.clone().apply(legal, state.moving)  # raises if the run were not legal
        if run < 6.0:
            with pytest.raises(IllegalAction) as refused:
                state.clone().apply(Move("Venerable", turn, round(run * 100) + 1, 0), state.moving)
            assert refused.value.rule == "hulls" and "Monarch's hull" in str(refused.value)


def test_the_bearings_drawn_are_the_broadsides_the_rules_let_fire():
    """Off the Isle of Wight, closing: every broadside the notes show bearing, in range and clear is one the
    English may fire (rules 9 and 10, the line of fire), and every fire offered is shown."""
    state = GAME.new_initial_state("armada", seed=ARMADA_SEED)
    closing_decisions(state, english_may_fire)
    bearings = NOTES(state)["bearings"]
    shown = {
        (name, mount, b["target"])
        for name, mounts in bearings.items()
        if state.ships[name].side == 0
        for mount, listed in mounts.items()
        for b in listed
        if b["band"] and not b["blocked"]
    }
    offered = {(a.ship, a.mount, a.target) for a in state.legal_actions(0) if isinstance(a, Fire)}
    assert offered and shown == offered
    ship, mount, target = sorted(offered)[0]
    b = next(b for b in bearings[ship][mount] if b["target"] == target)
    assert b["range"] == round(plane.distance(state.ships[ship].point, state.ships[target].point) / 100, 2)


def test_by_eye_the_notes_hold_no_aids():
    """The frigate duel is fought by eye: no area and no bearings before a move is committed (rulings)."""
    state = first_decision("frigate-duel", 1)
    assert NOTES(state) == {"aids": False, "reach": {}, "bearings": {}}


# --- the page ---------------------------------------------------------------------------------------------------
def open_game(page, server, game_id: str, token: str | None) -> None:
    shared.open_game(page, server, game_id, token, ".board-svg.naval-table")


def ship_at(page, name: str):
    return page.locator(f'.naval-table .ship[data-piece="{name}"]')


def on_screen(page, x: float, y: float) -> tuple[float, float]:
    """Where a table point (inches) is on the screen, by the frame the drawing states."""
    table = page.locator(".naval-table")
    table.scroll_into_view_if_needed()
    x0, _, _, y1, scale = (float(v) for v in table.get_attribute("data-frame").split())
    box = table.bounding_box()
    return box["x"] + (x - x0) * scale, box["y"] + (y1 - y) * scale


def drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    settle(page)


def drag_ship(page, name: str, x: float, y: float) -> None:
    ship = ship_at(page, name)
    drag(page, on_screen(page, float(ship.get_attribute("data-x")), float(ship.get_attribute("data-y"))),
         on_screen(page, x, y))


def helm_numbers(page) -> tuple[int, float, int]:
    """The move the helm shows, in the book's notation, read back into its numbers."""
    text = page.locator(".naval-helm output").inner_text()
    match = re.fullmatch(r"move .+ turn ([+-]\d+) run (\d+\.\d\d) turn ([+-]\d+)", text)
    assert match, text
    return int(match[1]), float(match[2]), int(match[3])


def version(page) -> int:
    return int(page.inner_text(".side .muted").rsplit(" ", 1)[-1])


def where(page, name: str) -> tuple[float, float, int]:
    ship = ship_at(page, name)
    x, y = (float(ship.get_attribute(f"data-{key}")) for key in ("x", "y"))
    return x, y, int(ship.get_attribute("data-heading"))


def sails_as_the_rules_say(page, server, game_id: str, name: str, text: str, planned: list[str]) -> None:
    """The ship stands where the server's rules put her after the planned moves (the page shows the preview)."""
    state = replay(server, game_id)
    for move in [*planned, text]:
        state.apply(state.parse_action(move, state.current_player()), state.current_player())
    ship = state.ships[name]
    assert where(page, name) == (ship.x / 100, ship.y / 100, ship.heading)


def test_the_armada_at_one_screen_by_dragging_keys_and_clicks(page, server, tmp_path):
    created = create(server, "local")
    game_id, token = created["id"], created["token"]
    open_game(page, server, game_id, token)

    # The table: five hulls pointing their headings, the sides told apart by colour and badge, names and damage.
    opened = version(page)  # the opening throws are stored already
    revenge = ship_at(page, "Revenge")
    assert revenge.get_attribute("aria-label").startswith(
        "Revenge, english (round badge); Med Galleon; at 14.00, 24.00 heading 90 (E); flotation 23 of 23; crew 45 of 45"
    )
    assert ship_at(page, "San Martin").get_attribute("data-side") == "spanish"
    assert ship_at(page, "San Martin").locator("rect.badge").count() == 1  # the diamond; the English have a round one
    assert revenge.locator("circle.badge").count() == 1 and revenge.locator(".hull").count() == 1
    hull = revenge.locator(".hull").bounding_box()  # heading east: her hull lies across the screen
    assert hull["width"] > 2 * hull["height"]
    hull = ship_at(page, "San Martin").locator(".hull").bounding_box()  # heading north: up the screen
    assert hull["height"] > 2 * hull["width"]
    assert page.locator(".naval-table .ship").count() == 5
    assert revenge.locator("title").text_content() == revenge.get_attribute("aria-label")
    # The wind pointer and strength, the clock and the moves left, the setup's throws (wind and initiative).
    assert page.locator(".wind-pointer").get_attribute("aria-label") == "wind pointer: medium from the W"
    assert page.locator("[data-clock]").inner_text() == "Move 1 · 12:00 pm · 6 moves left before nightfall"
    assert page.locator("[data-wind]").inner_text() == "Wind medium from the W (270°), prevailing W"
    dice = [e for entry in history(server, game_id) for e in entry["events"] if e["kind"] == "die-rolled"]
    shown = page.locator(".naval-throws .throw")
    assert [shown.nth(i).get_attribute("data-die") for i in range(shown.count())] == [str(e["value"]) for e in dice]
    assert "initiative (english)" in page.locator(".naval-throws").inner_text()
    assert page.locator(".naval-ships [data-ship-row='San Martin'] [data-flotation]").inner_text() == "50/50"

    # Revenge chosen: her allowable area, her fans, her limits in words.
    revenge.locator(".hull").click()
    settle(page)
    assert revenge.get_attribute("aria-pressed") == "true"
    assert page.locator('.naval-table .area[data-area="Revenge"] .reach').count() == 1
    assert page.locator('.naval-table .fans [data-fan="port"]').count() == 1
    assert "a run of up to 8.00 in; at least 1.00 in unless stopped by contact (rule 2); not closer than 45° to " \
           "the wind (rule 2)" in page.locator('[data-helm-of="Revenge"]').inner_text()

    # Dragged eleven inches ahead: refused, the rule named, nothing changed.
    drag_ship(page, "Revenge", 25.0, 24.0)
    turn1, run, turn2 = helm_numbers(page)
    assert abs(turn1) <= 1 and 10.8 < run < 11.2
    page.click('[data-sail="Revenge"]')
    settle(page)
    error = page.locator(".message.error").inner_text()
    assert "Revenge may run at most 8.00 inches now" in error and "[rule: rule 2]" in error
    assert version(page) == opened and where(page, "Revenge") == (14.0, 24.0, 90)

    # Dragged to a point five inches off, then her bow dragged round to about 120 degrees.
    drag_ship(page, "Revenge", 19.0, 23.0)
    turn1, run, turn2 = helm_numbers(page)
    bearing = round(plane.bearing((14.0, 24.0), (19.0, 23.0))) % 360
    assert turn1 == bearing - 90 and abs(run - 5.10) < 0.1
    end = plane.advance((1400, 2400), bearing, run * 100)
    aim = (end[0] / 100 + 3 * 0.866, end[1] / 100 - 3 * 0.5)  # three inches off on a heading of 120
    ghost = page.locator('.naval-table .ghost[data-ghost="Revenge"] .ghost-grip').bounding_box()
    drag(page, (ghost["x"] + ghost["width"] / 2, ghost["y"] + ghost["height"] / 2), on_screen(page, *aim))
    turn1, run, turn2 = helm_numbers(page)
    assert abs(bearing + turn2 - 120) <= 2
    assert page.locator(".naval-helm input[name=turn2]").input_value() == str(turn2)
    text = page.locator(".naval-helm output").inner_text()
    page.screenshot(path=str(tmp_path / "naval-drag.png"))
    page.click('[data-sail="Revenge"]')
    settle(page)
    sails_as_the_rules_say(page, server, game_id, "Revenge", text, [])
    planned = [text]

    # White Bear from the keyboard: Tab to her, Enter, then the helm's three numbers and Enter.
    ship_at(page, "White Bear").focus()
    page.keyboard.press("Enter")
    settle(page)
    assert ship_at(page, "White Bear").get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.activeElement.dataset.piece") == "White Bear"
    page.fill(".naval-helm input[name=turn1]", "-20")
    page.fill(".naval-helm input[name=run]", "4.5")
    page.fill(".naval-helm input[name=turn2]", "20")
    assert page.locator(".naval-helm output").inner_text() == "move White Bear turn -20 run 4.50 turn +20"
    page.press(".naval-helm input[name=turn2]", "Enter")
    settle(page)
    sails_as_the_rules_say(page, server, game_id, "White Bear", "move White Bear turn -20 run 4.50 turn +20", planned)
    planned.append("move White Bear turn -20 run 4.50 turn +20")

    # Hope: chosen, the sea clicked where she should go, her end heading turned with the wheel over the ghost.
    ship_at(page, "Hope").locator(".hull").click()
    settle(page)
    page.mouse.click(*on_screen(page, 18.0, 13.0))
    turn1, run, turn2 = helm_numbers(page)
    assert turn2 == -turn1 and 4.0 < run < 4.3  # the run's end keeps her heading
    # Her bow dragged round, and at once the sea clicked again: only the drag's own click is set aside.
    ghost = page.locator('.naval-table .ghost[data-ghost="Hope"] .ghost-grip').bounding_box()
    centre = (ghost["x"] + ghost["width"] / 2, ghost["y"] + ghost["height"] / 2)
    drag(page, centre, (centre[0], centre[1] - 60))
    dragged = helm_numbers(page)
    assert dragged[2] != turn2
    x, y, heading = where(page, "Hope")
    bearing = round(plane.bearing((x, y), (18.0, 13.0))) % 360 + 20  # clear of the ghost
    aim = plane.advance((round(x * 100), round(y * 100)), bearing, 300)
    page.mouse.click(*on_screen(page, aim[0] / 100, aim[1] / 100))
    turn1, run, turn2 = helm_numbers(page)
    assert turn1 == bearing - heading and 2.9 < run < 3.1  # the run set by the click
    assert (turn1 + turn2 - dragged[0] - dragged[2]) % 360 == 0  # and the end heading the drag gave her kept
    page.click('[data-clear="Hope"]')  # begun again: the sea clicked where she should go, as first planned
    page.mouse.click(*on_screen(page, 18.0, 13.0))
    turn1, run, turn2 = helm_numbers(page)
    assert turn2 == -turn1 and 4.0 < run < 4.3
    ghost = page.locator('.naval-table .ghost[data-ghost="Hope"] .ghost-grip').bounding_box()
    page.mouse.move(ghost["x"] + ghost["width"] / 2, ghost["y"] + ghost["height"] / 2)
    page.mouse.wheel(0, 100)
    page.mouse.wheel(0, 100)
    assert helm_numbers(page) == (turn1, run, turn2 + 10)
    page.click('[data-sail="Hope"]')  # the last English ship: the English move is committed
    settle(page)
    wait_for_my_turn(page)
    assert page.inner_text("#status") == "Your decision (spanish)"
    entries = [(e["seat"], e["text"]) for e in history(server, game_id) if e["seat"] != "chance"]
    assert entries[:2] == [("english", planned[0]), ("english", planned[1])] and entries[2][1].startswith("move Hope")

    # The Spanish from the list of legal actions beside the board (its keyboard path kept).
    for name in ("San Martin", "San Cristobal"):
        state = replay(server, game_id)
        text = state.action_to_text(closing_move(state, 1, name))
        page.locator(f'#legal-actions [data-piece-button="{name}"]').click()
        settle(page)
        page.locator(f'#legal-actions [data-action="{text}"]').click()
        settle(page)
    wait_for_my_turn(page)

    # On to the second move's fire, the ships closing (by the server's API), then fire from the helm.
    state = replay(server, game_id)
    for seat, text in closing_decisions(state, english_may_fire):
        play_by_api(server, game_id, token, seat, text)
    page.reload()
    page.wait_for_selector(".board-svg.naval-table")
    settle(page)
    fire = next(a for a in state.legal_actions(0) if isinstance(a, Fire))
    bears = next(b for b in NOTES(state)["bearings"][fire.ship][fire.mount] if b["target"] == fire.target)
    ship_at(page, fire.ship).locator(".hull").click()
    settle(page)
    guns = page.locator(f'.naval-helm [data-mount="{fire.mount}"]').inner_text()
    assert f"Bears on {fire.target}, {bears['range']:.2f} in, {bears['band']} range" in guns
    line = page.locator(f'.naval-table .bearing[data-bearing="{fire.mount} {fire.target}"] text')
    assert line.text_content() == f'{fire.mount} {bears["range"]:.2f}" {bears["band"]}'
    page.screenshot(path=str(tmp_path / "naval-fire.png"))
    shared.screenshot(page, "naval-warfare")  # the README's picture, under `make screenshots`
    before = version(page)
    page.locator(f'.naval-helm [data-order="{state.action_to_text(fire)}"]').click()
    settle(page)
    page.wait_for_function(f"Number(document.querySelector('.side .muted').textContent.split(' ').pop()) > {before}")
    settle(page)

    # Every die as it fell (one per battery of the broadside), and what followed; the damage in the table.
    volley = history(server, game_id)[before:]
    assert volley[0]["text"] == state.action_to_text(fire) and all(e["seat"] == "chance" for e in volley[1:])
    dice = [e for entry in volley for e in entry["events"] if e["kind"] == "die-rolled"]
    firer, aimed = state.ships[fire.ship], state.ships[fire.target]
    in_range = [b for b in firer.mount_batteries(fire.mount) if band(b, plane.distance(firer.point, aimed.point))]
    assert len(dice) == len(in_range)  # each battery within its range throws one die (rule 9)
    title = page.locator(".naval-throws .throws-title").inner_text()
    assert title == f"Throws after english: {state.action_to_text(fire)}"
    throws = page.locator(".naval-throws .throw")
    assert [throws.nth(i).get_attribute("data-die") for i in range(throws.count())] == [str(d["value"]) for d in dice]
    assert all(f"{fire.ship}'s" in throws.nth(i).inner_text() for i in range(throws.count()))
    fired = next(e for entry in volley for e in entry["events"] if e["kind"] == "fired")
    assert fired["text"] in page.locator(".naval-throws").inner_text()
    target = ship_json(game_detail(server, game_id, token)["view"], fire.target)
    row = page.locator(f".naval-ships [data-ship-row='{fire.target}'] [data-flotation]").inner_text()
    assert row.startswith(f"{target['flotation']}/{target['flotation_max']}")
    assert f"flotation {target['flotation']} of {target['flotation_max']}" in ship_at(page, fire.target).get_attribute(
        "aria-label"
    )
    hits = [e for entry in volley for e in entry["events"] if e["kind"] == "hit" and e["piece"] == fire.target]
    label = page.locator(f'.naval-table .hit-label[data-hit="{fire.target}"]')
    assert [label.nth(i).text_content() for i in range(label.count())] == [
        f"−{h['hits']}" + (" raked" if h["bearing"].endswith("raked") else "") for h in hits
    ]
    page.screenshot(path=str(tmp_path / "naval-throws.png"))


def test_a_game_that_opens_with_dice_is_ready_for_its_first_decision(server):
    """The wind and initiative are thrown before the first move (seed 003, rules 1 and 3): a new game's
    opening throws are made and stored when it is created, so the side that won the initiative may move."""
    created = create(server, "invite")
    view = game_detail(server, created["id"], created["token"])["view"]
    assert view["to_act"] == [view["state"]["sides"][view["state"]["first"]]]
    entries = history(server, created["id"])
    assert entries and all(e["seat"] == "chance" for e in entries)
    assert [e["kind"] for e in entries[-1]["events"]][-1] == "phase-changed"


def test_against_the_computer_from_the_lobby(page, server):
    start_game(page, server, "naval-warfare", "computer")  # the Armada action, against greedy
    page.wait_for_selector(".naval-table .ship")
    for _ in range(8):
        wait_for_my_turn(page)
        if page.inner_text("#status").startswith("Game over"):
            break
        choose = page.locator(".naval-helm [data-select]")
        if choose.count():  # a ship to move: chosen from the helm, her first offered move from the list
            choose.first.click()
            settle(page)
        page.locator("#legal-actions [data-action]").first.click()
        settle(page)
    wait_for_my_turn(page)
    seats = {line.split()[0] for line in page.locator("#moves li").all_inner_texts()}
    assert {"english", "spanish", "chance"} <= seats  # the computer (spanish) answered, the dice were thrown
    # the moves are headed by the game's own moves, both sides' in each, as the clock above the table counts them
    heads = page.locator("#moves .turn-head").all_inner_texts()
    assert {"Turn 1: english", "Turn 1: spanish"} <= set(heads), heads
    numbers = [int(re.match(r"Turn (\d+): ", head).group(1)) for head in heads]
    move_now = int(re.match(r"Move (\d+) ", page.inner_text(".naval-time")).group(1))
    assert numbers == sorted(numbers) and numbers[-1] <= move_now, (heads, move_now)
    game_id = page.url.rsplit("/", 1)[-1]
    ships = game_detail(server, game_id)["view"]["state"]["ships"]
    assert page.locator(".naval-table .ship").count() == sum(s["status"] in ("afloat", "surrendered") for s in ships)


def test_a_planned_move_is_seen_by_neither_the_other_seat_nor_a_spectator(browser, server):
    created = create(server, "invite")
    game_id, english = created["id"], created["token"]
    invitation = {"invitation": created["invitations"]["spanish"]}
    spanish = httpx.post(f"{server.url}/api/games/{game_id}/join", json=invitation).json()["token"]
    contexts = [browser.new_context(viewport={"width": 1360, "height": 900}) for _ in range(3)]
    try:
        mine, theirs, spectator = (context.new_page() for context in contexts)
        for page_, token in ((mine, english), (theirs, spanish), (spectator, None)):
            open_game(page_, server, game_id, token)
        # The English plan Revenge's move: previewed on their page only, nothing stored.
        ship_at(mine, "Revenge").locator(".hull").click()
        settle(mine)
        mine.fill(".naval-helm input[name=run]", "6")
        mine.click('[data-sail="Revenge"]')
        settle(mine)
        assert where(mine, "Revenge") == (20.0, 24.0, 90)
        assert "move Revenge turn +0 run 6.00 turn +0" in mine.inner_text(".pending")
        for page_, token in ((theirs, spanish), (spectator, None)):
            page_.reload()
            page_.wait_for_selector(".board-svg.naval-table")
            settle(page_)
            assert where(page_, "Revenge") == (14.0, 24.0, 90)
            assert page_.locator(".naval-table .draft").count() == 0
            assert ship_json(game_detail(server, game_id, token)["view"], "Revenge")["x"] == 14.0
            assert not page_.locator(".naval-helm form").count()  # nothing of theirs to move: no helm
        assert ship_json(game_detail(server, game_id, english)["view"], "Revenge")["x"] == 14.0
        # Committed with the other two ships' moves, it reaches everyone.
        for name in ("White Bear", "Hope"):
            mine.locator(f'#legal-actions [data-piece-button="{name}"]').click()
            settle(mine)
            mine.locator("#legal-actions [data-action]").first.click()
            settle(mine)
        for page_ in (theirs, spectator):
            page_.wait_for_function(
                "document.querySelector('.naval-table .ship[data-piece=\"Revenge\"]')?.dataset.x === '20'"
            )
        assert theirs.inner_text("#status") == "Your decision (spanish)"
    finally:
        for context in contexts:
            context.close()


def test_by_eye_no_area_fan_bearing_or_grid_is_drawn(page, server):
    """The frigate duel is fought by eye: a chosen ship shows her limits in words and may be moved, but the
    table shows no area, fans, bearings or ruler until the move is committed."""
    created = create(server, "local", scenario="frigate-duel")
    game_id, token = created["id"], created["token"]
    open_game(page, server, game_id, token)
    view = game_detail(server, game_id, token)["view"]
    assert view["notes"] == {"aids": False, "reach": {}, "bearings": {}}
    mover = next(group["piece"] for group in view["legal"][view["to_act"][0]] if group["piece"])
    ship_at(page, mover).locator(".hull").click()
    settle(page)
    assert "under sail: turns of up to" in page.locator(f'[data-helm-of="{mover}"]').inner_text()
    for hidden in (".area", ".fans", ".bearings", ".grid", ".naval-coord"):
        assert page.locator(f".naval-table {hidden}").count() == 0, hidden
    assert "bears on" not in page.locator(".naval-helm .guns").inner_text()
    drag_ship(page, mover, *(v + 2 for v in where(page, mover)[:2]))
    assert page.locator(f'.naval-table .ghost[data-ghost="{mover}"]').count() == 1
    assert page.locator(".naval-table .ghost-fans").count() == 0


def test_the_whole_table_and_the_zoom_are_a_keypress_away(page, server):
    """Gravelines: the table opens on the ships with sea round them, so the Flanders banks to leeward
    are out of sight; "Whole table" shows all 72 by 36 inches, its edges and the banks, and the zoom widens the
    drawing. Pressed with Enter, each button keeps the keyboard focus for the next press."""
    created = create(server, "local", scenario="gravelines")
    open_game(page, server, created["id"], created["token"])
    table = page.locator(".naval-table")
    shown_east = float(table.get_attribute("data-frame").split()[2])
    assert shown_east < 63  # the banks begin 63 inches east
    page.locator('button[data-view="whole"]').focus()
    page.keyboard.press("Enter")
    settle(page)
    assert "from 0 to 72 inches east and 0 to 36 inches north" in table.get_attribute("aria-label")
    assert page.locator('.naval-table .land[data-land="Flanders banks"]').is_visible()
    # the four edges are drawn inside the picture, greyed beyond: a hull lying across one is seen whole
    drawn, sea = table.bounding_box(), page.locator(".naval-table rect.sea").bounding_box()
    inch = float(table.get_attribute("data-frame").split()[4])
    assert sea["x"] - drawn["x"] >= 2 * inch and sea["y"] - drawn["y"] >= 2 * inch
    assert drawn["x"] + drawn["width"] - sea["x"] - sea["width"] >= 2 * inch
    assert drawn["y"] + drawn["height"] - sea["y"] - sea["height"] >= 2 * inch
    assert page.locator('button[data-view="whole"]').get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => document.activeElement.dataset.view") == "whole"
    width = table.bounding_box()["width"]
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Zoom out is disabled at x1, so Tab reaches Zoom in
    settle(page)
    assert page.locator(".naval-view").inner_text().endswith("×1.5")
    assert table.bounding_box()["width"] > width * 1.4
    assert page.evaluate("() => document.activeElement.dataset.view") == "zoom-in"


def test_the_ruler_the_phase_line_offers_is_asked_at_the_pages_command_line(page, server):
    """The phase line says "`range <ship> <ship>` measures between two ships": typed on the page, the
    server measures as the terminal does and the answer is read out line by line; nothing is decided."""
    created = create(server, "local")
    open_game(page, server, created["id"], created["token"])
    before = game_detail(server, created["id"])["view"]["version"]
    assert "range <ship> <ship>" in page.inner_text("#phase-help")
    assert "range Revenge San Martin" in page.inner_text("#command-help")  # an example with one ship a side
    command = page.locator("#command")
    command.fill("range revenge san martin")
    command.press("Enter")
    page.wait_for_function("document.querySelector('#said p:last-child')?.textContent === 'line of fire: clear'")
    said = page.locator("#said p").all_inner_texts()
    assert "Revenge to San Martin: 30.59 in, mainmast to mainmast" in said
    command.fill("range Revenge Ark Royal")
    command.press("Enter")
    page.wait_for_function("document.querySelector('#said p:last-child')?.textContent.includes('[field: ship]')")
    assert "ships on the table are Revenge, White Bear, Hope, San Martin, San Cristobal" in page.inner_text("#said")
    # `end` where each ship must move and no action ends the phase: the ships still to move are named
    command.fill("end")
    command.press("Enter")
    page.wait_for_function("document.querySelector('#said p:last-child')?.textContent.startsWith('No action')")
    assert page.locator("#said p").last.inner_text() == ("No action ends this phase: choose one of the actions "
                                                          "(with an action now: Revenge, White Bear, Hope).")
    assert game_detail(server, created["id"])["view"]["version"] == before
    # a move off the offered list, typed as the help shows, without its first word
    command.fill("White Bear turn +0 run 4.00 turn +0")
    command.press("Enter")
    page.wait_for_function("document.querySelector('#said p:last-child')?.textContent.startsWith('Planned:')")
    assert page.locator("#said p").last.inner_text().startswith("Planned: move White Bear turn +0 run 4.00 turn +0.")


def test_a_ship_that_cannot_move_says_why_at_her_helm(page, server):
    # Galleys off Cape Passaro, seed 0: the first move's wind leaves Bull in irons (rule 8)
    created = create(server, "local", seed=0, scenario="mediterranean")
    open_game(page, server, created["id"], created["token"])
    ship_at(page, "Bull").locator(".hull").click()
    assert page.locator('[data-helm-of="Bull"]').inner_text().endswith("she is in irons and drifts (rule 7).")
    assert page.locator('[data-move-of="Bull"]').count() == 0
    # Tiger, a reinforcement, is not on the table yet: her row says when and where she comes on
    tiger = page.locator('[data-ship-row="Tiger"]').inner_text()
    assert "waiting: arrives on move 3 at the west edge" in tiger


def test_at_390_px_text_is_readable_and_every_ship_is_named_and_reachable_by_keyboard(browser, server, tmp_path):
    created = create(server, "local", scenario="line-of-battle")
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        page_ = context.new_page()
        open_game(page_, server, created["id"], created["token"])
        sizes = shared.svg_text_sizes(page_)
        assert sizes and min(sizes) >= 12
        ships = page_.locator(".naval-table .ship")
        assert ships.count() == len(game_detail(server, created["id"])["view"]["state"]["ships"]) == 18
        pattern = (r"\S.*, (british \(round badge\)|dutch \(diamond badge\)); .+; at \d+\.\d\d, \d+\.\d\d heading \d+ "
                   r"\((N|NE|E|SE|S|SW|W|NW)\); flotation \d+ of \d+; crew \d+ of \d+; batteries .+; masts lost \d")
        for index in range(ships.count()):
            ship = ships.nth(index)
            label = ship.get_attribute("aria-label")
            assert re.match(pattern, label), label
            assert ship.get_attribute("tabindex") == "0" and ship.locator("title").text_content() == label
        mover = game_detail(server, created["id"], created["token"])["view"]["to_act"][0]
        first = next(s for s in range(ships.count()) if ships.nth(s).get_attribute("data-side") == mover)
        name = ships.nth(first).get_attribute("data-piece")
        ships.nth(first).focus()
        page_.keyboard.press("Enter")
        settle(page_)
        assert ship_at(page_, name).get_attribute("aria-pressed") == "true"
        assert page_.evaluate("document.activeElement.dataset.piece") == name
        # On by Tab past the other ships and the view's buttons to the helm; the move typed and sent with Enter.
        for _ in range(60):
            page_.keyboard.press("Tab")
            if page_.evaluate("document.activeElement.name") == "turn1":
                break
        page_.keyboard.type("-10")  # to port: to starboard her run would cross Monarch's hull
        page_.keyboard.press("Tab")
        page_.keyboard.press("Control+a")
        page_.keyboard.type("3")
        page_.keyboard.press("Enter")
        settle(page_)
        assert not page_.locator(".message.error").count(), page_.inner_text(".message.error")
        assert f"move {name} turn -10 run 3.00 turn +0" in page_.inner_text(".pending")
        # The keyboard goes on to the next ship to move.
        page_.wait_for_function("document.activeElement?.dataset.select")
        chosen = page_.evaluate("document.activeElement.dataset.select")
        assert chosen != name and ship_at(page_, chosen).get_attribute("data-side") == mover
        page_.screenshot(path=str(tmp_path / "naval-390.png"), full_page=True)
    finally:
        context.close()


def test_axe_finds_nothing_wrong_in_the_drawing_at_any_step(page, server):
    """axe-core on the table, the helm and the ships' table: a ship chosen with her area, fans and a
    dragged move; a ship with a broadside to fire; the frigate duel by eye."""
    created = create(server, "local")
    game_id, token = created["id"], created["token"]
    open_game(page, server, game_id, token)
    assert shared.axe_findings(page, ".naval") == []
    ship_at(page, "Revenge").locator(".hull").click()
    settle(page)
    drag_ship(page, "Revenge", 19.0, 26.0)
    assert page.locator('.naval-table .ghost[data-ghost="Revenge"]').count() == 1
    assert shared.axe_findings(page, ".naval") == []
    state = replay(server, game_id)
    for seat, text in closing_decisions(state, english_may_fire):
        play_by_api(server, game_id, token, seat, text)
    open_game(page, server, game_id, token)
    firer = next(a for a in state.legal_actions(0) if isinstance(a, Fire)).ship
    ship_at(page, firer).locator(".hull").click()
    settle(page)
    assert page.locator(".naval-helm [data-order^='fire ']").count()
    assert shared.axe_findings(page, ".naval") == []
    by_eye = create(server, "local", scenario="frigate-duel")
    open_game(page, server, by_eye["id"], by_eye["token"])
    assert shared.axe_findings(page, ".naval") == []


def test_damage_and_the_ships_marks_are_drawn_at_a_glance(page, server):
    """A Nelson duel drawn from a position the rules could reach: Pallas quarter damaged with a mast down
    and on fire, grappled to Imperieuse, whose crew is half gone; Beagle surrendered; Calcutta sunk. The
    table, the names and the ships' table say so; the Ile d'Aix shore and the Boyart shoal are drawn."""
    state = first_decision("lee-shore", 1)
    pallas, imperieuse, beagle, calcutta = (state.ships[n] for n in ("Pallas", "Imperieuse", "Beagle", "Calcutta"))
    pallas.flotation -= (pallas.spec.flotation + 3) // 4
    pallas.masts_lost, pallas.on_fire, pallas.grappled, imperieuse.grappled = 1, 1, "Imperieuse", "Pallas"
    imperieuse.crew //= 2
    beagle.status = "surrendered"
    calcutta.status = "sunk"
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.evaluate(
        """async (state) => {
            const drawing = await import("/static/games/naval-warfare.js");
            const ctx = { view: { id: "drawn", legal: {} }, state, seat: null, selected: null, notes: {}, history: [],
                          lastEvents: [], select() {}, plan() {} };
            document.querySelector("#app").replaceChildren(drawing.draw(ctx));
        }""",
        state.to_json(),
    )
    page.wait_for_selector(".naval-table")
    label = ship_at(page, "Pallas").get_attribute("aria-label")
    assert f"flotation {pallas.flotation} of {pallas.spec.flotation}, quarter damaged" in label
    assert label.endswith("masts lost 1; on fire; grappled to Imperieuse")
    name = ship_at(page, "Pallas").locator(".ship-name")
    assert name.text_content() == "Pallas · fire · grappled · 1 mast down"
    crew = f"crew {imperieuse.crew} of {imperieuse.spec.crew}"
    assert crew in ship_at(page, "Imperieuse").get_attribute("aria-label")
    assert ship_at(page, "Beagle").locator(".ship-name").text_content() == "Beagle · struck"
    assert page.locator('.naval-table .link.grappled').count() == 1
    assert page.locator('.naval-table .wreck[data-wreck="Calcutta"]').get_attribute("aria-label") == "Calcutta: sunk"
    assert ship_at(page, "Calcutta").count() == 0
    row = page.locator(".naval-ships [data-ship-row='Pallas']")
    flotation = f"{pallas.flotation}/{pallas.spec.flotation} (quarter damaged)"
    assert row.locator("[data-flotation]").inner_text() == flotation
    assert row.locator("[data-state]").inner_text() == "on fire; grappled to Imperieuse"
    assert page.locator(".naval-ships [data-ship-row='Beagle'] [data-state]").inner_text() == "surrendered"
    assert page.locator(".naval-table .land[data-land=\"Ile d'Aix shore\"]").get_attribute("aria-label") == (
        "Ile d'Aix shore, land: a ship that drifts onto it is wrecked"
    )
    assert page.locator('.naval-table .shoal[data-land="Boyart shoal"]').count() == 1
