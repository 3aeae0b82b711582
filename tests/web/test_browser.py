"""Browser tests in a real Chromium (Debian's, driven by playwright): a short game of each game
played through the page by clicking, Square Rigger fire and the optimal defence, Napoleonic attack
totals, a friend joining by invitation link, and a screenshot of each board: into a temporary
folder, or into QUARTERDECK_SCREENSHOTS where that is set (`make screenshots` sets it to
docs/screenshots/ for the README), so that a test run never changes the tracked tree.

Chromium comes from QUARTERDECK_CHROMIUM or /usr/bin/chromium (scripts/ci-services.sh installs it);
playwright's own browser download is never used.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.conftest import ROOT, ServerProcess, missing_service

CHROMIUM = os.environ.get("QUARTERDECK_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(os.environ.get("QUARTERDECK_SCREENSHOTS") or tempfile.mkdtemp(prefix="quarterdeck-screenshots-"))
GAMES = ["pirate-chess", "square-rigger", "napoleonic-chess"]
STEPS = 14
# The short games save the screenshot of these; the others come from the tests of their combat.
SCREENSHOT_FROM_SHORT_GAME = {"pirate-chess"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    database = Path(tmp_path_factory.mktemp("browser")) / "games.sqlite3"
    process = ServerProcess(f"sqlite:///{database}").start()
    yield process
    process.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        missing_service(f"Chromium ({CHROMIUM})")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def settle(page) -> None:
    """Wait until no request of the page is in flight."""
    page.wait_for_selector("body:not([data-busy])", state="attached")


def start_game(page, server: ServerProcess, game: str, opponent: str) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    page.select_option("#game-select", game)
    page.check(f"input[name=opponent][value={opponent}]")
    page.click("#start-game")
    page.wait_for_selector(".board-svg")
    settle(page)


def version(page) -> int:
    return int(page.inner_text(".side .muted").rsplit(" ", 1)[-1])


def play_one_action(page) -> str:
    """Take one decision the way a player would: a piece on the board, then a highlighted square;
    a choice from the list where several actions end there; a button for piece-less actions."""
    settle(page)
    piece_buttons = page.locator("#legal-actions [data-piece-button]")
    if piece_buttons.count():
        piece = piece_buttons.first.get_attribute("data-piece-button")
        token = page.locator(f'.board-svg .piece[data-piece="{piece}"]')
        if page.locator(f'.board-svg .piece.selected[data-piece="{piece}"]').count():
            pass  # chosen already: a second click would put it down again
        elif token.count():
            token.first.click()
        else:
            piece_buttons.first.click()
        settle(page)
        targets = page.locator(".board-svg [data-target]")
        if targets.count():
            square = targets.first.get_attribute("data-target")
            page.locator(f'.board-svg rect.square[data-square="{square}"]').click(force=True)
            settle(page)
            if page.locator(".choices [data-action]").count():
                page.locator(".choices [data-action]").first.click()
                settle(page)
            return f"{piece} to {square}"
    action = page.locator("#legal-actions [data-action]").first
    text = action.get_attribute("data-action", timeout=3000)
    action.click()
    settle(page)
    return text


# --- a game set up and played by HTTP, beside the page ------------------------------------------------------
def create_game(server: ServerProcess, game: str, opponent: str, **body: object) -> dict:
    """A new game (id, token, invitations) with `opponent` "local", "invite" or "computer"."""
    response = httpx.post(f"{server.url}/api/games", json={"game": game, "opponent": opponent, **body})
    assert response.status_code == 201, response.text
    return response.json()


def game_detail(server: ServerProcess, game_id: str, token: str | None = None) -> dict:
    """What the server shows `token`'s seats (none: a spectator): the view and the history."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.get(f"{server.url}/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def play_by_api(server: ServerProcess, game_id: str, token: str, seat: str, text: str) -> None:
    """One decision for `seat`, stored at once (and the dice it calls for thrown)."""
    version = game_detail(server, game_id, token)["view"]["version"]
    response = httpx.post(
        f"{server.url}/api/games/{game_id}/moves",
        headers={"Authorization": f"Bearer {token}"},
        json={"version": version, "actions": [text], "seat": seat},
    )
    assert response.status_code == 200, response.text


def open_game(page, server: ServerProcess, game_id: str, token: str | None, ready: str = ".board-svg") -> None:
    """Open a game's page holding `token`'s seats (none: a spectator), once `ready` is drawn."""
    page.goto(server.url + "/")
    page.wait_for_selector("#start-game")
    if token:
        page.evaluate(
            "([id, token]) => localStorage.setItem('quarterdeck.games', JSON.stringify({[id]: {token}}))",
            [game_id, token],
        )
    page.goto(f"{server.url}/game/{game_id}")
    page.wait_for_selector(ready)
    settle(page)


