"""Issue 19, "Every player can play", in a real Chromium: axe-core's WCAG 2.2 A and AA rules on the
lobby and on every game's page in each kind of phase it reaches (move, fire or attack, defence or
secret deployment, game over, replay) at 1280 and 390 px, with nothing sideways-scrolling and no text
under 12 px on a phone; each game's shortest scenario played to its end with the keyboard alone; a
game played from the command line alone, reading only its live log.

Fixtures (a real server process, Debian's Chromium) come from tests/web/test_browser.py.
"""

from __future__ import annotations

import json
import random
import subprocess

import httpx
import pytest

from quarterdeck import games
from tests.web import test_browser as shared
from tests.web.conftest import ROOT, ServerProcess, missing_service
from tests.web.test_browser import (
    CHROMIUM,
    axe_findings,
    create_game,
    game_detail,
    open_game,
    play_by_api,
    settle,
    svg_text_sizes,
)

server, browser, page = shared.server, shared.browser, shared.page

WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
# Each game in a scenario whose phases include its secret or defensive one, and how far to play it.
PHASE_TOURS = {  # game: (how it is made, how many random decisions at most, the phases that must be checked)
    "square-rigger": ({"scenario": "duel", "seed": 1}, 40, {"move", "fire", "defence"}),
    "pirate-chess": ({}, 30, {"['blue']", "['red']"}),  # one phase: each side's turn
    "napoleonic-chess": ({"scenario": "attack-at-dawn", "seed": 2}, 60, {"secret-deployment", "move", "attack"}),
    "frigate": ({"scenario": "frigate-duel", "seed": 1}, 40, {"sail", "declare", "order", "segment"}),
    "naval-warfare": ({"scenario": "frigate-duel", "seed": 1}, 40, {"move-first", "move-second", "end"}),
}
# Each game's shortest way to its end (a scenario, and options that shorten it where the book allows).
SHORTEST = {
    "square-rigger": {"scenario": "duel"},
    "pirate-chess": {"options": {"quiet_turn_limit": 2}},
    "napoleonic-chess": {"scenario": "standard"},
    "frigate": {"scenario": "frigate-duel", "options": {"turns": 1}},
    "naval-warfare": {"scenario": "frigate-duel"},
}


@pytest.mark.parametrize("game", games.names())
def test_every_game_describes_its_board_in_words_for_the_page(game):
    """A screen reader, the board's cursor and the command line read the board from the game's browser
    module: each must export describe(ctx) beside draw(ctx) (docs/accessibility.md)."""
    module = (ROOT / "src" / "quarterdeck" / "web" / "static" / "games" / f"{game}.js").read_text()
    assert "export function draw(ctx)" in module
    assert "export function describe(ctx)" in module


def wcag_findings(page) -> list[dict]:
    """axe-core's WCAG 2.x A/AA violations on the whole page."""
    return axe_findings(page, "html", WCAG)


