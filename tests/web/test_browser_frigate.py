"""Frigate in a real Chromium (the fixtures of test_browser.py): a duel at one screen played by
clicking, dragging and the keyboard (sail, the Movement Declaration with each ship's allowed range
and why, a fire window held, an illegal dragged move refused with its rule, moves and turns with
their costs, a broadside with its odds, raking and CRT column, the dice and the hits); a game against
the computer from the lobby; SiMove declarations and plots that neither the other seat's page nor a
spectator's ever shows before the reveal; names, keyboard and text size at 390 px.

Positions are reached by playing the same seed on the server as on a local copy of the game, so the
test knows where the ships stand; every decision of the duel is taken through the page.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from quarterdeck import games
from quarterdeck.core.hexes import HexDir, distance, neighbour
from quarterdeck.core.protocol import CHANCE
from tests.web import test_browser as shared
from tests.web.test_browser import (
    axe_findings,
    create_game,
    game_detail,
    play_by_api,
    settle,
    start_game,
    svg_text_sizes,
    version,
    wait_for_my_turn,
)

# The fixtures of test_browser.py: a real server process, Debian's Chromium, a page that fails on script errors.
server, browser, page = shared.server, shared.browser, shared.page

DUEL_SEED = 3  # the closing duel runs afoul before Constitution's first broadside
RAKE_SEED = 1  # Constitution comes under Guerriere's stern
DIRECTIONS = [d.name for d in HexDir]


# --- the server, by HTTP ---------------------------------------------------------------------------
def create(server, opponent: str, seed: int, options: dict[str, Any] | None = None, **body: Any) -> dict[str, Any]:
    """A Frigate game (the duel unless `scenario` says otherwise) with a fixed seed."""
    return create_game(
        server, "frigate", opponent, **{"scenario": "frigate-duel", "seed": seed, "options": options or {}, **body}
    )


def detail(server, game_id: str, token: str | None = None) -> dict[str, Any]:
    return game_detail(server, game_id, token)["view"]


api_play = play_by_api


def ship_json(view: dict[str, Any], name: str) -> dict[str, Any]:
    return next(ship for ship in view["state"]["ships"] if ship["name"] == name)


# --- the page ---------------------------------------------------------------------------------------
def open_game(page, server, game_id: str, token: str | None) -> None:
    """Open the game page holding `token`'s seats (none: a spectator), once the map is drawn."""
    shared.open_game(page, server, game_id, token, ready=".board-svg.hex-map")


def order(page, text: str) -> None:
    """Give an order from the panel under the map."""
    page.locator(f'.frigate-orders [data-order="{text}"]').click()
    settle(page)


def ship_at(page, name: str):
    return page.locator(f'.board-svg .ship[data-piece="{name}"]')


def centre_on_screen(element) -> tuple[float, float]:
    box = shared.box_on_screen(element)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def hex_centre(page, hex_name: str) -> tuple[float, float]:
    return centre_on_screen(page.locator(f'.board-svg polygon.hex[data-hex="{hex_name}"]'))


def drag_ship(page, name: str, hex_name: str) -> None:
    page.locator(f'.board-svg polygon.hex[data-hex="{hex_name}"]').scroll_into_view_if_needed()
    x, y = centre_on_screen(ship_at(page, name).locator(".hull"))
    tx, ty = hex_centre(page, hex_name)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + tx) / 2, (y + ty) / 2, steps=4)
    page.mouse.move(tx, ty, steps=4)
    page.mouse.up()
    settle(page)


def ahead_of(facing: str, hex_name: str) -> str:
    """The hex ahead, by core/hexes.py."""
    grid = games.get("frigate").new_initial_state("frigate-duel").grid
    return grid.name(neighbour(grid.parse(hex_name), HexDir[facing]))


def commit_planned(page) -> None:
    """Store the decisions planned so far (a seat that acts again keeps planning until it commits)."""
    if page.locator("#commit").count():
        page.click("#commit")
        settle(page)


# --- the local copy: where the same seed leads -----------------------------------------------------------
def broadside_window(state, notes) -> bool:
    """Constitution's fire window, with a broadside to fire."""
    return any(attack["battery"] in ("port", "starboard") for attack in notes["fire"].values())


def raking_window(state, notes) -> bool:
    return any(attack["rake"] for attack in notes["fire"].values() if "rake" in attack)


