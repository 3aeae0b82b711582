"""Secret decisions over the server: until the phase is revealed, another seat and a spectator learn
nothing of them, not even how many were made (the history, the version numbers they see and the
updates pushed to them all stay as they were). Core's Match makes the same promise for a seat's
history (core/session.py); Napoleonic Chess "Attack at Dawn" (seed 002, Advanced Scenarios a:
"write down their desired positions ... in secret and then reveal them") is the game that needs it.
"""

from __future__ import annotations

from typing import Any

from quarterdeck import games
from quarterdeck.store import GameRow
from quarterdeck.web.live import LiveGame
from tests.web.conftest import auth, new_game
from tests.web.test_socket import hello


def dawn(client: Any) -> tuple[str, str, str]:
    """Attack at Dawn with a friend: (game id, red's token, black's token)."""
    created = new_game(client, game="napoleonic-chess", scenario="attack-at-dawn")
    joined = client.post(f"/api/games/{created['id']}/join", json={"invitation": created["invitations"]["black"]})
    assert joined.status_code == 200, joined.text
    return created["id"], created["token"], joined.json()["token"]


def detail(client: Any, game_id: str, token: str | None) -> dict[str, Any]:
    return client.get(f"/api/games/{game_id}", headers=auth(token) if token else {}).json()


def place(client: Any, game_id: str, token: str, count: int) -> None:
    """`count` placements, each its own move, at the version this seat sees."""
    for _ in range(count):
        view = detail(client, game_id, token)["view"]
        (seat,) = view["you"]
        action = view["legal"][seat][0]["actions"][0]["text"]
        played = client.post(
            f"/api/games/{game_id}/moves", json={"version": view["version"], "actions": [action]}, headers=auth(token)
        )
        assert played.status_code == 200, played.text


def quiet_until_pong(ws: Any, message_id: int) -> dict[str, Any]:
    """Ping, and read what was pushed before the pong: nothing may have come."""
    ws.send_json({"type": "ping", "id": message_id})
    first = ws.receive_json()
    assert first["type"] == "pong", f"pushed before the pong: {first}"
    return first


def test_three_secret_placements_show_nothing_to_the_opponent_or_a_spectator(client):
    game_id, red, black = dawn(client)
    with (
        client.websocket_connect(f"/ws/games/{game_id}") as black_ws,
        client.websocket_connect(f"/ws/games/{game_id}") as spectator_ws,
    ):
        hello(black_ws, black, 0)
        hello(spectator_ws, None, 0)
        place(client, game_id, red, 3)
        assert quiet_until_pong(black_ws, 1)["version"] == 0
        assert quiet_until_pong(spectator_ws, 2)["version"] == 0
    for token in (black, None):
        seen = detail(client, game_id, token)
        assert seen["history"] == [] and seen["view"]["version"] == 0
        assert seen["view"]["state"]["hidden"].get("red", []) in ([], None)
        missed = client.get(f"/api/games/{game_id}/history", headers=auth(token) if token else {}).json()
        assert missed == {"version": 0, "entries": []}
        assert "place" not in client.get(f"/api/games/{game_id}/record", headers=auth(token) if token else {}).text
        # Stepping back through the game during play goes no further than what this viewer may see.
        stepped = client.get(f"/api/games/{game_id}/replay", params={"moves": 3}, headers=auth(token) if token else {})
        assert stepped.json()["moves"] == 0 and stepped.json()["state"]["hidden"].get("red", []) in ([], None)
    assert client.get(f"/api/games/{game_id}/replay", params={"moves": 3}, headers=auth(red)).json()["moves"] == 3
    mine = detail(client, game_id, red)
    assert [e["number"] for e in mine["history"]] == [1, 2, 3] and mine["view"]["version"] == 3


