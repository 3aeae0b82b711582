"""The HTTP API: creating, joining, playing, refusing, and what each seat may see."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient

from quarterdeck import games
from quarterdeck.core.record import Record
from quarterdeck.web.computer import describe_level
from tests.web.conftest import auth, make_app, new_game, two_players
from tests.web.counting_game import CatalogueWithCounting


def test_catalogue_lists_the_games_and_levels(client):
    catalogue = client.get("/api/catalogue").json()
    counting = next(g for g in catalogue["games"] if g["name"] == "counting")
    assert counting["seats"] == ["blue", "red"]
    assert counting["scenarios"][0]["name"] == "standard"
    assert {"random", "greedy"} <= set(catalogue["levels"])


class SlowCatalogue(CatalogueWithCounting):
    """Each game takes a while to load, as on a busy machine's cold start."""

    def get(self, name):
        time.sleep(0.05)
        return super().get(name)


def test_lobbies_opened_together_on_a_cold_server_each_list_every_game(tmp_path):
    catalogue = SlowCatalogue()
    app = make_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", catalogue)
    with TestClient(app) as cold, ThreadPoolExecutor(4) as lobbies:
        answers = list(lobbies.map(lambda _: cold.get("/api/catalogue").json(), range(4)))
    for answer in answers:
        assert [game["name"] for game in answer["games"]] == catalogue.names()


def test_the_lobby_says_the_beginner_slips_and_the_levels_above_do_not(client):
    about = {level["spec"]: level["about"] for level in client.get("/api/catalogue").json()["level_info"]}
    assert "slipping on 25% of its decisions" in about["ai:1"]
    assert all("slipping" not in about[f"ai:{n}"] for n in (2, 3, 4, 5))


def test_a_game_that_sets_its_own_slips_says_so_while_its_computer_thinks():
    naval, rigger = games.get("naval-warfare"), games.get("square-rigger")
    assert "slipping on 60% of its decisions" in describe_level("ai:1", naval)["about"]
    assert "slipping on 20% of its decisions" in describe_level("ai:2", naval)["about"]
    assert "slipping on 10% of its decisions" in describe_level("ai:2", games.get("napoleonic-chess"))["about"]
    assert "slipping" not in describe_level("ai:2", rigger)["about"]
    assert "slipping on 25% of its decisions" in describe_level("ai:1", rigger)["about"]


def test_the_lobby_says_what_a_game_makes_of_its_levels(client):
    notes = {game["name"]: game["level_notes"] for game in client.get("/api/catalogue").json()["games"]}
    assert notes["naval-warfare"]["ai:1"] == "In this game it slips on 60% of its decisions."
    assert notes["naval-warfare"]["ai:2"] == "In this game it slips on 20% of its decisions."
    assert "ai:3" not in notes["naval-warfare"]
    assert notes["naval-warfare"]["ai:5"].startswith("Measured in this game, it plays no stronger than level 3")
    assert set(notes["frigate"]) == {"ai:4"}
    assert notes["square-rigger"] == {}  # its beginner slips as every game's does, and each level is a step up


def test_a_turn_is_applied_stored_and_listed(client):
    game_id, blue, red = two_players(client)
    played = client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 2"]}, headers=auth(blue))
    assert played.status_code == 200, played.text
    update = played.json()
    assert update["version"] == 1
    assert [e["text"] for e in update["entries"]] == ["add 2"]
    assert update["entries"][0]["events"][0]["kind"] == "moved"
    view = client.get(f"/api/games/{game_id}", headers=auth(red)).json()["view"]
    assert view["state"]["total"] == 2
    assert view["to_act"] == ["red"]
    assert [a["text"] for a in view["legal"]["red"][0]["actions"]] == ["add 1", "add 2"]
    assert view["legal"]["red"][0]["piece"] == "counter"
    listed = client.get("/api/games", params={"status": "ongoing", "ids": game_id}).json()["games"]
    assert [g["id"] for g in listed] == [game_id]


def test_strangers_see_only_public_games_listed(client):
    invited = new_game(client)["id"]
    local = new_game(client, opponent="local")["id"]
    public = new_game(client, public=True)["id"]
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [public]
    assert client.get("/api/games", params={"status": "ongoing"}).json()["games"][0]["id"] == public
    mine = client.get("/api/games", params={"ids": f"{invited},nonexistent"}).json()["games"]
    assert {g["id"] for g in mine} == {invited, public}
    assert local not in {g["id"] for g in mine}
    assert client.get("/api/games", params={"ids": "a;DROP TABLE"}).status_code == 422