def steered_to(seed: int, stop, keep: int = 0, declare=lambda count: count - 1) -> list[tuple[str, str]]:
    """The duel's decisions up to the first of Constitution's fire windows for which `stop(state, notes)`
    holds: every fire window held, the allowance at index `declare(count)` of those allowed declared,
    each point spent to come nearest to `keep` hexes from the enemy (ties: the first listed)."""
    game = games.get("frigate")
    state = game.new_initial_state("frigate-duel", seed=seed)
    decisions = []
    for _ in range(400):
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(), player=CHANCE)
            continue
        player = state.acting_players()[0]
        actions = state.legal_actions(player)
        texts = [state.action_to_text(a) for a in actions]
        if state.windows and state.windows[0] == "Constitution" and stop(state, game.hook("board_notes")(state)):
            return decisions

        def gap(index: int, actions=actions, player=player) -> tuple[int, int]:
            trial = state.clone()
            trial.apply(actions[index], player=player)
            return abs(distance(trial.ships["Constitution"].hex, trial.ships["Guerriere"].hex) - keep), index

        holds = [i for i, t in enumerate(texts) if t.startswith("hold")]
        declares = [i for i, t in enumerate(texts) if t.startswith("declare")]
        pick = (
            holds[0] if holds else declares[declare(len(declares))] if declares else min(range(len(actions)), key=gap)
        )
        decisions.append((state.players[player], texts[pick]))
        state.apply(actions[pick], player=player)
    raise AssertionError("the window never came")


def test_a_spectators_json_holds_no_simove_declaration_or_plot():
    """The server draws a spectator from `to_json(viewer=<no seat>)`: neither side's secrets show."""
    state = games.get("frigate").new_initial_state("frigate-duel", options={"simove": True}, seed=DUEL_SEED)
    spectator = len(state.players)
    seen = {"declare": False, "plot": False}
    for _ in range(400):
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(), player=CHANCE)
            continue
        player = state.acting_players()[0]
        state.apply(state.legal_actions(player)[0], player=player)
        if state.phase == "declare" and state.ready:
            data = state.to_json(viewer=spectator)
            assert not any(ship["declared"] or ship["ma"] for ship in data["ships"])
            seen["declare"] = True
        if state.stage == "plot" and any(ship.plot for ship in state.ship_list):
            assert all(ship["plot"] == [] for ship in state.to_json(viewer=spectator)["ships"])
            seen["plot"] = True
        if all(seen.values()):
            return
    raise AssertionError(f"never reached a secret declaration and plot: {seen}")


