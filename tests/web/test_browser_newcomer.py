"""Issue 12's browser points, played in a real Chromium the way a newcomer would: the result of a
volley shown as it lands, target markers above the pieces they aim at, a plain game-over with a
rematch, the invitee told their side on a board turned their way, the computer's "thinking" sign,
buttons named for what they do, a draw offer shown at once, and the opponent's whole turn marked.

Fixtures (a real server process, Debian's Chromium) come from tests/web/test_browser.py.
"""

from __future__ import annotations

import httpx

from tests.web import test_browser as shared
from tests.web.conftest import ServerProcess
from tests.web.test_browser import (
    axe_findings,
    click_action,
    click_piece,
    click_square,
    create_game,
    game_detail,
    open_game,
    play_by_api,
    settle,
    start_game,
    wait_for_my_turn,
)

# The fixtures of test_browser.py: a real server process, Debian's Chromium, a page that fails on script errors.
server, browser, page = shared.server, shared.browser, shared.page

# Square Rigger's duel, seed 1: Bellona (blue) closes, Achille (red) answers and fires 2 at her.
DUEL_OPENING = [
    ("blue", "move Bellona e5 NE"),
    ("blue", "end-move"),
    ("red", "move Achille f6 S"),
    ("red", "end-move"),
    ("red", "fire Achille stbd-bow 2 at Bellona"),
    ("red", "end-fire"),
]


def duel_with_a_friend(server: ServerProcess) -> tuple[str, dict[str, str]]:
    """The duel between two people: (game id, each seat's token)."""
    created = create_game(server, "square-rigger", "invite", scenario="duel", seed=1)
    joined = httpx.post(
        f"{server.url}/api/games/{created['id']}/join", json={"invitation": created["invitations"]["red"]}
    )
    assert joined.status_code == 200, joined.text
    return created["id"], {"blue": created["token"], "red": joined.json()["token"]}


def play_all(server: ServerProcess, game_id: str, tokens: dict[str, str], moves: list[tuple[str, str]]) -> None:
    for seat, text in moves:
        play_by_api(server, game_id, tokens[seat], seat, text)


# --- 1: the volley's result as it lands ------------------------------------------------------------------
def test_the_volley_is_shown_to_the_attacker_as_it_lands_and_kept_in_the_log(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING)
    open_game(page, server, game_id, tokens["red"])  # red waits for blue's defence
    play_all(server, game_id, tokens, [("blue", "defend Bellona fore 1"), ("blue", "end-defence")])
    page.wait_for_selector('#news li[data-kind="hit"]')
    news = page.locator("#news li").all_inner_texts()
    assert news == [
        "Achille fires 2 off the stbd-bow at Bellona (effect 2)",
        "Bellona defends 1 off the fore",
        "Bellona takes 1 hit off the fore, now F2 S2 T2",
    ]
    hit = page.locator('#news li[data-kind="hit"]')
    assert "result" in hit.get_attribute("class") and "fresh" in hit.get_attribute("class")
    assert hit.locator("strong").count() == 1  # not by colour alone
    assert axe_findings(page, ".game-page") == []
    assert page.locator('.board-svg .hit-label[data-hit="Bellona"]').text_content() == "−1 hit (fore)"
    # Blue sails on: the volley stays shown until the next one lands, and the log keeps it.
    play_all(server, game_id, tokens, [("blue", "move Bellona f4 SE"), ("blue", "end-move")])
    page.wait_for_function("document.querySelector('#moves').textContent.includes('move Bellona f4 SE')")
    assert page.locator('#news li[data-kind="hit"]').count() == 1
    kept = page.locator('#events li.result[data-kind="hit"]')
    assert kept.inner_text().endswith("Bellona takes 1 hit off the fore, now F2 S2 T2")


# --- 2: target markers above the pieces --------------------------------------------------------------------
def test_a_target_marker_is_a_ring_drawn_above_the_ship_it_aims_at(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:4])
    open_game(page, server, game_id, tokens["red"])
    click_piece(page, "Achille")
    marker = page.locator('.board-svg [data-target="e5"]')  # Bellona's square
    assert marker.count() == 1
    assert marker.get_attribute("fill") == "none"  # a ring: the ship stays visible inside it
    drawn_after = marker.evaluate(
        """(mark) => {
            const ship = document.querySelector('.board-svg .piece[data-piece="Bellona"]');
            return Boolean(ship.compareDocumentPosition(mark) & Node.DOCUMENT_POSITION_FOLLOWING);
        }"""
    )
    assert drawn_after, "the marker must be painted over Bellona, not under her"
    # An empty square's marker is drawn the same way and the click still reaches the square beneath.
    click_square(page, "e5")
    assert page.locator('.choices [data-action="fire Achille stbd-bow 2 at Bellona"]').count() == 1