def test_legal_actions_go_only_to_the_seat_that_holds_them(client):
    game_id, blue, red = two_players(client)
    assert client.get(f"/api/games/{game_id}", headers=auth(red)).json()["view"]["legal"] == {}
    assert client.get(f"/api/games/{game_id}").json()["view"]["legal"] == {}
    assert "blue" in client.get(f"/api/games/{game_id}", headers=auth(blue)).json()["view"]["legal"]


def test_a_whole_turn_applies_together_or_not_at_all(client):
    game_id, _, _ = two_players(client)
    local = new_game(client, opponent="local")
    url = f"/api/games/{local['id']}/moves"
    refused = client.post(url, json={"version": 0, "actions": ["add 1", "add 7"]}, headers=auth(local["token"]))
    assert refused.status_code == 422
    assert "action 2 of 2" in refused.json()["detail"]
    assert client.get(f"/api/games/{local['id']}").json()["view"]["version"] == 0
    both = client.post(url, json={"version": 0, "actions": ["add 1", "add 2"]}, headers=auth(local["token"]))
    assert both.json()["version"] == 2
    assert [e["seat"] for e in both.json()["entries"]] == ["blue", "red"]


def test_refusals_are_4xx_with_a_message_and_change_nothing(client):
    game_id, blue, red = two_players(client)
    moves = f"/api/games/{game_id}/moves"
    cases = [
        (client.post(moves, json={"version": 0, "actions": ["add 3"]}, headers=auth(blue)), 422, "rule"),
        (client.post(moves, json={"version": 0, "actions": ["jump 3"]}, headers=auth(blue)), 422, "field"),
        (client.post(moves, json={"version": 0, "actions": ["add 1"]}, headers=auth(red)), 422, "rule"),
        (client.post(moves, json={"version": 5, "actions": ["add 1"]}, headers=auth(blue)), 409, "version"),
        (client.post(moves, json={"version": 0, "actions": ["add 1"]}), 401, "detail"),
        (client.post(moves, json={"version": 0, "actions": ["add 1"]}, headers=auth("forged")), 403, "detail"),
    ]
    for response, status, key in cases:
        assert response.status_code == status, response.text
        assert key in response.json() and response.json()["detail"]
    assert client.get(f"/api/games/{game_id}").json()["view"]["version"] == 0
    assert client.post(moves, json={"version": 0, "actions": ["add 1"]}, headers=auth(blue)).status_code == 200
    assert client.post(moves, json={"actions": ["add 1"]}, headers=auth(red)).status_code == 422
    assert client.post(moves, content=b"{not json", headers=auth(red)).status_code == 422
    assert (
        client.post(moves, json={"version": 1, "actions": ["add 1"], "extra": 1}, headers=auth(red)).status_code == 422
    )
    assert client.get("/api/games/nonexistent").status_code == 404
    unknown = client.post("/api/games", json={"game": "no-such-game"})
    assert unknown.status_code == 422 and "no-such-game" in unknown.json()["detail"]
    bad_scenario = client.post("/api/games", json={"game": "counting", "scenario": "atlantis"})
    assert bad_scenario.status_code == 422 and bad_scenario.json()["field"] == "scenario"
    assert client.post("/api/games", json={"game": "counting", "seat": "green"}).status_code == 422
    assert client.post("/api/games", json={"game": "counting", "seat": ""}).status_code == 422  # not "the first"
    assert client.post("/api/games", json={"game": "counting", "level": "oracle"}).status_code == 422
    at_one_screen = {"game": "counting", "opponent": "local", "level": "oracle"}
    assert client.post("/api/games", json=at_one_screen).status_code == 422  # a level means something everywhere


def test_a_caller_cannot_make_the_server_read_its_own_files(client, tmp_path):
    # The games read scenario and tables files by path for the terminal; over HTTP only the shipped
    # scenarios exist, and a file named in the options is refused before anything is opened.
    planted = tmp_path / "settings.toml"
    planted.write_text('password = "hunter2"\n')
    listed_before = client.get("/api/games", params={"status": "ongoing"}).json()["games"]
    for game in ("frigate", "naval-warfare", "napoleonic-chess", "square-rigger", "pirate-chess"):
        refused = client.post("/api/games", json={"game": game, "scenario": str(planted), "opponent": "local"})
        assert refused.status_code == 422 and refused.json()["field"] == "scenario"
        assert "password" not in refused.text and "no scenario" in refused.json()["detail"]
    own_tables = {"game": "frigate", "options": {"tables": "/etc/passwd"}, "opponent": "local"}
    tables = client.post("/api/games", json=own_tables)
    assert tables.status_code == 422 and tables.json()["field"] == "options.tables"
    assert "root" not in tables.text
    assert client.get("/api/games", params={"status": "ongoing"}).json()["games"] == listed_before
    shipped = client.post("/api/games", json={"game": "frigate", "scenario": "the-chase", "opponent": "local"})
    assert shipped.status_code == 201, shipped.text