def axe_findings(page, root: str, tags: list[str] | None = None) -> list[dict]:
    """What axe-core (package.json; scripts/ci-services.sh runs npm ci) finds wrong under `root`: each
    violated rule with its impact and the start of each offending element; with `tags`, only the rules
    so tagged (such as "wcag22aa")."""
    axe = Path(os.environ.get("QUARTERDECK_AXE") or ROOT / "node_modules" / "axe-core" / "axe.min.js")
    if not axe.exists():
        missing_service(f"axe-core ({axe}; npm ci installs it)")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe))
    return page.evaluate(
        """async ([root, tags]) => (await axe.run(document.querySelector(root),
            tags ? {runOnly: {type: 'tag', values: tags}} : {})).violations
        .map((v) => ({rule: v.id, impact: v.impact, where: v.nodes.map((n) => n.html.slice(0, 100))}))""",
        [root, tags],
    )


def svg_text_sizes(page) -> list[float]:
    """The on-screen size in pixels of every piece of text drawn in the boards' SVG (hidden ones aside)."""
    return page.evaluate("""() => [...document.querySelectorAll('.board-svg text')]
        .filter((t) => t.textContent.trim() && t.getBoundingClientRect().height)
        .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)""")


def box_on_screen(element) -> dict[str, float]:
    """An element's box on the screen (x, y, width, height), read in one step inside the page: a
    redraw (an update from the server, a click, a reload) replaces the drawing, so an element found
    a moment before may be gone by the time a second call measures it."""
    element.wait_for(state="visible")
    return element.evaluate("el => { const r = el.getBoundingClientRect(); "
                            "return {x: r.x, y: r.y, width: r.width, height: r.height}; }")


def wait_for_my_turn(page) -> None:
    page.wait_for_function(
        "document.querySelector('#status')?.textContent.startsWith('Your decision')"
        " || document.querySelector('#status')?.textContent.startsWith('Game over')",
        timeout=60_000,
    )


@pytest.mark.parametrize("game", GAMES)
def test_a_short_game_at_one_screen_by_clicking(page, server, game):
    start_game(page, server, game, "local")
    screenshot_taken = False
    for step in range(STEPS):
        wait_for_my_turn(page)
        if page.inner_text("#status").startswith("Game over"):
            break
        play_one_action(page)
        if step == STEPS // 2 and not screenshot_taken:
            show_a_selection(page)
            if game in SCREENSHOT_FROM_SHORT_GAME:
                screenshot(page, game)
            screenshot_taken = True
    if page.locator("#commit").count():  # a long turn still being planned
        page.click("#commit")
        settle(page)
    assert version(page) > 0
    moves = page.locator("#moves li")
    assert moves.count() == version(page)
    assert "last" in (moves.last.get_attribute("class") or "")
    if not page.inner_text("#status").startswith("Game over"):
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('Game over')")
    page.click("#replay-back")
    settle(page)
    assert page.locator(".moves li.last").count() == 1
    assert screenshot_taken or page.inner_text("#status").startswith("Game over")


@pytest.mark.parametrize(
    ("game", "loser", "winner"), [("naval-warfare", "english", "spanish"), ("frigate", "blue", "red")]
)
def test_a_finished_battle_says_who_won_above_the_table_too(page, server, game, loser, winner):
    """The dice books' bridge said "Game over: spanish (...)", which left a player asking which way."""
    created = create_game(server, game, "local")
    play_by_api(server, created["id"], created["token"], loser, f"resign {loser}")
    open_game(page, server, created["id"], created["token"])
    said = f"{winner} won ({loser} resigned)"
    assert page.inner_text("#status") == f"Game over: {said}"
    assert page.locator("[data-phase]").first.text_content() == f"Game over: {said}"


def show_a_selection(page) -> None:
    """Select a piece so the screenshot shows its legal end positions, if one can be selected."""
    settle(page)
    if page.locator(".choices [data-action]").count():
        return
    buttons = page.locator("#legal-actions [data-piece-button]")
    if buttons.count():
        buttons.first.click()
        settle(page)


def test_pirate_chess_against_the_computer(page, server):
    start_game(page, server, "pirate-chess", "computer")
    page.check("#mute")
    for _ in range(6):
        wait_for_my_turn(page)
        if page.inner_text("#status").startswith("Game over"):
            break
        play_one_action(page)
    wait_for_my_turn(page)
    seats = [line.split()[0] for line in page.locator("#moves li").all_inner_texts()]
    assert "blue" in seats and "red" in seats  # the computer (red) answered


def test_a_friend_joins_by_invitation_and_sees_the_move(browser, server):
    host_context = browser.new_context()
    friend_context = browser.new_context()
    try:
        host = host_context.new_page()
        start_game(host, server, "pirate-chess", "invite")
        link = host.locator(".invite-link").input_value()
        assert "#invite=" in link
        friend = friend_context.new_page()
        friend.goto(link)
        friend.wait_for_selector(".board-svg")
        settle(friend)
        assert "#invite" not in friend.url
        wait_for_my_turn(host)
        while host.inner_text("#status").startswith("Your decision"):
            play_one_action(host)
        wait_for_my_turn(friend)
        assert friend.inner_text("#status") == "Your decision (red)"
        assert friend.locator("#moves li").count() >= 1
        host.reload()
        host.wait_for_selector(".board-svg")
        assert not host.locator(".invite-link").count()  # the seat is taken
    finally:
        host_context.close()
        friend_context.close()


