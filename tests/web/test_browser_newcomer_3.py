"""Issue 12's last browser points, played in a real Chromium the way a newcomer would: a saved
record (.qdr) opened from the lobby, to step through a finished game or to play on against the
opponent the record names (14); the pieces drawn as what they are, each game with a legend, and
nothing told by colour alone (5).

Fixtures (a real server process, Debian's Chromium) come from tests/web/test_browser.py.
"""

from __future__ import annotations

import httpx

from tests.web import test_browser as shared
from tests.web.test_browser_newcomer import DUEL_OPENING, duel_with_a_friend, play_all

# The fixtures of test_browser.py: a real server process, Debian's Chromium, a page that fails on script errors.
server, browser, page = shared.server, shared.browser, shared.page


def game_on_page(page) -> str:
    return page.evaluate("location.pathname.split('/').pop()")


def open_record(page, server, path) -> None:
    """In the lobby, choose the saved file and open it, as a player would."""
    page.goto(server.url + "/")
    page.wait_for_selector("#import-game")
    page.set_input_files("#record-file", str(path))
    page.click("#import-game")


def ongoing_games(server, ids: list[str]) -> list[str]:
    listed = httpx.get(f"{server.url}/api/games", params={"status": "ongoing", "ids": ",".join(ids)})
    return [game["id"] for game in listed.json()["games"]]


# --- 14: a saved record opened from the lobby ----------------------------------------------------------------
def test_a_downloaded_record_is_played_on_against_the_same_computer_level(page, server, tmp_path):
    created = shared.create_game(server, "square-rigger", "computer", scenario="duel", seed=3, level="random")
    shared.play_by_api(server, created["id"], created["token"], "blue", "move Bellona e5 NE")
    shared.play_by_api(server, created["id"], created["token"], "blue", "end-move")
    shared.open_game(page, server, created["id"], created["token"])
    shared.wait_for_my_turn(page)  # the computer has sailed and fired
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    original = shared.game_detail(server, created["id"])
    assert saved.suffix == ".qdr" and "red=computer:random" in saved.read_text()

    open_record(page, server, saved)
    page.wait_for_selector(".board-svg")
    shared.settle(page)
    imported = game_on_page(page)
    assert imported != created["id"]
    message = page.inner_text(".message.info")
    moves = len(original["history"])
    assert message == f"The record's {moves} moves replayed; you play blue against the computer (random)."
    detail = shared.game_detail(
        server, imported, page.evaluate(f"JSON.parse(localStorage['quarterdeck.games'])['{imported}'].token")
    )
    assert detail["view"]["players"] == {"blue": "human", "red": "computer:random"}
    assert [(e["seat"], e["text"]) for e in detail["history"]] == [(e["seat"], e["text"]) for e in original["history"]]
    assert detail["view"]["state"] == shared.game_detail(server, created["id"], created["token"])["view"]["state"]
    assert page.locator("#moves li").count() == moves
    # Blue plays on from where the record stopped, and the computer answers.
    shared.wait_for_my_turn(page)
    page.screenshot(path=str(tmp_path / "import-played-on.png"))
    version = detail["view"]["version"]
    shared.play_one_action(page)
    if page.locator("#commit").count():  # a turn of several decisions is sent when committed
        page.click("#commit")
        shared.settle(page)
    page.wait_for_function(f"document.querySelectorAll('#moves li').length > {moves}")
    assert shared.game_detail(server, imported)["view"]["version"] > version


def test_a_finished_record_opens_at_its_start_and_steps_through(page, server, tmp_path):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING)
    resigned = httpx.post(
        f"{server.url}/api/games/{game_id}/resign", headers={"Authorization": f"Bearer {tokens['blue']}"}, json={}
    )
    assert resigned.status_code == 200, resigned.text
    record = tmp_path / "duel.qdr"
    record.write_text(httpx.get(f"{server.url}/api/games/{game_id}/record").text, encoding="utf-8")

    open_record(page, server, record)
    page.wait_for_selector("#replay-at")
    shared.settle(page)
    total = len(DUEL_OPENING) + 1
    assert page.inner_text("#replay-at") == f"move 0 of {total}"
    assert (
        page.inner_text(".message.info")
        == f"The record's {total} moves replayed: step through them with the move list."
    )
    # The start: Bellona on her starting square, before her first move (to e5).
    assert page.locator('.board-svg .piece[data-piece="Bellona"]').count() == 1
    assert page.locator('.board-svg .piece[data-piece="Bellona"]').get_attribute("data-square") != "e5"
    page.click("#replay-forward")
    shared.settle(page)
    assert page.inner_text("#replay-at") == f"move 1 of {total}"
    assert page.locator('.board-svg .piece[data-piece="Bellona"]').get_attribute("data-square") == "e5"
    page.click("#replay-end")
    shared.settle(page)
    assert page.inner_text("#replay-at") == f"move {total} of {total}"
    assert page.locator("#legal-actions [data-action]").count() == 0  # a finished game: nothing to play