def test_a_duplicate_move_is_refused_with_the_current_version(client):
    game_id, blue, _ = two_players(client)
    body = {"version": 0, "actions": ["add 1"]}
    assert client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(blue)).status_code == 200
    again = client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(blue))
    assert again.status_code == 409
    assert again.json()["version"] == 1


def test_an_invitation_works_once_and_the_token_is_stored_only_hashed(client, database_url):
    created = new_game(client)
    invitation = created["invitations"]["red"]
    first = client.post(f"/api/games/{created['id']}/join", json={"invitation": invitation})
    assert first.status_code == 200 and first.json()["seats"] == ["red"]
    second = client.post(f"/api/games/{created['id']}/join", json={"invitation": invitation})
    assert second.status_code == 403
    assert client.get(f"/api/games/{created['id']}").json()["view"]["players"]["red"] == "human"
    assert len(created["token"]) >= 43  # 32 random bytes, base64: 256 bits
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        stored = " ".join(str(v) for row in conn.execute(text("SELECT * FROM qd_tokens")) for v in row)
    engine.dispose()
    assert created["token"] not in stored and first.json()["token"] not in stored


def test_a_spectator_watches_but_cannot_act(client):
    game_id, blue, _ = two_players(client)
    view = client.get(f"/api/games/{game_id}")
    assert view.status_code == 200 and view.json()["view"]["you"] == []
    for path, body in [
        ("moves", {"version": 0, "actions": ["add 1"]}),
        ("resign", {}),
        ("draw", {"answer": "offer"}),
        ("preview", {"version": 0, "actions": ["add 1"]}),
    ]:
        assert client.post(f"/api/games/{game_id}/{path}", json=body).status_code == 401


def test_one_screen_holds_both_seats(client):
    created = new_game(client, opponent="local")
    assert created["seats"] == ["blue", "red"] and created["invitations"] == {}
    token = created["token"]
    for version in range(4):
        response = client.post(
            f"/api/games/{created['id']}/moves", json={"version": version, "actions": ["add 2"]}, headers=auth(token)
        )
        assert response.status_code == 200
    view = response.json()["view"]
    assert view["state"]["total"] == 8 and view["you"] == ["blue", "red"]


def test_resignation_ends_the_game_and_the_record_replays(client):
    game_id, blue, red = two_players(client)
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 2"]}, headers=auth(blue))
    resigned = client.post(f"/api/games/{game_id}/resign", json={}, headers=auth(red))
    assert resigned.status_code == 200
    view = resigned.json()["view"]
    assert view["status"] == "finished" and view["outcome"]["result"] == "blue"
    late = client.post(f"/api/games/{game_id}/moves", json={"version": 2, "actions": ["add 1"]}, headers=auth(blue))
    assert late.status_code == 409
    text = client.get(f"/api/games/{game_id}/record").text
    record = Record.parse(text)
    assert record.moves == [("blue", "add 2"), ("red", "resign red")]
    assert record.result == "blue"
    from tests.web.counting_game import CountingGame

    assert record.final_state(CountingGame()).outcome.result == "blue"
    finished = client.get("/api/games", params={"status": "finished", "ids": game_id}).json()["games"]
    assert finished[0]["id"] == game_id and finished[0]["result"] == "blue"


def test_a_draw_is_offered_and_accepted_by_the_other_side(client):
    game_id, blue, red = two_players(client)
    draw = f"/api/games/{game_id}/draw"
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 2"]}, headers=auth(blue))
    assert client.post(draw, json={"answer": "accept"}, headers=auth(red)).status_code == 422
    assert client.post(draw, json={"answer": "offer"}, headers=auth(blue)).json()["view"]["draw_offer"] == "blue"
    assert client.post(draw, json={"answer": "accept"}, headers=auth(blue)).status_code == 422
    accepted = client.post(draw, json={"answer": "accept"}, headers=auth(red)).json()["view"]
    assert accepted["status"] == "finished" and accepted["outcome"]["result"] == "draw"
    assert "draw agreed" in client.get(f"/api/games/{game_id}/record").text
    # The draw is no move: the game steps through the moves before it.
    assert client.get(f"/api/games/{game_id}/replay", params={"moves": 1}).json()["state"]["total"] == 2