# --- 12: the end said plainly, a rematch, the record -------------------------------------------------------
def test_game_over_says_who_won_and_why_offers_a_rematch_with_sides_swapped_and_the_record(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:2])
    open_game(page, server, game_id, tokens["blue"])
    resigned = httpx.post(
        f"{server.url}/api/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens['red']}"}, json={}
    )
    assert resigned.status_code == 200, resigned.text
    page.wait_for_selector("#game-over")
    reason = game_detail(server, game_id)["view"]["outcome"]["reason"]
    assert page.inner_text("#status") == f"Game over: you won ({reason})"
    assert page.inner_text("#game-over h3") == "You won"
    assert f"Why: {reason}." in page.inner_text("#game-over")
    assert axe_findings(page, ".game-page") == []
    with page.expect_download() as download:
        page.click("#download-record")
    assert download.value.suggested_filename == f"square-rigger-{game_id}.qdr"
    record = open(download.value.path(), encoding="utf-8").read()
    assert '[Game "square-rigger"]' in record and "move Bellona e5 NE" in record
    page.click("#rematch")
    page.wait_for_function(f"location.pathname !== '/game/{game_id}'")
    page.wait_for_selector(".board-svg")
    settle(page)
    rematch_id = page.evaluate("location.pathname.split('/').pop()")
    rematch = game_detail(server, rematch_id)["view"]
    assert (rematch["game"], rematch["scenario"]) == ("square-rigger", "duel")
    assert rematch["players"] == {"blue": "invited", "red": "human"}  # the winner of blue now sails red
    assert "#invite=" in page.locator(".invite-link").input_value()  # the friend's link for blue
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#game-over")
    assert page.inner_text("#game-over h3") == "You lost"


def test_at_one_screen_the_game_over_names_the_winning_side(page, server):
    start_game(page, server, "pirate-chess", "local")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")  # blue, whose turn it is, resigns
    page.wait_for_selector("#game-over")
    assert page.inner_text("#game-over h3") == "Red won"


# --- 11: the invitee's side, and the board turned their way ---------------------------------------------
def screen_y(page, piece: str) -> float:
    return shared.box_on_screen(page.locator(f'.board-svg .piece[data-piece="{piece}"]'))["y"]


def test_the_invitee_is_told_their_side_and_sees_the_board_from_it(browser, server):
    created = create_game(server, "square-rigger", "invite", scenario="duel", seed=1)
    friend_context = browser.new_context(viewport={"width": 1360, "height": 900})
    try:
        friend = friend_context.new_page()
        friend.goto(f"{server.url}/game/{created['id']}#invite={created['invitations']['red']}")
        friend.wait_for_selector(".board-svg")
        settle(friend)
        assert "you play red" in friend.inner_text(".message.info")
        assert friend.inner_text("#your-side") == "You play red."
        # Red's Achille (h8) sails at the bottom of red's screen, blue's Bellona (c3) at the top.
        assert screen_y(friend, "Achille") > screen_y(friend, "Bellona")
        assert friend.locator("#flip-board").get_attribute("aria-pressed") == "true"
        friend.click("#flip-board")
        assert screen_y(friend, "Achille") < screen_y(friend, "Bellona")
        friend.reload()  # the choice is kept
        friend.wait_for_selector(".board-svg")
        settle(friend)
        assert screen_y(friend, "Achille") < screen_y(friend, "Bellona")
        friend.click("#flip-board")
        # The keyboard follows the board as it is seen: a1 is red's top left corner, and down goes down.
        friend.focus(".board")
        friend.keyboard.press("ArrowDown")
        start = shared.box_on_screen(friend.locator(".board-svg .cursor"))["y"]
        friend.keyboard.press("ArrowDown")
        friend.wait_for_function(  # the cursor goes down the screen (waits for the redraw)
            "start => document.querySelector('.board-svg .cursor').getBoundingClientRect().y > start", arg=start
        )
    finally:
        friend_context.close()


def test_the_host_and_a_spectator_see_the_board_from_the_first_side(page, server):
    created = create_game(server, "square-rigger", "invite", scenario="duel", seed=1)
    open_game(page, server, created["id"], created["token"])
    assert page.inner_text("#your-side") == "You play blue."
    assert screen_y(page, "Achille") < screen_y(page, "Bellona")
    page.evaluate("localStorage.clear()")
    open_game(page, server, created["id"], None)
    assert page.inner_text("#your-side") == "You are watching."
    assert screen_y(page, "Achille") < screen_y(page, "Bellona")