def screenshot(page, game: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".game-page").screenshot(path=str(SCREENSHOTS / f"{game}.png"))


def click_piece(page, piece: str) -> None:
    page.locator(f'.board-svg .piece[data-piece="{piece}"]').first.click()
    settle(page)


def click_square(page, square: str) -> None:
    """A square, or the piece standing on it (which stands for its square once a piece is chosen)."""
    token = page.locator(f'.board-svg .piece[data-square="{square}"]')
    if token.count():
        token.first.click()
    else:
        page.locator(f'.board-svg rect.square[data-square="{square}"]').click(force=True)
    settle(page)


def choose(page, action: str) -> None:
    """The action among several ending on the clicked square; nothing to do if it was the only one."""
    choice = page.locator(f'.choices [data-action="{action}"]')
    if choice.count():
        choice.click()
        settle(page)


def click_action(page, action: str) -> None:
    page.locator(f'#legal-actions [data-action="{action}"]').click()
    settle(page)


def test_square_rigger_fire_and_the_optimal_defence_by_clicking(page, server):
    start_game(page, server, "square-rigger", "local")  # the duel
    click_piece(page, "Bellona")
    click_square(page, "e5")
    choose(page, "move Bellona e5 NE")
    click_action(page, "end-move")
    wait_for_my_turn(page)
    click_piece(page, "Achille")
    click_square(page, "f6")
    choose(page, "move Achille f6 S")
    click_action(page, "end-move")  # red's fire phase: the turn is still being planned
    click_piece(page, "Achille")
    bearing = page.locator('.board-svg .bearing-option[data-bearing="stbd-bow"]')
    assert bearing.count() == 1
    assert "effect 1–2 @1" in bearing.text_content()  # 1 or 2 firepower at range 1
    assert "stbd-bow: cap 2 → Bellona" in page.locator(".board-svg .panel-line").all_text_contents()
    click_square(page, "e5")  # at Bellona: the amounts to choose from
    assert page.locator(".choices [data-action]").count() == 2
    choose(page, "fire Achille stbd-bow 2 at Bellona")
    fire_line = page.locator('.board-svg .fire-line[data-fire="Achille>Bellona"]')
    assert "stbd-bow 2 → effect 2 (range 1)" in fire_line.text_content()
    click_action(page, "end-fire")  # the defence is blue's: red's turn is committed
    wait_for_my_turn(page)
    assert page.inner_text("#status") == "Your decision (blue)"
    assert page.locator('.board-svg .fire-line[data-fire="Achille>Bellona"]').count() == 1
    incoming = page.locator('.board-svg .incoming-label[data-incoming="Bellona fore"]')
    assert incoming.text_content() == "fore: 2 in, defence 0 → 2 hits"
    click_piece(page, "Bellona")
    assert "fore: 2 arriving, defend ≤1" in page.locator(".board-svg .panel-line").all_text_contents()
    screenshot(page, "square-rigger")
    optimal = page.locator('[data-shortcut="optimal"]')
    assert "defend Bellona fore 1" in optimal.inner_text()
    optimal.click()
    settle(page)
    assert incoming.text_content() == "fore: 2 in, defence 1 → 1 hit"
    click_action(page, "end-defence")  # the volley lands; blue moves next, so blue's turn goes on
    page.click("#commit")
    settle(page)
    page.wait_for_selector('.board-svg .hit-label[data-hit="Bellona"]')
    assert page.locator('.board-svg .hit-label[data-hit="Bellona"]').text_content() == "−1 hit (fore)"
    assert any("Bellona takes 1 hit off the fore" in line for line in page.locator("#events li").all_inner_texts())
    assert not page.locator(".board-svg .fire-line").count()  # the volley is over


def test_napoleonic_attack_totals_against_defence_and_supports(page, server):
    start_game(page, server, "napoleonic-chess", "local")  # the standard battle
    for origin, target in [("a3", "a4"), (None, None), ("a4", "a5")]:
        wait_for_my_turn(page)
        if origin:
            click_square(page, origin)
            click_square(page, target)
        click_action(page, "end-move")
    wait_for_my_turn(page)
    assert page.locator(".board-svg .total-label").count() == 0
    click_square(page, "a5")
    click_square(page, "a6")  # the attack: red has nothing more to declare, so the turn is stored
    wait_for_my_turn(page)
    assert page.inner_text("#status") == "Your decision (black)"
    total = page.locator('.board-svg .total-label[data-total="a6"]')
    assert total.text_content() == "1 vs 1"
    click_square(page, "b6")
    click_square(page, "a6")  # black supports the attacked infantry
    assert "support b6>a6" in page.inner_text(".pending")
    assert total.text_content() == "1 vs 2"
    show_a_selection(page)
    screenshot(page, "napoleonic-chess")