def test_playing_on_declines_a_draw_offer(client):
    game_id, blue, red = two_players(client)
    client.post(f"/api/games/{game_id}/draw", json={"answer": "offer"}, headers=auth(red))
    played = client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 1"]}, headers=auth(blue))
    assert played.json()["view"]["draw_offer"] is None


def test_chance_is_drawn_by_the_server_with_the_games_dice(client):
    game_id, blue, _ = two_players(client, options={"gusts": True})
    played = client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 1"]}, headers=auth(blue))
    entries = played.json()["entries"]
    assert [e["seat"] for e in entries] == ["blue", "chance"]
    assert entries[1]["text"] in ("gust 0", "gust 1")
    assert played.json()["version"] == 2


def test_preview_plans_without_storing_and_never_rolls(client):
    local = new_game(client, opponent="local", options={"gusts": True})
    url = f"/api/games/{local['id']}/preview"
    preview = client.post(url, json={"version": 0, "actions": ["add 2"]}, headers=auth(local["token"]))
    assert preview.status_code == 200
    assert preview.json()["state"]["total"] == 2 and preview.json()["to_act"] == ["chance"]
    beyond = client.post(url, json={"version": 0, "actions": ["add 2", "add 1"]}, headers=auth(local["token"]))
    assert beyond.status_code == 422 and beyond.json()["rule"] == "chance"
    assert client.get(f"/api/games/{local['id']}").json()["view"]["version"] == 0


def test_secret_bids_are_left_out_of_the_others_history_until_both_are_in(client):
    game_id, blue, red = two_players(client, options={"bids": True})
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["bid 3"]}, headers=auth(blue))
    as_red = client.get(f"/api/games/{game_id}", headers=auth(red)).json()
    assert as_red["history"] == [] and as_red["view"]["version"] == 0  # not even that blue has bid
    assert as_red["view"]["state"]["bids"]["blue"] is None
    spectator = client.get(f"/api/games/{game_id}").json()
    assert spectator["history"] == [] and spectator["view"]["version"] == 0
    assert spectator["view"]["state"]["bids"]["blue"] is None
    assert "bid" not in client.get(f"/api/games/{game_id}/record", headers=auth(red)).text.split("]")[-1]
    as_blue = client.get(f"/api/games/{game_id}", headers=auth(blue)).json()
    assert as_blue["history"][0]["text"] == "bid 3" and as_blue["view"]["version"] == 1
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["bid 1"]}, headers=auth(red))
    revealed = client.get(f"/api/games/{game_id}").json()
    assert [e["text"] for e in revealed["history"]] == ["bid 3", "bid 1"]
    assert revealed["view"]["state"]["bids"] == {"blue": 3, "red": 1}


def test_a_games_own_question_is_answered_as_the_asker_may_see_the_table(client):
    game_id, blue, red = two_players(client, options={"bids": True})
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["bid 3"]}, headers=auth(blue))
    ask = f"/api/games/{game_id}/ask"
    assert client.get(f"/api/games/{game_id}", headers=auth(red)).json()["view"]["questions"] == {
        "bids": "the bids made so far"}
    assert client.post(ask, json={"question": "bids", "version": 1}, headers=auth(blue)).json()["lines"] == [
        "blue bid 3"]
    for asker in ({"headers": auth(red)}, {}):  # red and a spectator: blue's bid is still secret
        assert client.post(ask, json={"question": "bids", "version": 0}, **asker).json()["lines"] == ["no bids"]
    planned = client.post(ask, json={"question": "BIDS", "version": 0, "actions": ["bid 1"]}, headers=auth(red))
    assert planned.json()["lines"] == ["red bid 1"]  # asked of the table after red's bid still being planned
    stale = client.post(ask, json={"question": "bids", "version": 1, "actions": ["bid 1"]}, headers=auth(red))
    assert stale.status_code == 409
    unknown = client.post(ask, json={"question": "range blue red", "version": 0}, headers=auth(red))
    assert unknown.status_code == 422 and unknown.json()["field"] == "question"
    assert "Counting Race has no question 'range'; it answers: bids" in unknown.json()["detail"]
    assert client.get(f"/api/games/{game_id}", headers=auth(red)).json()["view"]["version"] == 0  # nothing decided