def phone_findings(page) -> list[str]:
    """What a 390 px phone must not show: a page wider than the screen, text under 12 px."""
    problems = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > 390:
        problems.append(f"the page is {width} px wide")
    small = [size for size in svg_text_sizes(page) if size < 11.9]
    if small:
        problems.append(f"board text at {min(small):.1f} px")
    html_small = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) && !e.closest('svg'))
        .filter((e) => e.getBoundingClientRect().height && parseFloat(getComputedStyle(e).fontSize) < 12)
        .map((e) => e.tagName + ': ' + e.textContent.slice(0, 30))""")
    if html_small:
        problems.append(f"text under 12 px: {html_small[:3]}")
    return problems


def check(page, where: str, phone: bool) -> None:
    settle(page)
    findings = wcag_findings(page)
    assert findings == [], f"{where}: {findings}"
    if phone:
        assert phone_findings(page) == [], where


def post(server: ServerProcess, game_id: str, token: str, path: str, body: dict) -> dict:
    response = httpx.post(
        f"{server.url}/api/games/{game_id}/{path}", headers={"Authorization": f"Bearer {token}"}, json=body, timeout=60
    )
    assert response.status_code == 200, response.text
    return response.json()


def play_a_random_action(server: ServerProcess, game_id: str, token: str, chooser: random.Random) -> bool:
    """One legal decision (chosen at random, ends of phases preferred now and then) for a seat that
    acts now; False when nobody at this screen has one."""
    view = game_detail(server, game_id, token)["view"]
    for seat in view["to_act"]:
        actions = [action["text"] for group in view["legal"].get(seat) or [] for action in group["actions"]]
        if actions:
            ends = [text for text in actions if text.startswith("end")]
            text = chooser.choice(ends) if ends and chooser.random() < 0.4 else chooser.choice(actions)
            post(server, game_id, token, "moves", {"version": view["version"], "actions": [text], "seat": seat})
            return True
    return False


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def test_the_lobby_meets_wcag_aa_at_both_widths_with_one_h1_and_a_title(page, phone, server):
    for tab, is_phone in ((page, False), (phone, True)):
        tab.goto(server.url + "/")
        tab.wait_for_selector("#start-game")
        assert tab.locator("h1").count() == 1
        assert tab.title() == "Quarterdeck: the lobby"
        check(tab, "lobby", is_phone)


@pytest.mark.parametrize("game", games.names())
def test_every_phase_of_a_game_meets_wcag_aa_at_1280_and_390_px(page, phone, server, game):
    """A game at one screen played at random by HTTP beside two open pages; each new phase is checked
    on both, then the replay of the first move and the game over (a resignation)."""
    body, steps, phases = PHASE_TOURS.get(game, ({}, 40, set()))  # a new book: its default scenario
    created = create_game(server, game, "local", **body)
    game_id, token = created["id"], created["token"]
    for tab in (page, phone):
        open_game(tab, server, game_id, token, ready=".board")
    chooser = random.Random(19)
    seen: set[str] = set()
    for _ in range(steps):
        detail = game_detail(server, game_id, token)
        if detail["view"]["status"] == "finished":
            break
        phase = str(detail["view"]["state"].get("phase") or detail["view"]["to_act"])
        if phase not in seen:
            seen.add(phase)
            for tab, is_phone in ((page, False), (phone, True)):
                shown = f"document.querySelector('.side .muted')?.textContent.endsWith(' {detail['view']['version']}')"
                tab.wait_for_function(shown)
                assert tab.locator("h1").count() == 1
                assert tab.title().startswith(detail["view"]["title"])
                check(tab, f"{game} in phase {phase}", is_phone)
        if not play_a_random_action(server, game_id, token, chooser):
            break
    assert seen and phases <= seen, seen
    for tab, is_phone in ((page, False), (phone, True)):
        settle(tab)
        tab.click("#replay-start")
        tab.wait_for_function("document.querySelector('#replay-at')?.textContent.startsWith('move 0 of')")
        check(tab, f"{game} replayed", is_phone)
    view = game_detail(server, game_id, token)["view"]
    if view["status"] != "finished":
        post(server, game_id, token, "resign", {"seat": view["to_act"][0] if view["to_act"] else view["seats"][0]})
    for tab, is_phone in ((page, False), (phone, True)):
        tab.wait_for_selector("#game-over")
        assert "Game over" in tab.title()
        check(tab, f"{game} over", is_phone)


def act_by_keyboard(page) -> None:
    """Press a key and wait for what it set going."""
    page.wait_for_timeout(20)
    settle(page)


@pytest.mark.parametrize("game", games.names())
def test_a_game_is_played_to_its_end_with_the_keyboard_alone(page, server, game):
    """Both sides at one screen, the keyboard only: on a square board the cursor chooses a piece and
    its square; otherwise A goes to the actions and Enter takes one; E ends a phase; the focus stays in
    the page's actions after every decision, never thrown back to the top."""
    created = create_game(server, game, "local", **SHORTEST.get(game, {}))
    open_game(page, server, created["id"], created["token"], ready=".board")
    grid = page.locator(".board-svg rect.square").count() > 0
    if grid:
        # The cursor: B to the board, an arrow puts the cursor on a piece of the side to act, Enter chooses it.
        page.keyboard.press("b")
        assert page.evaluate("document.activeElement.classList.contains('board')")
        page.keyboard.press("ArrowUp")
        line = page.inner_text("#cursor-line")
        square = line.split(":")[0]
        assert page.locator(".board-svg .cursor").count() == 1
        page.keyboard.press("Enter")
        act_by_keyboard(page)
        assert page.locator(".board-svg [data-target], .choices button").count() or "empty" in line
        # The focus stays on the board, or goes to the choice when several actions end on the square.
        assert page.evaluate("!!document.activeElement.closest('.board, .choices')")
        page.keyboard.press("Escape")
        assert page.evaluate("document.activeElement.classList.contains('board')")
        assert square
    decisions = 0
    while not page.inner_text("#status").startswith("Game over"):
        assert decisions < 300, "the game did not end"
        page.keyboard.press("e")
        act_by_keyboard(page)
        if page.locator("#said p").last.inner_text().startswith("No action ends"):
            page.keyboard.press("a")
            piece = page.evaluate("document.activeElement.dataset.pieceButton || ''")
            assert page.evaluate("!!document.activeElement.closest('#legal-actions, .choices')")
            page.keyboard.press("Enter")
            act_by_keyboard(page)
            if piece:  # the piece's own actions open after it: the next button is the first of them
                assert page.evaluate("document.activeElement.dataset.pieceButton") == piece, "focus kept on the piece"
                page.keyboard.press("Tab")
                page.keyboard.press("Enter")
                act_by_keyboard(page)
            if not page.inner_text("#status").startswith("Game over") and page.locator("#legal-actions button").count():
                assert page.evaluate("document.activeElement !== document.body"), "the focus was thrown away"
        decisions += 1
    assert "Game over" in page.title()
    assert page.locator("#said p").last.inner_text().startswith("Game over")