# --- the duel at one screen ---------------------------------------------------------------------------------
def test_the_duel_at_one_screen_by_clicking_dragging_and_keys(page, server, tmp_path):
    opening = steered_to(DUEL_SEED, broadside_window)
    created = create(server, "local", DUEL_SEED)
    game_id, token = created["id"], created["token"]
    open_game(page, server, game_id, token)

    # The map: both ships with side, place, facing and damage named; the wind; the clock.
    assert (
        ship_at(page, "Constitution")
        .get_attribute("aria-label")
        .startswith("Constitution, blue; 44-gun frigate; at 1406 facing SE; hits: hull 0 of 6, crew 0, guns 0, masts 0")
    )
    assert ship_at(page, "Guerriere").get_attribute("data-side") == "red"
    assert ship_at(page, "Guerriere").locator("rect.badge").count() == 1  # red's diamond badge; blue's is round
    assert ship_at(page, "Constitution").locator("circle.badge").count() == 1
    assert page.locator(".board-svg [data-wind]").text_content() == "Wind from NW (6), moderate"
    assert page.locator(".board-svg [data-clock]").text_content() == "Turn 0 of 15"
    # Dropped two hexes off, a ship is not sent anywhere: a ship sails one hex at a time.
    drag_ship(page, "Constitution", "1408")
    assert "moves one hex at a time" in page.inner_text(".frigate-hint") and version(page) == 0

    # Every decision up to Constitution's first broadside window, taken through the page; the first of
    # each kind is looked at closely.
    seen: set[str] = set()
    moves = 0
    for _, text in opening:
        wait_for_my_turn(page)
        verb, name = text.split()[:2]
        if verb == "declare" and verb not in seen:
            declaration_shown(page, server, game_id, token, name)
        if verb == "hold" and verb not in seen:
            fire_window_shown_and_sailing_refused(page, name)
        if verb == "turn" and verb not in seen:
            turn_costs_shown(page, server, game_id, token, name, text.split()[2])
        seen.add(verb)
        if verb == "order":  # the first mover of each segment, as the initiative winner orders it
            label = ", ".join(f"{i}: {side}" for i, side in enumerate(text.split()[1:], start=1))
            assert page.locator(f'.frigate-orders [data-order="{text}"]').inner_text() == label
            assert page.locator(".frigate-orders .first-movers button").count() == 16
            order(page, text)
        elif verb == "move":
            moves += 1
            sail_ahead(page, name, drag=moves % 2 == 0)
        elif verb == "turn":
            turn_by_key(page, name, text.split()[2])
        else:
            order(page, text)
    assert {"sail", "declare", "order", "hold", "move"} <= seen
    commit_planned(page)
    history = httpx.get(f"{server.url}/api/games/{game_id}/history").json()["entries"]
    assert [(e["seat"], e["text"]) for e in history if e["seat"] != "chance"] == opening

    # Constitution's broadside window: every attack with range, GS against DS, raking, CRT column.
    view = detail(server, game_id, token)
    attacks = {text: a for text, a in view["notes"]["fire"].items() if a["battery"] in ("port", "starboard")}
    assert attacks
    text, attack = next(iter(attacks.items()))
    line = page.locator(f'.frigate-orders li[data-attack="{attack["battery"]} Guerriere"]').inner_text()
    assert (
        f"{attack['battery']} broadside at Guerriere: range {attack['range']}, GS {attack['gunnery']} against "
        f"DS {attack['defence']}"
    ) in line
    assert f"CRT column {attack['column']}" in line
    assert ("raking from the " + attack["rake"] in line) == bool(attack["rake"])
    assert page.locator(f'.board-svg .fire-option[data-fire="Constitution>Guerriere {attack["battery"]}"]').count() == 1
    assert page.locator('.frigate-orders [data-order="hold Constitution"]').inner_text() == "Hold fire"
    assert page.locator('.frigate-orders [data-order="pass Constitution"]').inner_text() == "Pass to segment end"
    page.screenshot(path=str(tmp_path / "frigate-fire-window.png"))
    shared.screenshot(page, "frigate")  # the README's picture, under `make screenshots`
    order(page, f"fire Constitution {attack['battery']} Guerriere hull")

    # The dice are shown; hits wait for the segment's end, then land on Guerriere's markers.
    page.wait_for_selector(".board-svg [data-dice]")
    assert re.fullmatch(r"Dice: \d for .+", page.locator(".board-svg [data-dice]").text_content())
    segment = detail(server, game_id, token)["state"]["segment"]
    for _ in range(40):  # hold fire to the segment's end, where the hits land
        wait_for_my_turn(page)
        if detail(server, game_id, token)["state"]["segment"] != segment or page.locator(".status.over").count():
            break
        holds = page.locator('.frigate-orders [data-order^="hold "]')
        (holds.first if holds.count() else page.locator("#legal-actions [data-action]").first).click()
        settle(page)
        commit_planned(page)
    guerriere = ship_json(detail(server, game_id, token), "Guerriere")
    marks = page.locator('.board-svg .ship[data-piece="Guerriere"] .hit-marks')
    kinds = ("hull", "crew", "guns", "masts")
    assert any(guerriere[k] for k in kinds) and not detail(server, game_id, token)["state"]["pending"]
    assert marks.get_attribute("data-hits") == " ".join(f"{k} {guerriere[k]}" for k in kinds)
    assert marks.text_content() == " ".join(f"{k[0].upper()}{guerriere[k]}" for k in kinds if guerriere[k])
    row = page.locator('.frigate-ships [data-ship-row="Guerriere"]').inner_text()
    assert f"{guerriere['hull']}/{guerriere['hull_boxes']}" in row
    assert "Guerriere, red" in ship_at(page, "Guerriere").get_attribute("aria-label")