def test_naval_warfares_ruler_is_asked_by_name_and_refused_in_a_battle_fought_by_eye(client):
    armada = new_game(client, game="naval-warfare", scenario="armada", opponent="local")
    ask = f"/api/games/{armada['id']}/ask"
    view = client.get(f"/api/games/{armada['id']}", headers=auth(armada["token"])).json()["view"]
    assert set(view["questions"]) == {"range", "bearing"}
    lines = client.post(ask, json={"question": "range Revenge San Martin", "version": view["version"]},
                        headers=auth(armada["token"])).json()["lines"]
    assert lines[0] == "Revenge to San Martin: 30.59 in, mainmast to mainmast"
    assert lines[-1] == "line of fire: clear"  # one line each, as the terminal prints them, unwrapped
    assert any(line.startswith("from San Martin (heading 0): Revenge bears 281") and line.endswith(
        "1 long out of range") for line in lines)
    wrong = client.post(ask, json={"question": "range Revenge Ark Royal", "version": view["version"]},
                        headers=auth(armada["token"]))
    assert wrong.status_code == 422 and wrong.json()["field"] == "ship"
    by_eye = new_game(client, game="naval-warfare", scenario="armada", opponent="local", options={"by-eye": True})
    view = client.get(f"/api/games/{by_eye['id']}", headers=auth(by_eye["token"])).json()["view"]
    assert view["questions"] == {}
    refused = client.post(f"/api/games/{by_eye['id']}/ask", json={"question": "range Revenge", "version": 0},
                          headers=auth(by_eye["token"]))
    assert refused.status_code == 422 and refused.json()["rule"] == "by eye"
    rigger = new_game(client, game="square-rigger", opponent="local")
    assert client.get(f"/api/games/{rigger['id']}").json()["view"]["questions"] == {}


def test_a_ship_named_while_she_cannot_act_is_refused_with_her_rule(client):
    # Galleys off Cape Passaro: Tiger comes on at move 3; typed in the browser's command line, her name
    # (alone or with a move) is refused by the rule that keeps her off the table, as the terminal says it
    game = new_game(client, game="naval-warfare", scenario="mediterranean", opponent="local")
    view = client.get(f"/api/games/{game['id']}", headers=auth(game["token"])).json()["view"]
    preview = f"/api/games/{game['id']}/preview"
    for text in ("Tiger", "tiger turn 0 run 1 turn 0"):
        refused = client.post(preview, json={"version": view["version"], "actions": [text], "seat": "english"},
                              headers=auth(game["token"]))
        assert refused.status_code == 422 and refused.json()["rule"] == "reinforcements"
        assert refused.json()["detail"].startswith("Tiger arrives on move 3 at the west edge")
    enemy = client.post(preview, json={"version": view["version"], "actions": ["Zuniga"], "seat": "english"},
                        headers=auth(game["token"]))
    assert enemy.status_code == 422 and enemy.json()["detail"].startswith("Zuniga is not english's to command")


def test_the_computer_answers_from_its_worker_process(client):
    created = new_game(client, opponent="computer", level="random", seat="red")
    assert created["seats"] == ["red"]
    view = wait_for_version(client, created["id"], 1)
    assert view["history"][0]["seat"] == "blue"
    assert view["view"]["to_act"] == ["red"]
    played = client.post(
        f"/api/games/{created['id']}/moves", json={"version": 1, "actions": ["add 1"]}, headers=auth(created["token"])
    )
    assert played.status_code == 200
    assert wait_for_version(client, created["id"], 3)["history"][2]["seat"] == "blue"


def test_the_computer_does_not_take_draws(client):
    created = new_game(client, opponent="computer", level="random")
    refused = client.post(f"/api/games/{created['id']}/draw", json={"answer": "offer"}, headers=auth(created["token"]))
    assert refused.status_code == 422


def test_replay_steps_through_a_game_during_play_and_after(client):
    local = new_game(client, opponent="local", options={"target": 3})
    moves = f"/api/games/{local['id']}/moves"
    replay = f"/api/games/{local['id']}/replay"
    client.post(moves, json={"version": 0, "actions": ["add 2"]}, headers=auth(local["token"]))
    during = client.get(replay, params={"moves": 5}).json()  # still in play: no further than was played
    assert (during["moves"], during["state"]["total"]) == (1, 2)
    client.post(moves, json={"version": 1, "actions": ["add 1"]}, headers=auth(local["token"]))
    totals = [client.get(replay, params={"moves": n}).json()["state"]["total"] for n in range(4)]
    assert totals == [0, 2, 3, 3]