def test_a_corrupt_or_illegal_record_is_refused_naming_its_line_and_makes_nothing(page, server, tmp_path):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:2])
    text = httpx.get(f"{server.url}/api/games/{game_id}/record").text
    illegal = tmp_path / "illegal.qdr"
    illegal.write_text(text.replace("move Bellona e5 NE", "move Bellona a1 N"), encoding="utf-8")
    open_record(page, server, illegal)
    alert = page.wait_for_selector(".lobby [role=alert]")
    line = text.splitlines().index("1. blue move Bellona e5 NE") + 1
    assert alert.inner_text().startswith(
        f"the record cannot be imported: line {line}: move 1 (blue move Bellona a1 N):"
    )
    assert page.evaluate("location.pathname") == "/"
    assert page.evaluate("localStorage['quarterdeck.games'] || '{}'") == "{}"  # no game was made for this browser

    garbled = tmp_path / "garbled.qdr"
    garbled.write_text(text.replace('[Seed "1"]', "[Seed 1]"), encoding="utf-8")
    open_record(page, server, garbled)
    alert = page.wait_for_selector(".lobby [role=alert]")
    assert alert.inner_text() == 'the record cannot be imported: line 4: a header line looks like [Key "value"]'
    assert shared.axe_findings(page, ".lobby") == []


def test_the_import_form_works_by_keyboard_and_fits_a_phone(browser, server, tmp_path):
    game_id, tokens = duel_with_a_friend(server)
    play_all(server, game_id, tokens, DUEL_OPENING[:2])
    record = tmp_path / "duel.qdr"
    record.write_text(httpx.get(f"{server.url}/api/games/{game_id}/record").text, encoding="utf-8")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = context.new_page()
    try:
        phone.goto(server.url + "/")
        phone.wait_for_selector("#import-game")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.set_input_files("#record-file", str(record))
        phone.focus("#record-file")
        phone.keyboard.press("Tab")  # to the opponent the record names, then the next choices by arrow key
        phone.keyboard.press("ArrowDown")
        phone.keyboard.press("ArrowDown")  # past the computer (its level comes after the group) to one screen
        assert phone.evaluate("document.activeElement.value") == "local"
        phone.focus("#import-game")
        phone.screenshot(path=str(tmp_path / "import-phone.png"), full_page=True)
        phone.keyboard.press("Enter")
        phone.wait_for_selector(".board-svg")
        phone.wait_for_selector("body:not([data-busy])", state="attached")
        assert phone.inner_text(".message.info") == (
            "The record's 2 moves replayed; you play blue and red against each other at this screen."
        )
        imported = game_on_page(phone)
        assert imported in ongoing_games(server, [imported])
    finally:
        context.close()


# --- 5: pieces drawn as what they are, with a legend -------------------------------------------------------
def symbol_of(page, unit_id: str) -> list[str]:
    """A unit's drawing relative to its centre, colour left out: the shape alone."""
    return page.evaluate(
        """(id) => {
            const group = document.querySelector(`.board-svg .piece[data-piece="${id}"]`);
            const frame = group.querySelector('.unit-frame');
            const cx = +frame.getAttribute('x') + 18, cy = +frame.getAttribute('y') + 12;
            return [...group.querySelectorAll('line, circle, text, rect')].map((node) => node.tagName + ':' +
                ['x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx'].map((a) => node.getAttribute(a))
                .map((v, i) => v === null ? '' : (+v - (i >= 6 ? 0 : i % 2 ? cy : cx)).toFixed(1)).join(','));
        }""",
        unit_id,
    )