def test_a_game_is_played_from_the_command_line_reading_only_its_live_log(page, server):
    """Frigate's duel cut to one turn against the computer: every decision typed in the terminal's
    notation, found by asking (status, actions, what can ... do); each of the computer's decisions is
    read out once, with what came of it."""
    created = create_game(server, "frigate", "computer", level="random", scenario="frigate-duel", options={"turns": 1})
    open_game(page, server, created["id"], created["token"], ready=".board")
    heard: list[str] = []  # every line said, in order: the log itself keeps only its last 60

    def hear() -> list[str]:
        """The lines said since the last call, marked as heard."""
        lines = page.evaluate(
            "() => [...document.querySelectorAll('#said p:not([data-heard])')]"
            ".map((p) => { p.dataset.heard = '1'; return p.innerText; })"
        )
        heard.extend(lines)
        return lines

    def ask(text: str) -> str:
        hear()  # what the computer said meanwhile
        page.fill("#command", text)
        page.press("#command", "Enter")
        page.wait_for_function("document.querySelector('#said p:not([data-heard])') !== null", timeout=60_000)
        settle(page)
        return hear()[0]

    assert page.evaluate("document.querySelector('#said').getAttribute('aria-live')") == "polite"
    assert "Constitution" in ask("my ships") and "blue" in ask("my ships")
    assert "Guerriere" in ask("enemy ships")
    assert ask("what is on 1406").startswith("1406: Constitution")
    for _ in range(300):
        status = ask("status")
        if status.startswith("Game over"):
            break
        if not status.startswith("Your decision"):
            page.wait_for_timeout(200)  # the computer decides
            continue
        listing = ask("actions")
        free = [part.strip() for part in listing.split(";") if ":" not in part]
        if free:
            ask(free[0].split(", ")[0])
            continue
        piece = listing.split(":")[0]
        answer = ask(f"what can {piece} do")
        assert "actions:" in answer, answer
        ask(answer.split("actions: ", 1)[1].split("; ")[0])
    else:
        pytest.fail("the game did not end")
    hear()
    lines = heard
    assert lines[-1].startswith("Game over")
    history = game_detail(server, created["id"], created["token"])["history"]
    red = [entry for entry in history if entry["seat"] == "red"]
    assert red, "the computer played"
    for entry in red:  # each read out once, with its events
        announced = [line for line in lines if line.startswith(f"red: {entry['text']}.")]
        assert len(announced) >= 1, entry["text"]
    assert len([line for line in lines if line.startswith("red: ")]) == len(red)