def test_a_burst_beyond_the_rate_limit_is_refused(database_url):
    from fastapi.testclient import TestClient

    with TestClient(make_app(database_url, rate_burst=5, rate_per_second=0.001)) as limited:
        statuses = [limited.get("/api/catalogue").status_code for _ in range(8)]
    assert statuses[:5] == [200] * 5
    assert statuses[5:] == [429] * 3


def wait_for_version(client, game_id: str, version: int) -> dict:
    """Poll until the game reaches `version` (the computer thinks in another process)."""
    for _ in range(600):
        detail = client.get(f"/api/games/{game_id}").json()
        if detail["view"]["version"] >= version:
            return detail
        time.sleep(0.05)
    raise AssertionError(f"the game never reached version {version}")


def test_a_database_made_before_public_games_gains_the_column_and_lists_none(tmp_path):
    from sqlalchemy import create_engine, text

    from quarterdeck.store import GameStore

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "CREATE TABLE qd_games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL, scenario VARCHAR(128),"
                " options TEXT NOT NULL, seed BIGINT NOT NULL, players TEXT NOT NULL, version INTEGER NOT NULL,"
                " status VARCHAR(16) NOT NULL, result VARCHAR(64) NOT NULL, termination TEXT NOT NULL,"
                " agreed VARCHAR(16), draw_offer VARCHAR(64), created_at DATETIME NOT NULL,"
                " updated_at DATETIME NOT NULL)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO qd_games VALUES ('old', 'counting', 'standard', '{}', 1, '{}', 0, 'ongoing', '*', '',"
                " NULL, NULL, '2025-01-01 00:00:00', '2025-01-01 00:00:00')"
            )
        )
    engine.dispose()
    store = GameStore(url)
    try:
        assert store.list_games() == []
        assert [row.id for row in store.list_games(ids=["old"])] == ["old"]
    finally:
        store.close()


def test_a_wrong_method_is_told_every_method_the_path_takes(client):
    refused = client.delete("/api/games")  # GET and POST are two routes of one path
    assert refused.status_code == 405
    assert refused.headers["allow"] == "GET, POST" and "GET, POST" in refused.json()["detail"]
    assert client.put("/api/games/any/moves").headers["allow"] == "POST"


def test_the_schema_names_the_games_scenarios_seats_and_levels_and_refusals_are_json(client):
    schema = client.get("/openapi.json").json()
    fields = schema["components"]["schemas"]["CreateGame"]["properties"]
    assert {"counting", "frigate", "naval-warfare"} <= set(fields["game"]["enum"])
    scenarios = next(choice for choice in fields["scenario"]["anyOf"] if choice.get("type") == "string")["enum"]
    assert {"armada", "frigate-duel", "attack-at-dawn", "standard"} <= set(scenarios)
    seats = next(choice for choice in fields["seat"]["anyOf"] if choice.get("type") == "string")["enum"]
    assert {"english", "spanish", "blue.van", "red"} <= set(seats)
    assert fields["level"]["enum"] == client.get("/api/catalogue").json()["levels"]
    record = schema["paths"]["/api/games/{game_id}/record"]["get"]["responses"]
    assert "text/plain" in record["200"]["content"] and list(record["404"]["content"]) == ["application/json"]
    missing = client.get("/api/games/nonexistent/record")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/json"


def test_a_request_field_of_the_wrong_type_is_refused_not_converted(client):
    refused = client.post("/api/games", json={"game": "counting", "opponent": "local", "public": 0})
    assert refused.status_code == 422 and "public" in refused.json()["detail"]
    game_id, blue, _ = two_players(client)
    moves = f"/api/games/{game_id}/moves"
    assert client.post(moves, json={"version": "0", "actions": ["add 1"]}, headers=auth(blue)).status_code == 422
    assert client.get(f"/api/games/{game_id}").json()["view"]["version"] == 0


# --- importing a saved record (issue 12, point 14) -------------------------------------------------
def recorded(client, **body) -> tuple[str, str]:
    """A counting race at one screen with the wind on (chance after every move), two moves in, and
    its record as the game-over page's "download the record" link writes it: (game id, text)."""
    local = new_game(client, opponent="local", options={"gusts": True}, seed=5, **body)
    for number, move in enumerate(["add 2", "add 1"]):
        played = client.post(
            f"/api/games/{local['id']}/moves",
            json={"version": 2 * number, "actions": [move]},
            headers=auth(local["token"]),
        )
        assert played.status_code == 200, played.text
    return local["id"], client.get(f"/api/games/{local['id']}/record").text