def test_a_raking_broadside_shows_its_odds_before_it_is_fired(page, server, tmp_path):
    """Constitution under Guerriere's stern (seed 1): the stern rake, the GS it gives, the CRT column."""
    created = create(server, "local", RAKE_SEED)
    game_id, token = created["id"], created["token"]
    for seat, text in steered_to(RAKE_SEED, raking_window, keep=1, declare=lambda count: count // 2):
        api_play(server, game_id, token, seat, text)
    open_game(page, server, game_id, token)
    fire = detail(server, game_id, token)["notes"]["fire"]
    rake = next(attack for attack in fire.values() if attack.get("rake"))
    assert rake["range"] == 1
    line = page.locator(f'.frigate-orders li[data-attack="{rake["battery"]} Guerriere"]').inner_text()
    assert (
        f"{rake['battery']} broadside at Guerriere: range 1, GS {rake['gunnery']} against DS {rake['defence']}, "
        f"raking from the {rake['rake']}, CRT column {rake['column']}"
    ) in line
    label = page.locator(f'.board-svg .fire-option[data-fire="Constitution>Guerriere {rake["battery"]}"] text')
    assert label.text_content() == f"{rake['battery']} {rake['column']} rake"
    page.screenshot(path=str(tmp_path / "frigate-raking.png"))


def declaration_shown(page, server, game_id: str, token: str, name: str) -> None:
    """Each ship's allowed Movement Allowance and why, as the rules give it, with a button per MA."""
    view = detail(server, game_id, token)
    low, high, why = ship_json(view, name)["allowed"]
    allowed = page.locator(f'.frigate-orders [data-allowed="{name}"]').inner_text()
    assert f"MA {low} to {high}, {why}" in allowed and "schedule maximum" in why and "momentum" in why
    assert page.locator(f'.frigate-orders [data-order^="declare {name} "]').count() == high - low + 1


def fire_window_shown_and_sailing_refused(page, name: str) -> None:
    """A fire window with its chasers or broadsides, hold and pass; sailing on meanwhile is refused."""
    assert f"Fire window: {name}" in page.inner_text(".frigate-orders h3")
    options = page.inner_text(".frigate-orders .fire-options")
    assert re.search(r"(bow|stern) chasers at \w+: range \d|broadside at", options)
    assert page.locator(f'.frigate-orders [data-order="hold {name}"]').inner_text() == "Hold fire"
    assert page.locator(f'.frigate-orders [data-order="pass {name}"]').inner_text() == "Pass to segment end"
    ship = ship_at(page, name)
    at, facing = ship.get_attribute("data-hex"), ship.get_attribute("data-facing")
    before = version(page)
    drag_ship(page, name, ahead_of(facing, at))
    error = page.locator(".message.error").inner_text()
    assert "[rule: fire-window]" in error and "fire, hold or pass first" in error
    assert ship_at(page, name).get_attribute("data-hex") == at and version(page) == before


def turn_costs_shown(page, server, game_id: str, token: str, name: str, way: str) -> None:
    """The ship's helm: its turns with their cost (+1 into the wind), the hex ahead with its point."""
    commit_planned(page)
    select_by_keyboard(page, name)
    ship = ship_json(detail(server, game_id, token), name)
    turn = detail(server, game_id, token)["notes"]["helm"][name]["turns"][way]
    to = DIRECTIONS[(DIRECTIONS.index(ship["facing"]) + (5 if way == "port" else 1)) % 6]
    why = f" ({turn['cost'] - 1} + 1 into the wind)" if turn["into_wind"] else ""
    points = f"{turn['cost']} point{'s' if turn['cost'] > 1 else ''}"
    assert f"turn to {way} (to {to}) {points}{why}" in page.locator(".frigate-orders .helm-options").inner_text()
    assert page.locator(f'.board-svg .helm-target[data-helm="{way}"] text').text_content() == (
        f"{way} {turn['cost']} pt{'s' if turn['cost'] > 1 else ''}"
    )


def select_by_keyboard(page, name: str) -> None:
    if ship_at(page, name).get_attribute("aria-pressed") != "true":
        ship_at(page, name).focus()
        page.keyboard.press("Enter")
        settle(page)
    assert ship_at(page, name).get_attribute("aria-pressed") == "true"


def turn_by_key(page, name: str, way: str) -> None:
    select_by_keyboard(page, name)
    facing = ship_at(page, name).get_attribute("data-facing")
    page.keyboard.press("ArrowLeft" if way == "port" else "ArrowRight")  # the focus came back after the redraw
    settle(page)
    assert (
        ship_at(page, name).get_attribute("data-facing")
        == DIRECTIONS[(DIRECTIONS.index(facing) + (5 if way == "port" else 1)) % 6]
    )


def sail_ahead(page, name: str, drag: bool) -> None:
    """One hex ahead: dragged there, or the ship clicked and then the hex the helm marks ahead."""
    ship = ship_at(page, name)
    ahead = ahead_of(ship.get_attribute("data-facing"), ship.get_attribute("data-hex"))
    if drag:
        drag_ship(page, name, ahead)
    else:
        if ship.get_attribute("aria-pressed") != "true":
            ship.click()
            settle(page)
        target = page.locator('.board-svg .helm-target[data-helm="ahead"]')
        assert target.get_attribute("data-target") == ahead and target.locator("text").text_content() == "ahead 1 pt"
        target.click(force=True)  # where a ship lies there (running afoul), the click reaches her: the same step
        settle(page)
    assert ship_at(page, name).get_attribute("data-hex") == ahead


def to_first_movement(seed: int) -> list[tuple[str, str]]:
    """The duel's decisions up to its first movement segment: every window held, the highest allowance
    declared, the first order of movement given."""
    state = games.get("frigate").new_initial_state("frigate-duel", seed=seed)
    decisions = []
    while state.current_player() == CHANCE or state.stage != "move" or state.windows:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(), player=CHANCE)
            continue
        player = state.acting_players()[0]
        texts = [state.action_to_text(a) for a in state.legal_actions(player)]
        holds, declares = [t for t in texts if t.startswith("hold")], [t for t in texts if t.startswith("declare")]
        pick = (holds or declares[-1:] or texts)[0]
        decisions.append((state.players[player], pick))
        state.apply(state.text_to_action(pick, player), player=player)
    return decisions


