"""Several server processes on one database: a move stored through one is pushed to the sockets
connected to the others (PostgreSQL LISTEN/NOTIFY; with SQLite, the watched games are polled)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.web.conftest import ServerProcess, auth

PATIENCE_S = 60  # how long a socket waits for a pushed message before the test fails


def two_seats(url: str) -> tuple[str, str, str]:
    created = httpx.post(f"{url}/api/games", json={"game": "counting", "opponent": "invite", "seed": 1})
    created.raise_for_status()
    game = created.json()
    joined = httpx.post(f"{url}/api/games/{game['id']}/join", json={"invitation": game["invitations"]["red"]})
    joined.raise_for_status()
    return game["id"], game["token"], joined.json()["token"]


def receive(ws: Any) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=PATIENCE_S))


def next_update(ws: Any, version: int) -> dict[str, Any]:
    """The first pushed update that reaches `version` (a catch-up may come first)."""
    while True:
        message = receive(ws)
        if message["type"] == "update" and message["version"] >= version:
            return message


def test_a_move_posted_to_one_server_reaches_a_socket_on_another(servers, database_url):
    a = ServerProcess(database_url).start()
    servers.append(a)
    b = ServerProcess(database_url).start()
    servers.append(b)
    game_id, blue, red = two_seats(b.url)
    with connect(f"ws://127.0.0.1:{a.port}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": red, "since": None}))
        first = receive(ws)
        assert first["type"] == "sync" and first["version"] == 0
        posted = httpx.post(
            f"{b.url}/api/games/{game_id}/moves", json={"version": 0, "actions": ["add 2"]}, headers=auth(blue)
        )
        assert posted.status_code == 200, posted.text
        pushed = next_update(ws, 1)
        assert [entry["text"] for entry in pushed["entries"]] == ["add 2"]
        assert pushed["view"]["state"]["total"] == 2
        assert pushed["view"]["legal"]["red"]  # red to act now, and this socket holds red's seat

        # The answer goes the other way, over the socket on A; a watcher on B sees it.
        with connect(f"ws://127.0.0.1:{b.port}/ws/games/{game_id}") as watcher:
            watcher.send(json.dumps({"type": "hello", "since": 1}))
            assert receive(watcher)["version"] >= 1
            ws.send(json.dumps({"type": "move", "id": 1, "version": 1, "actions": ["add 1"]}))
            assert next_update(ws, 2)["version"] == 2
            seen = next_update(watcher, 2)
            assert [entry["text"] for entry in seen["entries"]][-1] == "add 1"
            assert seen["view"]["legal"] == {}  # a spectator

        # A draw offer stores no move, yet the other server's sockets still hear of it.
        offered = httpx.post(f"{b.url}/api/games/{game_id}/draw", json={"answer": "offer"}, headers=auth(blue))
        assert offered.status_code == 200, offered.text
        while True:
            message = receive(ws)
            if message["type"] == "update" and message["view"]["draw_offer"] == "blue":
                break