def games_stored(client) -> int:
    return len(client.app.state.service.store.ongoing_ids())


def test_a_saved_record_against_the_computer_is_played_on_against_the_same_level(client):
    original, text = recorded(client)
    text = text.replace('[Players "blue=human red=human"]', '[Players "blue=human red=greedy"]')  # as `save` writes it
    imported = client.post("/api/import", json={"record": text})
    assert imported.status_code == 201, imported.text
    body = imported.json()
    assert (body["opponent"], body["level"], body["seats"], body["moves"], body["status"]) == (
        "computer",
        "greedy",
        ["blue"],
        4,
        "ongoing",
    )
    detail = client.get(f"/api/games/{body['id']}", headers=auth(body["token"])).json()
    before = client.get(f"/api/games/{original}").json()
    assert detail["view"]["state"] == before["view"]["state"]  # the same position, the dice thrown as they were
    assert [e["text"] for e in detail["history"]] == [e["text"] for e in before["history"]]
    assert detail["view"]["players"] == {"blue": "human", "red": "computer:greedy"}
    assert detail["view"]["to_act"] == ["blue"] and detail["view"]["legal"]["blue"]
    played = client.post(
        f"/api/games/{body['id']}/moves", json={"version": 4, "actions": ["add 1"]}, headers=auth(body["token"])
    )
    assert played.status_code == 200, played.text
    for _ in range(100):  # the computer answers for red
        if client.get(f"/api/games/{body['id']}").json()["view"]["version"] > 6:
            break
        time.sleep(0.05)
    assert [e["seat"] for e in client.get(f"/api/games/{body['id']}").json()["history"][6:8]] == ["red", "chance"]


def test_a_record_of_two_people_opens_at_one_screen_or_as_chosen(client):
    _, text = recorded(client)
    local = client.post("/api/import", json={"record": text}).json()
    assert (local["opponent"], local["seats"], local["level"]) == ("local", ["blue", "red"], None)
    invite = client.post("/api/import", json={"record": text, "opponent": "invite", "seat": "red"}).json()
    assert invite["seats"] == ["red"] and list(invite["invitations"]) == ["blue"]
    computer = client.post("/api/import", json={"record": text, "opponent": "computer", "level": "random"})
    assert computer.json()["level"] == "random" and computer.json()["seats"] == ["blue"]


def test_a_finished_record_is_imported_to_be_replayed(client):
    game_id, blue, red = two_players(client)
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 2"]}, headers=auth(blue))
    client.post(f"/api/games/{game_id}/resign", json={}, headers=auth(red))
    imported = client.post("/api/import", json={"record": client.get(f"/api/games/{game_id}/record").text})
    body = imported.json()
    assert imported.status_code == 201 and body["status"] == "finished" and body["moves"] == 2
    view = client.get(f"/api/games/{body['id']}").json()["view"]
    assert view["outcome"] == client.get(f"/api/games/{game_id}").json()["view"]["outcome"]
    assert view["outcome"]["result"] == "blue"
    assert client.get(f"/api/games/{body['id']}/replay", params={"moves": 1}).json()["state"]["total"] == 2
    late = client.post(
        f"/api/games/{body['id']}/moves", json={"version": 2, "actions": ["add 1"]}, headers=auth(body["token"])
    )
    assert late.status_code == 409


