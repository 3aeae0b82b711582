"""Issue 12's remaining browser points, played in a real Chromium the way a newcomer would: the
lobby's opponents by name with their strength and time per move, scenario options as form fields
and the whole briefing (9); the rules of each game and a line on the phase (10); the move list by
turn, stepped through during play (13); the phone's width (6); the boards' ships and legends (5);
a saved record imported from the lobby (14).

Fixtures (a real server process, Debian's Chromium) come from tests/web/test_browser.py.
"""

from __future__ import annotations

import httpx

from quarterdeck.games.square_rigger.terminal import PHASE_HELP as SQUARE_RIGGER_PHASES
from tests.web import test_browser as shared
from tests.web.test_browser import (
    axe_findings,
    choose,
    click_action,
    click_piece,
    click_square,
    create_game,
    game_detail,
    open_game,
    settle,
    start_game,
    svg_text_sizes,
    wait_for_my_turn,
)
from tests.web.test_browser_newcomer import DUEL_OPENING, duel_with_a_friend, play_all

# The fixtures of test_browser.py: a real server process, Debian's Chromium, a page that fails on script errors.
server, browser, page = shared.server, shared.browser, shared.page


def start_from_the_lobby(page) -> str:
    """Start the game the lobby's form describes; its id once its board is drawn."""
    page.click("#start-game")
    page.wait_for_selector(".board-svg")
    settle(page)
    return page.evaluate("location.pathname.split('/').pop()")


def catalogue(server) -> dict:
    response = httpx.get(f"{server.url}/api/catalogue")
    assert response.status_code == 200, response.text
    return response.json()


def words(text: str) -> str:
    return " ".join(text.split())