def test_a_ship_that_cannot_move_says_why_at_her_helm(page, server):
    created = create(server, "local", DUEL_SEED)
    for seat, text in to_first_movement(DUEL_SEED):
        play_by_api(server, created["id"], created["token"], seat, text)
    open_game(page, server, created["id"], created["token"])
    assert "Movement: blue" in page.inner_text(".frigate-orders")
    # the board in words names the step as the bridge does (it named the mover in every phase before)
    words = page.locator(".board-words p").first.inner_text()
    assert words.startswith("Turn 1 of 15, segment 1 of 4: Movement: blue moves.")
    ship_at(page, "Guerriere").locator(".hull").click()  # red's ship, while blue moves first
    settle(page)
    assert page.locator('[data-idle-of="Guerriere"]').inner_text() == (
        "red is not moving now: blue moves [rule: sequence-of-play]"
    )
    assert page.locator(".frigate-orders .helm-options li").count() == 0
    ship_at(page, "Constitution").locator(".hull").click()  # blue's, who may sail: her steps, and no reason
    settle(page)
    assert page.locator(".frigate-orders .helm-options li").count() > 0
    assert page.locator("[data-idle-of]").count() == 0


def test_against_the_computer_from_the_lobby(page, server):
    start_game(page, server, "frigate", "computer")  # the duel, against greedy
    for _ in range(12):
        wait_for_my_turn(page)
        if page.inner_text("#status").startswith("Game over"):
            break
        buttons = page.locator(".frigate-orders [data-order]:not([disabled])")
        if buttons.count():
            buttons.last.click()  # the highest allowance, hold fire, or the last helm order
        else:
            page.locator("#legal-actions [data-action]").first.click()
        settle(page)
    wait_for_my_turn(page)
    seats = [line.split()[0] for line in page.locator("#moves li").all_inner_texts()]
    assert "blue" in seats and "red" in seats  # the computer (red) answered
    assert page.locator(".board-svg .ship").count() == 2