def test_each_side_places_at_its_own_version_and_the_reveal_shows_all_in_order(client):
    game_id, red, black = dawn(client)
    place(client, game_id, red, 2)
    place(client, game_id, black, 1)  # black saw version 0: red's two placements do not make it stale
    assert detail(client, game_id, black)["view"]["version"] == 1
    assert detail(client, game_id, red)["view"]["version"] == 2
    with client.websocket_connect(f"/ws/games/{game_id}") as black_ws:
        hello(black_ws, black, 1)
        place(client, game_id, red, 13)  # red's whole army is down: red has committed, which is public
        committed = black_ws.receive_json()
        assert committed["type"] == "update" and committed["entries"] == [] and committed["version"] == 1
        assert committed["view"]["to_act"] == ["black"]
        place(client, game_id, black, 14)  # the last placement reveals both deployments
        numbers = []
        while len(numbers) < 29:
            update = black_ws.receive_json()
            assert update["type"] == "update"
            numbers += [entry["number"] for entry in update["entries"]]
    assert numbers == list(range(2, 31))  # black's own 14, then red's 15 and the revealing one, in order
    for token in (black, None, red):
        seen = detail(client, game_id, token)
        assert seen["view"]["version"] == 30 and len(seen["history"]) == 30
        assert [e["number"] for e in seen["history"]] == list(range(1, 31))
        assert seen["view"]["state"]["phase"] != "secret-deployment"
    spectator_order = [(e["seat"], e["text"]) for e in detail(client, game_id, None)["history"]]
    record = client.get(f"/api/games/{game_id}/record").text
    assert [line.split(" ", 2)[1:] for line in record.strip().splitlines() if line[:1].isdigit()] == [
        [seat, text] for seat, text in spectator_order
    ]


def test_a_stale_version_is_still_refused_within_the_secret_phase(client):
    game_id, red, _ = dawn(client)
    place(client, game_id, red, 1)
    stale = client.post(
        f"/api/games/{game_id}/moves", json={"version": 0, "actions": ["place infantry h3"]}, headers=auth(red)
    )
    assert stale.status_code == 409 and stale.json()["version"] == 1


def test_planning_the_last_placement_reveals_nothing_before_it_is_sent(client):
    game_id, red, black = dawn(client)
    place(client, game_id, red, 15)  # red's whole army, in secret
    place(client, game_id, black, 14)
    view = detail(client, game_id, black)["view"]
    last = view["legal"]["black"][0]["actions"][0]["text"]
    preview = client.post(f"/api/games/{game_id}/preview", json={"version": view["version"], "actions": [last]},
                          headers=auth(black))
    assert preview.status_code == 200, preview.text
    planned = preview.json()
    # black's plan is complete, so the page sends it; until then red's dispositions stay hidden
    assert "black" not in planned["to_act"] and planned["version"] == 15
    state = planned["state"]
    assert state["units"] == [] and state["hidden"]["red"] == [] and len(state["hidden"]["black"]) == 15
    assert sum(state["to_place"]["red"].values()) == 15  # as if red had placed nothing: not even how far it got
    sent = client.post(f"/api/games/{game_id}/moves", json={"version": 14, "actions": [last]}, headers=auth(black))
    assert {unit["army"] for unit in sent.json()["view"]["state"]["units"]} == {"red", "black"}  # dawn


def test_the_game_as_a_seat_knows_it_is_the_game_replayed_without_the_others_secrets():
    # Frigate with SiMove after some turns: red has plotted, blue not yet; what blue may know is the
    # game replayed from the start without red's plot, worked out from the phase's start alone
    game = games.get("frigate")
    row = GameRow("g", "frigate", "sister-frigates", {"simove": True}, 5, {"blue": "human", "red": "human"})
    live = LiveGame.start(game, row, [])
    live.throw_dice()
    phases = 0
    while phases < 6 or not (live.hidden and live.entries[-1].seat == "red"):
        (seat,) = live.acting_seats()[-1:]
        player = live.state.players.index(seat)
        before = len(live.hidden)
        live.play(live.state.action_to_text(live.state.legal_actions(player)[0]), seat, frozenset({seat}))
        phases += bool(live.hidden) and not before
    blue = frozenset({"blue"})
    known = live.as_known_to(blue)
    moves = [(e.seat, e.text) for e in live.entries if e.seat == "blue" or e.number not in live.hidden]
    replayed = LiveGame.start(game, row, moves)
    assert known.state.to_json() == replayed.state.to_json() != live.state.to_json()
    assert known.version_for(blue) == live.version_for(blue) == replayed.version
    assert live.as_known_to(frozenset({"red"})).state.to_json() == live.state.to_json()  # red knows it all