# --- 9: opponents by name, options as fields, the whole briefing ---------------------------------------------
def test_the_lobby_names_each_opponent_with_its_strength_and_time_per_move(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    labels = page.locator("#level-select option").all_inner_texts()
    assert labels[:7] == [
        "random: the weakest: for learning the moves",
        "greedy: weak: takes what it sees, never looks further",
        "ai:1: level 1 of 5: easy",
        "ai:2: level 2 of 5: fair",
        "ai:3: level 3 of 5: good",
        "ai:4: level 4 of 5: strong",
        "ai:5: level 5 of 5: the strongest",
    ]
    assert page.inner_text("#level-about") == "Weak: takes what it sees, never looks further. Moves at once."
    page.select_option("#level-select", "ai:5")
    assert page.inner_text("#level-about") == "Level 5 of 5: the strongest. Thinks up to 5 s a move."
    assert page.locator("#import-level option").all_inner_texts() == labels  # playing on from a record too
    page.select_option("#game-select", "naval-warfare")  # a game that measured its top levels no stronger
    assert page.inner_text("#level-about").startswith(
        "Level 5 of 5: the strongest. Thinks up to 5 s a move. "
        "Measured in this game, it plays no stronger than level 3"
    )
    page.select_option("#level-select", "ai:2")
    assert page.inner_text("#level-about") == (
        "Level 2 of 5: fair. Thinks up to 0.25 s a move. In this game it slips on 20% of its decisions.")
    assert axe_findings(page, ".lobby") == []


def test_the_lobby_lists_public_games_in_a_table_a_screen_reader_can_read(page, server):
    created = httpx.post(f"{server.url}/api/games", json={"game": "pirate-chess", "opponent": "local", "public": True})
    assert created.status_code == 201, created.text
    page.goto(server.url + "/")
    page.wait_for_selector(".games-table")
    headers = page.locator(".games-table th").all_inner_texts()
    assert all(text.strip() for text in headers), headers  # every column is named, the links' too
    assert axe_findings(page, ".lobby") == []


def test_a_computer_at_a_named_level_is_the_one_that_plays(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#game-select", "pirate-chess")
    page.select_option("#level-select", "ai:1")
    game_id = start_from_the_lobby(page)
    assert game_detail(server, game_id)["view"]["players"] == {"blue": "human", "red": "computer:ai:1"}


def test_scenario_options_are_form_fields_holding_their_defaults_and_the_briefing_is_whole(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    assert page.locator("textarea").count() == 0  # no raw JSON box
    page.select_option("#game-select", "naval-warfare")
    page.select_option("#scenario-select", "armada")
    assert page.locator("#option-towing").is_hidden()  # folded until asked for
    assert page.get_attribute("#scenario-options-toggle", "aria-expanded") == "false"
    page.click("#scenario-options-toggle")
    assert page.get_attribute("#scenario-options-toggle", "aria-expanded") == "true"
    naval = next(g for g in catalogue(server)["games"] if g["name"] == "naval-warfare")
    armada = next(s for s in naval["scenarios"] if s["name"] == "armada")
    assert words(page.inner_text("#briefing")) == words(armada["briefing"])  # every word, nothing cut
    assert page.locator("#option-jury-masts").is_checked()  # the scenario's default
    assert not page.locator("#option-towing").is_checked()
    assert page.locator("#scenario-options input").count() == len(armada["options"])
    page.select_option("#game-select", "pirate-chess")
    assert page.locator("#option-size").input_value() == "8"
    page.select_option("#scenario-select", "large")
    assert page.locator("#option-size").input_value() == "10"
    page.select_option("#scenario-select", "standard")
    page.select_option("#game-select", "naval-warfare")
    page.select_option("#scenario-select", "armada")
    page.uncheck("#option-jury-masts")
    page.check("#option-towing")
    page.check("input[name=opponent][value=local]")
    assert axe_findings(page, ".lobby") == []
    game_id = start_from_the_lobby(page)
    # Only what was changed is sent, and the game is made with it.
    assert game_detail(server, game_id)["view"]["options"] == {"jury-masts": False, "towing": True}


NAMES = "list => [...list.options].map((option) => option.value)"  # the names a <select> offers


def test_each_option_says_what_it_does_and_an_option_of_a_few_names_is_a_list(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#game-select", "frigate")
    page.select_option("#scenario-select", "sister-frigates")
    page.click("#scenario-options-toggle")
    frigate = next(g for g in catalogue(server)["games"] if g["name"] == "frigate")
    duel = next(s for s in frigate["scenarios"] if s["name"] == "sister-frigates")
    for name, note in duel["notes"].items():  # each read out with its field
        described = page.get_attribute(f"#option-{name}", "aria-describedby")
        assert page.inner_text(f"#{described}") == note
    assert "Fresh wind" in page.inner_text("#option-sagging-note")
    assert page.eval_on_selector("#option-wind_table", NAMES) == ["standard", "optional"]
    assert page.input_value("#option-turns") == "15"  # the scenario's own length
    page.select_option("#game-select", "napoleonic-chess")
    page.select_option("#scenario-select", "attack-at-dawn")  # no squares for a fixed deployment
    assert page.eval_on_selector("#option-deployment", NAMES) == ["secret", "alternate"]
    page.select_option("#game-select", "frigate")
    page.select_option("#scenario-select", "sister-frigates")
    page.select_option("#option-wind_table", "optional")
    page.check("input[name=opponent][value=local]")
    assert axe_findings(page, ".lobby") == []
    game_id = start_from_the_lobby(page)
    assert game_detail(server, game_id)["view"]["options"] == {"wind_table": "optional"}


def test_the_seats_offered_are_the_scenarios_own_and_say_who_they_command(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#game-select", "naval-warfare")
    assert page.eval_on_selector("#seat-select", NAMES) == ["english", "spanish"]  # the Armada
    page.select_option("#scenario-select", "single-ship-action")
    assert page.eval_on_selector("#seat-select", NAMES) == ["british", "french"]
    assert page.inner_text("#seat-select option[value=french]") == "french: Pique"
    page.select_option("#seat-select", "french")
    page.select_option("#level-select", "random")
    game_id = start_from_the_lobby(page)
    assert game_detail(server, game_id)["view"]["players"] == {"british": "computer:random", "french": "human"}
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#game-select", "frigate")
    assert page.inner_text("#seat-select option[value=blue]") == "blue: United States Navy: Constitution"


def test_a_bad_option_is_refused_with_its_name_and_no_game_is_made(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#game-select", "pirate-chess")
    page.click("#scenario-options-toggle")
    page.fill("#option-size", "3")
    page.check("input[name=opponent][value=local]")
    before = page.url
    page.click("#start-game")
    page.wait_for_selector(".lobby .message.error")
    assert "size" in page.inner_text(".lobby .message.error")
    assert page.url == before


# --- 10: the rules of each game, and a line on what the phase asks ------------------------------------------
def test_the_rules_panel_shows_the_games_reference_served_by_the_server(page, server):
    start_game(page, server, "square-rigger", "local")
    assert page.locator("#rules-text").is_hidden()  # closed until asked for
    assert page.inner_text("#rules summary") == "The rules of Square Rigger Chess"
    page.click("#rules summary")
    page.wait_for_selector("#rules[data-loaded]")
    assert page.get_attribute("#rules", "data-loaded") == "docs/rules/square-rigger.md"
    assert page.inner_text("#rules-text h2") == "Square Rigger Chess: rules reference"
    assert page.locator("h1").count() == 1  # the reference's headings sit under the game's title
    assert page.locator("#rules-text table").count() >= 1  # the ship classes' factors, as a table
    assert "1st Rater" in page.inner_text("#rules-text")
    assert axe_findings(page, ".side") == []
    # The panel stays open across the redraws a move brings.
    click_piece(page, "Bellona")
    click_square(page, "e5")
    choose(page, "move Bellona e5 NE")
    assert page.locator("#rules-text").is_visible()
    # Every game has its own reference; an unknown game is refused naming the field.
    for game in ("pirate-chess", "napoleonic-chess", "naval-warfare", "frigate"):
        rules = httpx.get(f"{server.url}/api/rules/{game}").json()
        assert rules["source"] == f"docs/rules/{game}.md" and rules["html"].startswith("<h2>")
    refused = httpx.get(f"{server.url}/api/rules/draughts")
    assert refused.status_code == 422 and refused.json()["field"] == "game"
    start_game(page, server, "naval-warfare", "local")  # a title that names its rules already
    assert page.inner_text("#rules summary") == "Rules for Naval Warfare 1500-1850"


def phase_line(page) -> str:
    return page.inner_text("#phase-help")


def test_a_line_says_what_the_phase_asks_and_changes_with_the_phase(page, server):
    start_game(page, server, "square-rigger", "local")  # the duel, at one screen
    moving = phase_line(page)
    assert moving == f"This phase: {SQUARE_RIGGER_PHASES['move']}"
    # the live log says it too, as a sentence: "Your decision (blue). Move any of your ships ..."
    said = [line for line in page.locator("#said p").all_inner_texts() if line.startswith("Your decision")]
    assert said[-1] == f"Your decision (blue). M{SQUARE_RIGGER_PHASES['move'][1:]}"
    click_piece(page, "Bellona")
    click_square(page, "e5")
    choose(page, "move Bellona e5 NE")
    click_action(page, "end-move")
    wait_for_my_turn(page)
    assert phase_line(page) == moving  # red's move phase
    click_piece(page, "Achille")
    click_square(page, "f6")
    choose(page, "move Achille f6 S")
    click_action(page, "end-move")  # red's fire phase, still being planned
    assert phase_line(page) == f"This phase: {SQUARE_RIGGER_PHASES['fire']}"
    assert axe_findings(page, ".side") == []
    page.evaluate("localStorage.clear()")  # a spectator is asked nothing
    page.reload()
    page.wait_for_selector(".board-svg")
    assert page.locator("#phase-help").count() == 0


# --- 13: the moves by turn, and stepping through the game during play -------------------------------------
def test_the_moves_are_grouped_by_turn_with_their_numbers_in_full(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING)
    open_game(page, server, game_id, tokens["blue"])
    # one turn of the game holds both sides' moves: the list counts turns as the game does
    assert page.locator("#moves .turn-head").all_inner_texts() == ["Turn 1: blue", "Turn 1: red"]
    assert page.locator("#moves .turn").nth(1).locator("li").all_inner_texts() == [
        "red move Achille f6 S",
        "red end-move",
        "red fire Achille stbd-bow 2 at Bellona",
        "red end-fire",
    ]
    numbers = page.locator("#moves li").evaluate_all(
        """(items) => items.map((li) => {
            const list = document.querySelector('#moves').getBoundingClientRect();
            const box = li.getBoundingClientRect();
            return [getComputedStyle(li, '::before').content, box.left >= list.left && box.right <= list.right];
        })"""
    )
    assert numbers == [[f'"{n}."', True] for n in range(1, 7)]  # every number drawn, inside the list
    assert "last" in page.locator('#moves li[data-number="6"]').get_attribute("class")
    assert axe_findings(page, ".side") == []


def achille_square(page) -> str:
    return page.locator('.board-svg .piece[data-piece="Achille"]').get_attribute("data-square")


def test_stepping_back_during_play_shows_the_position_and_changes_nothing(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING)
    open_game(page, server, game_id, tokens["blue"])
    click_piece(page, "Bellona")
    page.locator('#legal-actions [data-action="defend Bellona fore 1"]').click()  # a plan, not yet sent
    settle(page)
    assert achille_square(page) == "f6"
    page.click('#moves li[data-number="2"] button')  # after blue's first turn: Achille still at h8
    settle(page)
    assert achille_square(page) == "h8"
    assert page.inner_text("#replay-at") == "move 2 of 6"
    assert page.inner_text("#looking-back").startswith("You are looking at the game after move 2 of 6")
    assert page.locator("#legal-actions").count() == 0  # nothing can be played from the past
    assert "last" in page.locator('#moves li[data-number="2"]').get_attribute("class")
    assert axe_findings(page, ".side") == []
    page.focus("#replay-forward")  # by keyboard, one move on
    page.keyboard.press("Enter")
    settle(page)
    assert achille_square(page) == "f6" and page.inner_text("#replay-at") == "move 3 of 6"
    page.click("#replay-start")
    settle(page)
    assert page.inner_text("#replay-at") == "move 0 of 6"
    assert game_detail(server, game_id)["view"]["version"] == 6  # nothing stored, nothing undone
    page.click("#back-to-game")
    assert page.locator("#looking-back").count() == 0 and page.inner_text("#replay-at") == "move 6 of 6"
    assert page.locator(".pending li").count() == 1  # the plan was kept
    assert page.inner_text("#replay-end") == "Now"
    click_action(page, "end-defence")
    page.click("#commit")
    settle(page)
    assert game_detail(server, game_id)["view"]["version"] > 6


def test_after_the_game_the_steps_are_named_in_words(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:2])
    resigned = httpx.post(
        f"{server.url}/api/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens['red']}"}, json={}
    )
    assert resigned.status_code == 200
    open_game(page, server, game_id, tokens["blue"])
    labels = page.locator("#replay button").all_inner_texts()
    assert labels == ["Start", "◀ Back", "Next ▶", "End"]  # no ⏮ ⏭, which the fonts lack
    page.click("#replay-start")
    settle(page)
    assert page.locator('.board-svg .piece[data-piece="Bellona"]').get_attribute("data-square") == "c3"
    page.click("#replay-end")
    settle(page)
    assert page.inner_text("#replay-at") == "move 3 of 3"


# --- 6: a phone, 390 px wide ----------------------------------------------------------------------------------
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_on_a_phone_the_lobby_fits_and_a_large_board_opens_readable_and_pans(browser, server):
    create_game(server, "square-rigger", "local", scenario="fleet-battle", seed=1, public=True)  # listed in the lobby
    context, page, errors = phone(browser)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#start-game")
        page.wait_for_selector(".games-table")
        page.select_option("#game-select", "naval-warfare")
        assert sideways(page) == 0
        created = create_game(server, "square-rigger", "local", scenario="fleet-battle", seed=1)
        open_game(page, server, created["id"], created["token"])
        assert sideways(page) == 0  # the page never scrolls sideways: the board pans in its frame
        board = page.locator(".board")
        assert board.bounding_box()["width"] >= 370  # the board takes the width
        assert min(svg_text_sizes(page)) >= 11.9  # opened at a scale where its text reads
        frame = board.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
        assert frame[0] > frame[1]  # and pans
        assert axe_findings(page, ".board-column") == []
        square = page.locator('.board-svg rect.square[data-square="a1"]').bounding_box()["width"]
        page.click("#zoom-fit")  # the whole board, to see the battle at once
        assert page.locator('.board-svg rect.square[data-square="a1"]').bounding_box()["width"] < square / 2
        assert board.evaluate("(b) => b.scrollWidth <= b.clientWidth")
        page.click("#zoom-in")
        assert board.evaluate("(b) => b.scrollWidth > b.clientWidth")
        page.locator('.board-svg .piece[data-piece="Victory"]').click()  # pan to a ship, and choose her
        settle(page)
        assert "Actions of Victory" in page.inner_text(".side")
        assert sideways(page) == 0
    finally:
        context.close()
    assert not errors, errors


def test_on_a_phone_the_duel_takes_the_width_with_the_wind_below_the_board(browser, server):
    context, page, errors = phone(browser)
    try:
        created = create_game(server, "square-rigger", "local", scenario="duel", seed=1)
        open_game(page, server, created["id"], created["token"])
        page.click("#zoom-fit")
        rose = page.locator(".board-svg .wind-rose, .board-svg .side-note").first.bounding_box()
        last_rank = page.locator('.board-svg rect.square[data-square="a1"]').bounding_box()
        assert rose["y"] > last_rank["y"] + last_rank["height"]  # below the board, not beside it
        square = last_rank["width"]
        assert square * 10 >= 340  # ten squares fill the width
    finally:
        context.close()
    assert not errors, errors
