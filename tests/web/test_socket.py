"""The game socket: pushed updates, catch-up after a reconnect, moves and refusals over it."""

from __future__ import annotations

from tests.web.conftest import auth, make_app, two_players


def hello(ws, token=None, since=None):
    ws.send_json({"type": "hello", "token": token, "since": since})
    return ws.receive_json()


def test_hello_without_since_gets_a_full_sync(client):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        first = hello(ws, blue)
    assert first["type"] == "sync" and first["version"] == 0
    assert first["view"]["you"] == ["blue"] and first["history"] == []


def test_a_move_over_the_socket_reaches_both_players_in_order(client):
    game_id, blue, red = two_players(client)
    with (
        client.websocket_connect(f"/ws/games/{game_id}") as blue_ws,
        client.websocket_connect(f"/ws/games/{game_id}") as red_ws,
    ):
        hello(blue_ws, blue, 0)
        hello(red_ws, red, 0)
        blue_ws.send_json({"type": "move", "id": 7, "version": 0, "actions": ["add 2"]})
        update = blue_ws.receive_json()
        ack = blue_ws.receive_json()
        assert update["type"] == "update" and update["version"] == 1
        assert ack == {"type": "ack", "id": 7, "version": 1}
        pushed = red_ws.receive_json()
        assert pushed["type"] == "update" and pushed["entries"][0]["text"] == "add 2"
        assert pushed["view"]["legal"]["red"]  # red to act, and red holds red's seat
        assert update["view"]["legal"] == {}


def test_a_reconnecting_client_gets_the_moves_it_missed(client):
    game_id, blue, red = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        seen = hello(ws, red)["version"]
    for version, (token, amount) in enumerate([(blue, 1), (red, 2), (blue, 1)]):
        client.post(
            f"/api/games/{game_id}/moves", json={"version": version, "actions": [f"add {amount}"]}, headers=auth(token)
        )
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        catch_up = hello(ws, red, seen)
    assert catch_up["type"] == "update" and catch_up["version"] == 3
    assert [e["text"] for e in catch_up["entries"]] == ["add 1", "add 2", "add 1"]
    assert catch_up["view"]["state"]["total"] == 4


def test_a_client_claiming_a_future_version_is_resynced(client):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        assert hello(ws, blue, 99)["type"] == "sync"


def test_stale_malformed_and_unauthorised_messages_are_refused_and_the_socket_stays(client):
    game_id, blue, _ = two_players(client)
    with (
        client.websocket_connect(f"/ws/games/{game_id}") as ws,
        client.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        hello(ws, blue, 0)
        hello(spectator, None, 0)
        ws.send_json({"type": "move", "id": 1, "version": 3, "actions": ["add 1"]})
        assert ws.receive_json() | {"detail": ""} == {
            "type": "error",
            "id": 1,
            "status": 409,
            "version": 0,
            "detail": "",
        }
        ws.send_text("{not json")
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "teleport", "id": 2})
        assert ws.receive_json()["status"] == 400
        ws.send_json({"type": "move", "id": 3, "version": 0, "actions": ["add 9"]})
        refused = ws.receive_json()
        assert refused["status"] == 422 and refused["rule"] == "counting"
        spectator.send_json({"type": "move", "id": 4, "version": 0, "actions": ["add 1"]})
        assert spectator.receive_json()["status"] == 401
        ws.send_json({"type": "ping", "id": 5})
        assert ws.receive_json() == {"type": "pong", "id": 5, "version": 0}


def test_a_wrong_token_is_refused_at_hello(client):
    game_id, _, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        refused = hello(ws, "not-a-token")
    assert refused["type"] == "error" and refused["status"] == 403


def test_an_unknown_game_is_refused_at_hello(client):
    with client.websocket_connect("/ws/games/nope") as ws:
        assert hello(ws)["status"] == 404


def test_the_first_message_must_be_hello(client):
    game_id, _, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "ping", "id": 1})
        assert ws.receive_json()["status"] == 400


def test_draws_and_resignations_over_the_socket(client):
    game_id, blue, red = two_players(client)
    with (
        client.websocket_connect(f"/ws/games/{game_id}") as blue_ws,
        client.websocket_connect(f"/ws/games/{game_id}") as red_ws,
    ):
        hello(blue_ws, blue, 0)
        hello(red_ws, red, 0)
        blue_ws.send_json({"type": "draw", "id": 1, "answer": "offer"})
        assert blue_ws.receive_json()["view"]["draw_offer"] == "blue"
        assert blue_ws.receive_json()["type"] == "ack"
        assert red_ws.receive_json()["view"]["draw_offer"] == "blue"
        red_ws.send_json({"type": "draw", "id": 2, "answer": "decline"})
        assert red_ws.receive_json()["view"]["draw_offer"] is None
        assert red_ws.receive_json()["type"] == "ack"
        red_ws.send_json({"type": "resign", "id": 3})
        finished = red_ws.receive_json()
        assert finished["view"]["outcome"]["result"] == "blue"
        assert [e["text"] for e in finished["entries"]] == ["resign red"]


def test_a_flood_of_messages_meets_the_socket_rate_limit(database_url):
    from fastapi.testclient import TestClient

    with TestClient(make_app(database_url, rate_burst=3, rate_per_second=0.001)) as limited:
        game_id, blue, _ = two_players(limited)
        with limited.websocket_connect(f"/ws/games/{game_id}") as ws:
            hello(ws, blue, 0)
            for number in range(5):
                ws.send_json({"type": "ping", "id": number})
            replies = [ws.receive_json() for _ in range(5)]
    assert [r["type"] for r in replies] == ["pong"] * 3 + ["error"] * 2
    assert replies[-1]["status"] == 429