# --- SiMove: secret declarations and plots ---------------------------------------------------------------------
def test_simove_declarations_and_plots_never_reach_the_other_side_or_a_spectator(browser, server):
    created = create(server, "invite", DUEL_SEED, {"simove": True})
    game_id, blue_token = created["id"], created["token"]
    joined = httpx.post(f"{server.url}/api/games/{game_id}/join", json={"invitation": created["invitations"]["red"]})
    red_token = joined.json()["token"]
    contexts = [browser.new_context(viewport={"width": 1360, "height": 900}) for _ in range(3)]
    try:
        blue, red, spectator = (context.new_page() for context in contexts)
        for page_, token in ((blue, blue_token), (red, red_token), (spectator, None)):
            open_game(page_, server, game_id, token)
        order(blue, "sail Constitution full")
        order(red, "sail Guerriere full")
        commit_planned(red)  # red would declare next: what is planned so far is stored now

        # Blue's declaration is stored, but neither red nor a spectator sees it.
        wait_for_my_turn(blue)
        order(blue, "declare Constitution 8")
        assert "Declared MA 8." in blue.locator('.frigate-orders [data-allowed="Constitution"]').inner_text()
        for page_, token in ((red, red_token), (spectator, None)):
            open_game(page_, server, game_id, token)  # drawn afresh from what the server shows this page
            row = page_.locator('.frigate-orders [data-allowed="Constitution"]').inner_text()
            assert "Not declared yet" in row and "Declared MA" not in row
            assert page_.locator('.frigate-ships [data-ship-row="Constitution"] td').nth(3).inner_text() == "–"
            constitution = ship_json(detail(server, game_id, token), "Constitution")
            assert not constitution["declared"] and constitution["ma"] == 0
        assert ship_json(detail(server, game_id, blue_token), "Constitution")["ma"] == 8
        wait_for_my_turn(red)
        order(red, "declare Guerriere 7")

        # On to the first plot (the initiative winner's order and the opening fire windows: held).
        for _ in range(20):
            view = detail(server, game_id, blue_token)
            if view["state"]["stage"] == "plot":
                break
            seat = view["to_act"][0]
            token = blue_token if seat == "blue" else red_token
            legal = detail(server, game_id, token)["legal"][seat]
            texts = [a["text"] for group in legal for a in group["actions"]]
            api_play(server, game_id, token, seat, next((t for t in texts if t.startswith("hold")), texts[0]))
        assert detail(server, game_id, blue_token)["state"]["stage"] == "plot"

        # Blue plots by clicking the hexes the helm marks; the plot shows on blue's page only.
        blue.reload()
        blue.wait_for_selector(".board-svg.hex-map")
        settle(blue)
        ship_at(blue, "Constitution").click()
        settle(blue)
        plotted = 0
        while blue.locator('.board-svg .helm-target[data-helm="ahead"]').count():
            blue.locator('.board-svg .helm-target[data-helm="ahead"]').click()
            settle(blue)
            plotted += 1
            if not blue.locator("#commit").count() and not blue.inner_text("#status").startswith("Your decision"):
                break
        assert plotted >= 1
        stored = ship_json(detail(server, game_id, blue_token), "Constitution")["plot"]
        assert stored == ["ahead"] * plotted  # committed: blue has nothing more to plot this segment
        blue.wait_for_selector('.board-svg [data-ghost="Constitution"]')
        for page_, token in ((red, red_token), (spectator, None)):
            page_.reload()
            page_.wait_for_selector(".board-svg.hex-map")
            settle(page_)
            assert page_.locator('.board-svg [data-ghost="Constitution"]').count() == 0
            assert "Plotted so far" not in page_.inner_text(".frigate-orders")
            assert ship_json(detail(server, game_id, token), "Constitution")["plot"] == []
            # Nor do the board notes give away where her plot takes her.
            helm = detail(server, game_id, token)["notes"]["helm"].get("Constitution")
            assert helm is None or helm["hex"] == ship_json(detail(server, game_id, token), "Constitution")["hex"]
        assert red.inner_text("#status").startswith("Your decision")
    finally:
        for context in contexts:
            context.close()


# --- names, keyboard and text at 390 px --------------------------------------------------------------------------
def test_at_390_px_text_is_readable_and_every_ship_is_named_and_reachable_by_keyboard(browser, server, tmp_path):
    created = create(server, "local", DUEL_SEED, scenario="fleet-battle")
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        page_ = context.new_page()
        open_game(page_, server, created["id"], created["token"])
        sizes = svg_text_sizes(page_)
        assert sizes and min(sizes) >= 12
        ships = page_.locator(".board-svg .ship")
        count = ships.count()
        assert count >= 16
        for index in range(count):
            ship = ships.nth(index)
            label = ship.get_attribute("aria-label")
            named = r"\S.*, (blue|red); \d+-gun .+; at \d{4} facing (N|NE|SE|S|SW|NW); hits: hull \d+ of \d+"
            assert re.match(named, label)
            assert ship.get_attribute("tabindex") == "0" and ship.locator("title").text_content() == label
        first = ships.first.get_attribute("data-piece")
        ships.first.focus()
        page_.keyboard.press("Enter")
        settle(page_)
        assert ship_at(page_, first).get_attribute("aria-pressed") == "true"
        assert page_.evaluate("document.activeElement.dataset.piece") == first
        page_.screenshot(path=str(tmp_path / "frigate-390.png"))
    finally:
        context.close()