def test_napoleonic_units_have_map_symbols_of_their_type_and_a_legend(page, server, tmp_path):
    created = shared.create_game(server, "napoleonic-chess", "local", scenario="grand-battle", seed=1)
    shared.open_game(page, server, created["id"], created["token"])
    units = shared.game_detail(server, created["id"])["view"]["state"]["units"]
    by_type: dict[str, list[dict]] = {}
    for unit in units:
        by_type.setdefault(unit["type"], []).append(unit)
    assert {"cavalry", "cuirassiers", "infantry", "artillery"} <= set(by_type)
    drawn = {kind: symbol_of(page, group[0]["id"]) for kind, group in by_type.items()}
    assert len({tuple(shape) for shape in drawn.values()}) == len(drawn), drawn  # every type its own shape
    assert drawn["cuirassiers"] != drawn["cavalry"]
    # Units of one type and army are drawn alike; the armies differ by frame as well as colour.
    first, second = shared.game_detail(server, created["id"])["view"]["seats"]
    cavalry = {unit["army"]: unit["id"] for unit in by_type["cavalry"]}
    assert symbol_of(page, cavalry[first]) != symbol_of(page, cavalry[second])  # the frame: square or rounded
    assert page.locator(f'.board-svg .piece[data-piece="{cavalry[second]}"] .unit-frame.rounded').count() == 1
    for unit in by_type["cavalry"]:
        title = page.locator(f'.board-svg .piece[data-piece="{unit["id"]}"] title').text_content()
        assert title == f"{unit['id']}: {unit['army']} cavalry on {unit['square']}"
    legend = page.locator(".board-svg .legend [data-legend]").all_text_contents()
    assert legend[:2] == [f"{first}: square frame", f"{second}: rounded frame"]
    assert sorted(legend[2:]) == sorted(kind.replace("-", " ") for kind in by_type)
    assert min(shared.svg_text_sizes(page)) >= 11
    page.screenshot(path=str(tmp_path / "napoleonic-symbols.png"))
    assert shared.axe_findings(page, ".game-page") == []


def rig_of(page, selector: str) -> list[str]:
    """A ship's drawing relative to its hull, colour left out: the shape alone."""
    return page.evaluate(
        """(selector) => {
            const group = document.querySelector(selector);
            const box = group.querySelector('.hull').getBBox();
            return [...group.querySelectorAll('path, line')].filter((node) => !node.classList.contains('hull'))
                .map((node) => { const b = node.getBBox();
                    return [b.x - box.x, b.y - box.y, b.width, b.height].map((v) => v.toFixed(1)).join(','); });
        }""",
        selector,
    )


def test_pirate_chess_ships_have_rigs_of_their_own_and_a_legend(page, server, tmp_path):
    created = shared.create_game(server, "pirate-chess", "local", seed=1)
    shared.open_game(page, server, created["id"], created["token"])
    seats = shared.game_detail(server, created["id"])["view"]["seats"]
    kinds = ["Frigate", "Pirate", "Barque", "Schooner", "Brig", "Caravel", "Junk", "Dhow"]
    # In the reserve before the opening: every kind of blue's drawn, each with a rig of its own, no letters.
    rigs = {kind: rig_of(page, f'.board-svg .piece[data-piece="{kind}"]') for kind in kinds}
    assert len({tuple(rig) for rig in rigs.values()}) == len(kinds), rigs
    assert page.locator(".board-svg .piece .piece-label").count() == 0
    assert page.locator('.board-svg .piece[data-piece="Pirate"] .black-flag').count() == 1
    title = page.locator('.board-svg .piece[data-piece="Frigate"] title').text_content()
    assert title == f"Frigate, {seats[0]} (in reserve)"
    # The other side's hulls are striped as well as coloured; the legend says so and names each rig.
    assert page.locator(".board-svg .piece .hull-stripe").count() == len(kinds)
    legend = page.locator(".board-svg .legend [data-legend]").all_text_contents()
    assert legend == [f"{seats[0]}: plain hull", f"{seats[1]}: striped hull", *kinds]
    shared.play_one_action(page)  # a ship placed by clicking, drawn on its square
    placed = shared.game_detail(server, created["id"])["view"]["state"]["fleets"][seats[0]]["ships"]
    ship = next(s for s in placed if s["square"])
    drawn = page.locator(f'.board-svg .piece[data-square="{ship["square"]}"]')
    anchored = " (at anchor)" if ship["anchored"] else ""
    assert drawn.locator("title").text_content() == f"{ship['id']}, {seats[0]}{anchored} on {ship['square']}"
    page.screenshot(path=str(tmp_path / "pirate-chess-rigs.png"))
    assert shared.axe_findings(page, ".game-page") == []