@pytest.mark.parametrize("game", games.names())
def test_the_command_lines_help_gives_this_games_own_examples_and_each_one_works(page, server, game):
    """The help under the command line shows an action legal now in the game's own notation, a piece by
    its name and its place: typed as shown, the question about the piece is answered with its actions,
    the place with what is there, and the action is taken."""
    created = create_game(server, game, "local", **SHORTEST.get(game, {}))
    open_game(page, server, created["id"], created["token"], ready=".board")
    help_text = page.inner_text("#command-help")
    examples = page.locator("#command-help code").all_inner_texts()
    action = examples[0]
    legal = [a["text"] for seat in created_view_seats(server, created) for g in seat for a in g["actions"]]
    assert action in legal, (help_text, legal[:5])
    asked = {text for text in examples if text.startswith(("what can", "what is on"))}
    assert any(text.startswith("what can") for text in asked), help_text

    def ask(text: str) -> str:
        page.evaluate("() => document.querySelectorAll('#said p').forEach((p) => { p.dataset.heard = '1'; })")
        page.fill("#command", text)
        page.press("#command", "Enter")
        page.wait_for_function("document.querySelector('#said p:not([data-heard])') !== null")
        settle(page)
        return page.locator("#said p:not([data-heard])").first.inner_text()

    for question in sorted(asked):
        answer = ask(question)
        assert not answer.startswith("Not understood") and "No actions now" not in answer, (question, answer)
        if question.startswith("what is on"):
            assert "empty" not in answer.split(".")[0], (question, answer)
    piece = next(text for text in asked if text.startswith("what can"))[len("what can "):-len(" do")]
    before = len(game_detail(server, created["id"], created["token"])["history"])
    answer = ask(piece)  # her name alone asks what she can do, and takes none of it
    assert "actions" in answer and not answer.startswith(("Planned", "Sent")), answer
    assert len(game_detail(server, created["id"], created["token"])["history"]) == before
    answer = ask(action)
    assert not answer.startswith("Not understood") and action in answer, answer
    history = game_detail(server, created["id"], created["token"])["history"]
    assert answer.startswith(f"Planned: {action}") or action in [entry["text"] for entry in history], answer


def test_a_ships_name_typed_alone_asks_and_never_surrenders_her(page, server):
    """Naval Warfare's end of a move offers `surrender Shannon`: typing `Shannon` lists her actions and
    takes none of them (the rest of an action is taken only when it says more than the ship's name)."""
    created = create_game(server, "naval-warfare", "local", scenario="frigate-duel")
    for _ in range(20):  # the first listed action each time, up to the end of the move
        view = game_detail(server, created["id"], created["token"])["view"]
        seat = view["to_act"][0]
        texts = [a["text"] for g in view["legal"][seat] for a in g["actions"]]
        if "surrender Shannon" in texts:
            break
        play_by_api(server, created["id"], created["token"], seat, texts[0])
    else:
        pytest.fail("no end of the move with a surrender offered")
    open_game(page, server, created["id"], created["token"], ready=".board")
    page.fill("#command", "Shannon")
    page.press("#command", "Enter")
    page.wait_for_function("document.querySelector('#said p:last-child')?.innerText.includes('actions')")
    settle(page)
    history = game_detail(server, created["id"], created["token"])["history"]
    assert not any(entry["text"].startswith("surrender") for entry in history)
    assert "surrender Shannon" not in page.inner_text("#command-help")


def test_a_mistyped_action_is_refused_with_a_legal_one_of_its_verb(page, server):
    """As in the terminal: `place Junk` (no square) is refused naming the field, and told a Junk's
    placement that is legal now and how many placements there are; nothing is played."""
    created = create_game(server, "pirate-chess", "local")
    open_game(page, server, created["id"], created["token"], ready=".board")
    page.fill("#command", "place Junk")
    page.press("#command", "Enter")
    page.wait_for_function("document.querySelector('#said p:last-child')?.innerText.includes('[field: arguments]')")
    said = page.locator("#said p").last.inner_text()
    assert said.endswith("[field: arguments] place now: e.g. place Junk a1 (512 in all)."), said
    assert page.inner_text("#message").startswith("expected 2 words after the verb, got 1")
    assert game_detail(server, created["id"], created["token"])["history"] == []


def created_view_seats(server, created: dict) -> list:
    """The legal actions of every seat the game's creator holds, as the page gets them."""
    view = game_detail(server, created["id"], created["token"])["view"]
    return [view["legal"][seat] for seat in view["to_act"] if view["legal"].get(seat)]


def lighthouse_accessibility(url: str, preset: str) -> tuple[float, list[str]]:
    """Lighthouse's accessibility score of a page (headless, Debian's Chromium) and the audits it failed."""
    lighthouse = ROOT / "node_modules" / ".bin" / "lighthouse"
    if not lighthouse.exists():
        missing_service(f"Lighthouse ({lighthouse}; npm ci installs it)")
    result = subprocess.run(
        [str(lighthouse), url, "--only-categories=accessibility", "--output=json", "--output-path=stdout", "--quiet",
         f"--chrome-path={CHROMIUM}", "--chrome-flags=--headless --no-sandbox --disable-gpu",
         *(["--preset=desktop"] if preset == "desktop" else [])],
        capture_output=True, text=True, timeout=240, check=True,
    )  # fmt: skip
    report = json.loads(result.stdout)
    failed = [name for name, audit in report["audits"].items() if audit.get("score") is not None and audit["score"] < 1]
    return report["categories"]["accessibility"]["score"], failed