def test_a_draw_agreed_is_imported_as_agreed(client):
    game_id, blue, red = two_players(client)
    client.post(f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 2"]}, headers=auth(blue))
    client.post(f"/api/games/{game_id}/draw", json={"answer": "offer"}, headers=auth(red))
    client.post(f"/api/games/{game_id}/draw", json={"answer": "accept"}, headers=auth(blue))
    body = client.post("/api/import", json={"record": client.get(f"/api/games/{game_id}/record").text}).json()
    view = client.get(f"/api/games/{body['id']}").json()["view"]
    assert body["status"] == "finished" and view["outcome"]["result"] == "draw"
    assert view["outcome"]["reason"] == "draw agreed (red offered)"


def test_a_corrupt_or_illegal_record_is_refused_naming_what_is_wrong_and_makes_nothing(client):
    _, text = recorded(client)
    stored = games_stored(client)
    lines = text.splitlines()
    thrown = next(line for line in lines if " chance gust " in line)
    forged = thrown[:-1] + ("1" if thrown.endswith("0") else "0")
    cases = {
        "header": (text.replace('[Seed "5"]', "[Seed 5]"), 'line 4: a header line looks like [Key "value"]'),
        "illegal": (text.replace("blue add 2", "blue add 7"), "move 1 (blue add 7)"),
        "out of turn": (text.replace("3. red add 1", "3. blue add 1"), "move 3 (blue add 1)"),
        "no seat": (text.replace("3. red add 1", "3. green add 1"), "no seat 'green'; seats are blue, red"),
        "dice": (text.replace(thrown, forged), "the dice of seed 5 throw"),
        "result": (text.replace('[Result "*"]', '[Result "blue"]'), "its moves end with the game still in play"),
        "empty": ("1. blue add 2\n", "no [Game ...] header"),
    }
    for name, (bad, why) in cases.items():
        refused = client.post("/api/import", json={"record": bad})
        assert refused.status_code == 422, (name, refused.text)
        assert refused.json()["field"] == "record" and why in refused.json()["detail"], (name, refused.json())
    illegal = client.post("/api/import", json={"record": cases["illegal"][0]}).json()
    assert illegal["line"] == lines.index("1. blue add 2") + 1
    unknown = client.post("/api/import", json={"record": text.replace('"counting"', '"draughts"')})
    assert unknown.status_code == 422 and unknown.json()["field"] == "game"
    assert games_stored(client) == stored


def test_an_imported_record_cannot_make_the_server_read_its_own_files(client, tmp_path):
    planted = tmp_path / "fleet.toml"
    planted.write_text('password = "hunter2"\n')
    stored = games_stored(client)
    by_path = Record(game="naval-warfare", scenario=str(planted)).to_text()
    refused = client.post("/api/import", json={"record": by_path})
    assert refused.status_code == 422 and refused.json()["field"] == "scenario" and "password" not in refused.text
    tables = Record(game="frigate", scenario="the-chase", options={"tables": "/etc/passwd"}).to_text()
    refused = client.post("/api/import", json={"record": tables})
    assert refused.status_code == 422 and refused.json()["field"] == "options.tables" and "root" not in refused.text
    named = Record(game="naval-warfare", scenario="armada", files={str(planted): "0" * 16}).to_text()
    refused = client.post("/api/import", json={"record": named})
    assert refused.status_code == 422 and "a server reads none" in refused.json()["detail"]
    assert games_stored(client) == stored


def test_an_import_asks_only_for_what_it_means(client):
    _, text = recorded(client)
    terminal = text.replace('[Players "blue=human red=human"]', '[Players "blue=human red=ai:3:budget=iterations"]')
    refused = client.post("/api/import", json={"record": terminal})
    assert refused.status_code == 422 and "is no level of this server" in refused.json()["detail"]
    assert client.post("/api/import", json={"record": terminal, "level": "ai:3"}).status_code == 201
    assert client.post("/api/import", json={"record": text, "seat": "green"}).status_code == 422
    assert client.post("/api/import", json={"record": text, "extra": 1}).status_code == 422
    assert client.post("/api/import", json={"record": ""}).status_code == 422


def test_an_oversized_request_is_refused_before_it_is_read_and_changes_nothing(client):
    from quarterdeck.web.app import MAX_BODY

    local = new_game(client, opponent="local", options={"target": 3})
    moves, headers = f"/api/games/{local['id']}/moves", auth(local["token"])
    long_action = client.post(moves, json={"version": 0, "actions": ["add " + "1" * 600]}, headers=headers)
    assert long_action.status_code == 422 and "actions" in long_action.json()["detail"]
    padding = b" " * MAX_BODY  # JSON may carry any amount of white space: the size alone refuses it
    declared = client.post(moves, content=b'{"version": 0, "actions": ["add 2"]}' + padding,
                           headers={**headers, "content-type": "application/json"})
    assert declared.status_code == 413 and f"over {MAX_BODY} bytes" in declared.json()["detail"]

    def chunks(body: bytes):  # no declared length: the server counts as it reads
        for start in range(0, len(body), 1 << 20):
            yield body[start : start + (1 << 20)]

    streamed = client.post(moves, content=chunks(b'{"version": 0, "actions": ["add 2"]}' + padding),
                           headers={**headers, "content-type": "application/json"})
    assert streamed.status_code == 413
    assert client.get(f"/api/games/{local['id']}").json()["view"]["version"] == 0
    small = client.post(moves, content=chunks(b'{"version": 0, "actions": ["add 2"]}'),
                        headers={**headers, "content-type": "application/json"})
    assert small.status_code == 200, small.text
    assert client.get(f"/api/games/{local['id']}").json()["view"]["version"] == 1
