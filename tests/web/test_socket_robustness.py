"""Hostile frames on the game socket: each is refused with an error or a close code that says why,
and a socket that survives still answers a ping. None of them may drop the connection without a
close frame, silence the socket, or make the server echo a huge input back."""

from __future__ import annotations

import json

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from quarterdeck.web.sockets import MAX_FRAME_BYTES
from tests.web.conftest import ServerProcess, auth, two_players
from tests.web.test_socket import hello

CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_TOO_BIG = 1009


def still_answers(ws, message_id: int = 99) -> None:
    ws.send_json({"type": "ping", "id": message_id})
    assert ws.receive_json() == {"type": "pong", "id": message_id, "version": 0}


def closed_with(ws) -> int:
    """The close code the server sent (a drop without a close frame fails the test)."""
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def test_a_binary_frame_is_closed_with_1003(client):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        hello(ws, blue, 0)
        ws.send_bytes(b'{"type": "ping", "id": 1}')
        assert closed_with(ws) == CLOSE_UNSUPPORTED_DATA


def test_a_binary_hello_is_closed_with_1003(client):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_bytes(b"\x00\x01")
        assert closed_with(ws) == CLOSE_UNSUPPORTED_DATA


def test_deeply_nested_json_is_refused_and_the_socket_stays(client):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        hello(ws, blue, 0)
        ws.send_text("[" * 100_000)
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 400 and "nested" in refused["detail"]
        ws.send_text('{"type": "ping", "id": ' + "[" * 5000 + "]" * 5000 + "}")
        assert ws.receive_json()["status"] == 400
        still_answers(ws)


def test_a_message_too_big_to_read_is_closed_with_1009(client):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        hello(ws, blue, 0)
        ws.send_json({"type": "move", "id": 1, "version": 0, "actions": ["x" * 2_000_000]})
        assert closed_with(ws) == CLOSE_TOO_BIG
    assert client.get(f"/api/games/{game_id}").json()["view"]["version"] == 0


@pytest.mark.parametrize(
    "frame",
    [
        '{"type":"move","id":"\\ud800","version":0,"actions":["x"]}',  # in the id, which a reply repeats
        '{"type":"move","id":3,"version":0,"actions":["add \\udfff"]}',  # in an action
    ],
)
def test_a_lone_surrogate_is_refused_and_does_not_silence_the_socket(client, frame):
    game_id, blue, _ = two_players(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        hello(ws, blue, 0)
        ws.send_text(frame)
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 400 and refused["id"] in (None, 3)
        still_answers(ws)


def test_an_illegal_action_is_not_echoed_back_in_full(client):
    game_id, blue, _ = two_players(client)
    huge = "add " + "9" * 200_000  # no action is that long: refused as malformed, before it is parsed
    long = "add " + "9" * 490  # within the length an action may have: refused by the rules
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        hello(ws, blue, 0)
        ws.send_json({"type": "move", "id": 1, "version": 0, "actions": [huge]})
        refused = ws.receive_json()
        assert refused["status"] == 400 and "actions.0: String should have at most 500 characters" in refused["detail"]
        ws.send_json({"type": "move", "id": 2, "version": 0, "actions": [long]})
        refused = ws.receive_text()
        assert '"status":422' in refused.replace(" ", "") and "more characters cut" in refused
        still_answers(ws)
    for action in (huge, long):
        body = {"version": 0, "actions": [action]}
        over_http = client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(blue))
        assert over_http.status_code == 422 and len(over_http.content) < 1_000


def test_over_a_real_connection_a_lone_surrogate_leaves_the_socket_answering(database_url, servers):
    """The test client never encodes a frame; a real server does, which is where a reply carrying a
    lone surrogate used to kill the socket's sender without a word."""
    server = ServerProcess(database_url).start()
    servers.append(server)
    created = httpx.post(f"{server.url}/api/games", json={"game": "counting", "opponent": "local"}).json()
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "since": 0}))
        assert json.loads(ws.recv(timeout=10))["type"] == "update"
        ws.send('{"type":"move","id":"\\ud800","version":0,"actions":["x"]}')
        refused = json.loads(ws.recv(timeout=10))
        assert refused["type"] == "error" and refused["status"] == 400
        ws.send(json.dumps({"type": "ping", "id": 2}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "id": 2, "version": 0}
        ws.send(b"\x00")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_UNSUPPORTED_DATA


def test_over_a_real_connection_a_frame_over_the_limit_is_closed_before_it_is_held_whole(database_url, servers):
    """The server reads at most MAX_FRAME_BYTES of a frame (uvicorn's own default is 16 MiB): a larger
    one closes the socket with 1009 and changes nothing, and a new socket plays on."""
    server = ServerProcess(database_url).start()
    servers.append(server)
    created = httpx.post(f"{server.url}/api/games", json={"game": "counting", "opponent": "local"}).json()
    address = f"ws://127.0.0.1:{server.port}/ws/games/{created['id']}"
    with connect(address, max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"], "since": 0}))
        assert json.loads(ws.recv(timeout=10))["type"] == "update"
        ws.send(json.dumps({"type": "move", "id": 1, "version": 0, "actions": ["x" * (MAX_FRAME_BYTES + 1)]}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_BIG
        # closed by the connection's own limit, not read whole and then refused by the app
        assert closed.value.rcvd.reason == f"frame exceeds limit of {MAX_FRAME_BYTES} bytes"
    with connect(address) as ws:
        ws.send(json.dumps({"type": "hello", "token": created["token"]}))
        synced = json.loads(ws.recv(timeout=10))
        assert synced["type"] == "sync" and synced["version"] == 0