def test_lighthouse_scores_100_for_accessibility_on_the_lobby_and_every_game_page(server):
    """The lobby and each game's page as a newcomer first sees it (a spectator of a game just begun)."""
    pages = {"lobby": server.url + "/"}
    for game in games.names():
        pages[game] = f"{server.url}/game/{create_game(server, game, 'computer', level='greedy')['id']}"
    # The phone (Lighthouse's default) on every page, the desktop on the one with the most in it.
    scores = {(name, "mobile"): lighthouse_accessibility(url, "mobile") for name, url in pages.items()}
    scores["naval-warfare", "desktop"] = lighthouse_accessibility(pages["naval-warfare"], "desktop")
    assert {key: value for key, value in scores.items() if value[0] < 1} == {}


def luminance(colour: str) -> float:
    """WCAG relative luminance of a computed colour such as "rgb(20, 83, 45)"."""
    channels = [int(part) / 255 for part in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# Each square board with its ground (land and harbours, the harbour, hills), and a first decision played
# so that the last turn is marked.
MARKED = {
    "square-rigger": ({"scenario": "blockade", "seed": 1}, None),
    "pirate-chess": ({}, "place Pirate d5"),
    "napoleonic-chess": ({"scenario": "terrain", "seed": 1}, None),
}


@pytest.mark.parametrize("game", list(MARKED))
def test_every_marker_and_the_chosen_piece_stand_out_3_to_1_on_every_square_colour(page, server, game):
    body, first = MARKED[game]
    created = create_game(server, game, "local", **body)
    game_id, token = created["id"], created["token"]
    view = game_detail(server, game_id, token)["view"]
    seat = view["to_act"][0]
    if first is None:  # the side to act moves its first piece, and ends the phase
        first = next(a["text"] for g in view["legal"][seat] if g["piece"] for a in g["actions"] if a.get("destination"))
    post(server, game_id, token, "moves", {"version": view["version"], "actions": [first], "seat": seat})
    open_game(page, server, game_id, token, ready=".board")
    page.keyboard.press("b")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    settle(page)
    if not page.locator(".board-svg .target").count():  # no piece under the cursor: a piece from the actions
        page.keyboard.press("Escape")
        page.keyboard.press("a")
        page.keyboard.press("Enter")
        settle(page)
    page.keyboard.press("b")
    page.keyboard.press("ArrowUp")
    colours = page.evaluate("""() => {
        const stroke = (selector) => [...document.querySelectorAll(selector)].map((e) => getComputedStyle(e).stroke);
        return {squares: [...new Set([...document.querySelectorAll('.board-svg rect.square')]
                    .map((e) => getComputedStyle(e).fill))],
                target: stroke('.board-svg .target'), last: stroke('.board-svg .last-square'),
                cursor: stroke('.board-svg .cursor'), chosen: stroke('.board-svg .selection-halo'),
                yellow: stroke('.board-svg .piece.selected .hull, .board-svg .piece.selected .unit-frame')};
    }""")
    assert len(colours["squares"]) >= 2
    # The chosen piece's outline: its dark outer line against the squares, its yellow against that line.
    for mark in ("target", "last", "cursor", "chosen"):
        assert colours[mark], f"no {mark} drawn"
        worst = min(contrast(colours[mark][0], square) for square in colours["squares"])
        assert worst >= 3, f"{mark} at {worst:.2f}:1"
    assert contrast(colours["yellow"][0], colours["chosen"][0]) >= 3
    # The same board as a table: the square of the first piece listed names her, with her side.
    page.click(".board-table summary")
    listed = [line.split(": ", 1) for line in page.locator(".board-words li").all_inner_texts() if ": " in line]
    square, words = next(line for line in listed if line[0][0].isalpha() and line[0][1:].isdigit())
    cell = page.inner_text(f'.board-table td[data-square="{square}"]')
    assert cell and words.lower().startswith(cell.split(",")[0].lower().split(" ")[0]), (cell, words)
    assert wcag_findings(page) == []