def test_on_a_phone_the_map_fits_the_screen_at_a_keypress_and_goes_back_to_reading_size(browser, server):
    """The fleet battle's map is wider than a 390 px screen: fitted, every ship is in sight without scrolling."""
    created = create(server, "local", DUEL_SEED, scenario="fleet-battle")
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    frame = ".frigate-scroll"

    def ships_in_sight() -> int:
        return page_.evaluate(
            """(frame) => {
                const box = document.querySelector(frame).getBoundingClientRect();
                return [...document.querySelectorAll('.board-svg .ship .hull')].filter((hull) => {
                    const at = hull.getBoundingClientRect();
                    return at.left >= box.left - 1 && at.right <= box.right + 1;
                }).length;
            }""",
            frame,
        )

    try:
        page_ = context.new_page()
        open_game(page_, server, created["id"], created["token"])
        ships = page_.locator(".board-svg .ship").count()
        scrolls = page_.evaluate(f"document.querySelector('{frame}').scrollWidth")
        assert scrolls > 390 and ships_in_sight() < ships
        fit = page_.locator('button[data-view="fit"]')
        assert fit.get_attribute("aria-pressed") == "false"
        fit.focus()
        page_.keyboard.press("Enter")
        assert fit.get_attribute("aria-pressed") == "true"
        assert page_.evaluate("document.activeElement.dataset.view") == "fit"
        assert page_.evaluate(f"document.querySelector('{frame}').scrollWidth") <= 390
        assert ships_in_sight() == ships
        page_.keyboard.press("Enter")
        assert fit.get_attribute("aria-pressed") == "false"
        assert min(svg_text_sizes(page_)) >= 12
        # The hexes' names are drawn for the eye: a screen reader hears the ships, not a hundred numbers.
        assert not re.search(r"^\s*- text: .*\b\d{4}\b", page_.locator(".board-svg.hex-map").aria_snapshot(), re.M)
    finally:
        context.close()


# --- axe-core -------------------------------------------------------------------------------------------------
def axe_violations(page) -> list[dict[str, Any]]:
    """axe-core's findings on the Frigate drawing (the map, the orders, the ships' table)."""
    return axe_findings(page, ".frigate")


def test_axe_finds_nothing_wrong_in_any_step_of_a_turn(page, server):
    """Sail, the declaration, an order, movement with a ship chosen, a raking fire window, a SiMove plot."""
    created = create(server, "local", RAKE_SEED)
    game_id, token = created["id"], created["token"]
    looked: list[str] = []

    def look(what: str) -> None:
        open_game(page, server, game_id, token)
        found = axe_violations(page)
        assert not found, f"{what}: {found}"
        looked.append(what)

    look("sail")
    for seat, text in steered_to(RAKE_SEED, raking_window, keep=1, declare=lambda count: count // 2):
        stage = detail(server, game_id, token)["state"]
        kind = stage["phase"] if stage["phase"] != "segment" else stage["stage"]
        if kind not in looked and kind in ("declare", "order", "move"):
            look(kind)
            if kind == "move":
                ship_at(page, text.split()[1]).click()
                settle(page)
                assert page.locator(".board-svg .helm-target").count()
                assert not axe_violations(page)
        api_play(server, game_id, token, seat, text)
    look("raking fire window")
    assert looked == ["sail", "declare", "order", "move", "raking fire window"]

    simove = create(server, "local", DUEL_SEED, {"simove": True})
    game_id, token = simove["id"], simove["token"]
    for _ in range(20):
        view = detail(server, game_id, token)
        if view["state"]["stage"] == "plot":
            break
        texts = [a["text"] for group in view["legal"][view["to_act"][0]] for a in group["actions"]]
        api_play(server, game_id, token, view["to_act"][0], next((t for t in texts if t.startswith("hold")), texts[0]))
    open_game(page, server, game_id, token)
    ship_at(page, "Constitution").click()
    settle(page)
    page.locator('.board-svg .helm-target[data-helm="ahead"]').click(force=True)
    settle(page)
    assert page.locator('.board-svg [data-ghost="Constitution"]').count() == 1
    assert not axe_violations(page)