# --- 8: a sign of life while the computer thinks -------------------------------------------------------------
def test_while_the_computer_thinks_the_page_says_so_with_its_level_and_budget(page, server):
    created = create_game(server, "square-rigger", "computer", scenario="duel", level="ai", seed=2)
    open_game(page, server, created["id"], created["token"])
    assert page.locator("#thinking").count() == 0  # blue, the person, opens
    click_piece(page, "Bellona")
    click_square(page, "e5")
    page.locator('.choices [data-action="move Bellona e5 NE"]').click()
    settle(page)
    click_action(page, "end-move")  # red, the computer, moves and fires: several decisions of up to 1 s
    thinking = page.locator("#thinking")
    assert "ai: level 3 of 5, the game's own search, up to 1 s a decision" in thinking.inner_text()
    assert thinking.inner_text().startswith("The computer (red) is thinking")
    assert axe_findings(page, ".side") == []
    wait_for_my_turn(page)
    assert page.locator("#thinking").count() == 0
    assert game_detail(server, created["id"])["view"]["computers"] == {
        "red": {"spec": "ai", "about": "ai: level 3 of 5, the game's own search, up to 1 s a decision", "seconds": 1.0}
    }


# --- 7: buttons named for what they do, and what is still to do ---------------------------------------------
def test_the_buttons_say_what_they_do_and_the_page_what_is_still_to_do(page, server):
    start_game(page, server, "square-rigger", "local")  # the duel, at one screen
    end_move = page.locator('#legal-actions [data-action="end-move"]')
    assert end_move.inner_text() == "End the move phase (end-move)"
    assert page.inner_text("#still-to-do") == (
        "Still to do (blue): choose your actions, then “End the move phase (end-move)”. "
        "Your turn is sent by itself when its last phase ends."
    )
    click_piece(page, "Bellona")
    click_square(page, "e5")
    page.locator('.choices [data-action="move Bellona e5 NE"]').click()
    settle(page)
    assert page.inner_text("#commit") == "Send this decision now"
    assert axe_findings(page, ".side") == []
    assert page.inner_text("#still-to-do").endswith("Until then you may take back anything planned.")
    click_action(page, "end-move")  # the turn passes to red by itself
    wait_for_my_turn(page)
    assert page.inner_text("#status") == "Your decision (red)"
    assert page.locator("#commit").count() == 0
    click_piece(page, "Achille")
    click_square(page, "f6")
    page.locator('.choices [data-action="move Achille f6 S"]').click()
    settle(page)
    click_action(page, "end-move")  # red fires next: the same turn goes on
    assert page.locator('#legal-actions [data-action="end-fire"]').inner_text() == "End the fire phase (end-fire)"
    assert page.inner_text("#commit") == "Send these 2 decisions now"


# --- 4: a draw offer shown at once ------------------------------------------------------------------------------
def test_a_draw_offer_is_shown_at_once_while_a_turn_is_being_planned(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:2])
    open_game(page, server, game_id, tokens["red"])
    click_piece(page, "Achille")
    click_square(page, "f6")
    page.locator('.choices [data-action="move Achille f6 S"]').click()
    settle(page)
    assert page.locator(".pending li").count() == 1  # planned, not sent
    offered = httpx.post(
        f"{server.url}/api/games/{game_id}/draw",
        headers={"Authorization": f"Bearer {tokens['blue']}"},
        json={"answer": "offer"},
    )
    assert offered.status_code == 200, offered.text
    page.wait_for_selector("#accept-draw")
    assert page.inner_text("#draw-offer").startswith("blue offers a draw.")
    assert page.locator(".pending li").count() == 1  # the plan is kept
    assert axe_findings(page, ".side") == []
    page.click("#accept-draw")
    page.wait_for_selector("#game-over")
    assert page.inner_text("#game-over h3") == "A draw"


# --- 3: the opponent's whole last turn marked ----------------------------------------------------------------
def trail(page) -> list[str]:
    return sorted(page.locator(".board-svg .last-turn").evaluate_all("(arrows) => arrows.map((a) => a.dataset.trail)"))


def marked_squares(page) -> list[str]:
    return sorted(page.locator(".board-svg .last-square").evaluate_all("(marks) => marks.map((m) => m.dataset.last)"))


def test_the_opponents_whole_last_turn_stays_marked_until_the_next_starts(page, server):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:2])
    open_game(page, server, game_id, tokens["blue"])
    play_all(server, game_id, tokens, DUEL_OPENING[2:])  # red's turn: a move, then a broadside
    page.wait_for_function("document.querySelector('#status').textContent === 'Your decision (blue)'")
    assert trail(page) == ["fired Achille>Bellona", "moved Achille"]
    assert marked_squares(page) == ["f6", "h8"]
    assert axe_findings(page, ".board") == []
    click_piece(page, "Bellona")  # planning the defence changes nothing stored: red's turn stays marked
    page.locator('#legal-actions [data-action="defend Bellona fore 1"]').click()
    settle(page)
    assert trail(page) == ["fired Achille>Bellona", "moved Achille"]
    click_action(page, "end-defence")
    page.click("#commit")  # blue's turn starts in the record: red's is no longer marked
    settle(page)
    assert "moved Achille" not in trail(page)
    assert page.locator('.board-svg .hit-label[data-hit="Bellona"]').count() == 1