def label_overlaps(page) -> list[str]:
    """Pairs of the board's ship labels (class marks and factors), and of factors and the hulls lying N-S
    (whose boxes are their shapes), that overlap on screen."""
    return page.evaluate(
        """() => {
            const labels = [...document.querySelectorAll('.board-svg .layer-pieces :is(.piece-label, .factor-label)')]
                .map((node) => ({ text: node.textContent, box: node.getBoundingClientRect() }));
            const upright = [...document.querySelectorAll('.board-svg .layer-pieces .hull')]
                .filter((hull) => /rotate[(](0|180)[)]/.test(hull.getAttribute('transform')))
                .map((hull) => ({ text: `hull on ${hull.closest('.piece').dataset.square}`,
                                  box: hull.getBoundingClientRect() }));
            const apart = (a, b) => a.right - 0.5 <= b.left || b.right - 0.5 <= a.left
                || a.bottom - 0.5 <= b.top || b.bottom - 0.5 <= a.top;
            const overlaps = [];
            labels.forEach((a, i) => labels.slice(i + 1).forEach((b) => {
                if (!apart(a.box, b.box)) overlaps.push(`${a.text} / ${b.text}`);
            }));
            const factors = labels.filter((label) => label.text.includes('/'));
            upright.forEach((a) => factors.forEach((b) => {
                if (!apart(a.box, b.box)) overlaps.push(`${a.text} / ${b.text}`);
            }));
            return overlaps;
        }"""
    )


def sail_every_ship(server, game_id: str, token: str, seat: str) -> None:
    """Each of `seat`'s ships makes the last move the server lists for her that the rules still allow
    after her consorts' moves, then the turn's other phases end with no fire."""
    view = shared.game_detail(server, game_id, token)["view"]
    for group in view["legal"][seat]:
        for text in reversed([a["text"] for a in group["actions"] if a["text"].startswith("move ")]):
            version = shared.game_detail(server, game_id, token)["view"]["version"]
            played = httpx.post(
                f"{server.url}/api/games/{game_id}/moves",
                headers={"Authorization": f"Bearer {token}"},
                json={"version": version, "actions": [text], "seat": seat},
            )
            if played.status_code == 200:
                break
    while seat in (view := shared.game_detail(server, game_id, token)["view"])["to_act"]:
        ends = [a["text"] for g in view["legal"][seat] for a in g["actions"] if a["text"].startswith("end-")]
        shared.play_by_api(server, game_id, token, seat, ends[0])


def test_square_rigger_fleet_battle_hulls_marks_and_legend_never_overlap(page, server, tmp_path):
    created = shared.create_game(server, "square-rigger", "local", scenario="fleet-battle", seed=2)
    game_id, token = created["id"], created["token"]
    for _ in range(2):  # two turns of both fleets under way, each ship as far as she may
        for seat in ("blue", "red"):
            sail_every_ship(server, game_id, token, seat)
    shared.open_game(page, server, game_id, token)
    ships = shared.game_detail(server, game_id)["view"]["state"]["ships"]
    assert label_overlaps(page) == []
    seats = ["blue", "red"]
    for name, ship in ships.items():
        drawn = page.locator(f'.board-svg .piece[data-square="{ship["square"]}"]')
        bearing = 45 * ["N", "NE", "E", "SE", "S", "SW", "W", "NW"].index(ship["heading"])
        assert f"rotate({bearing})" in drawn.locator(".hull").get_attribute("transform")  # her bow on her heading
        assert drawn.locator(".hull-stripe").count() == (1 if ship["side"] == "red" else 0)  # not colour alone
        f, s, t = ship["factors"]
        title = drawn.locator("title").text_content()
        assert (
            title.startswith(f"{name} ({ship['side']}) on {ship['square']}: ") and f"heading {ship['heading']}" in title
        )
        assert drawn.locator(".factor-label").text_content() == f"{f}/{s}/{t}"
    legend = page.locator(".board-svg .legend [data-legend]").all_text_contents()
    assert legend[:2] == [f"{seats[0]}: plain hull", f"{seats[1]}: striped hull"]
    assert {"1st rater", "2nd rater", "3rd rater", "frigate", "firepower/speed/turning"} <= set(legend)
    page.screenshot(path=str(tmp_path / "fleet-battle.png"))
    assert shared.axe_findings(page, ".game-page") == []


def test_square_rigger_merchants_are_outlined_dashed_and_named_in_the_legend(page, server):
    created = shared.create_game(server, "square-rigger", "local", scenario="convoy", seed=1)
    shared.open_game(page, server, created["id"], created["token"])
    ships = shared.game_detail(server, created["id"])["view"]["state"]["ships"]
    merchants = [ship for ship in ships.values() if ship["role"] == "merchant"]
    assert merchants
    for ship in ships.values():
        hull = page.locator(f'.board-svg .piece[data-square="{ship["square"]}"] .hull')
        assert (hull.get_attribute("stroke-dasharray") is not None) == (ship["role"] != "warship")
    assert "dashed: merchant, never fires" in page.locator(".board-svg .legend [data-legend]").all_text_contents()
