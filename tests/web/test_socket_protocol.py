"""A hypothesis state machine of the socket protocol: two players who connect, disconnect,
play (over the socket or HTTP, sometimes with a stale version) and reconnect.

After every step each connected client pings and reads up to its pong; by then it must know
exactly the moves the server stored, in order, with nothing missed or repeated.
"""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule, run_state_machine_as_test

from tests.web.conftest import auth, two_players

SEATS = ("blue", "red")
TARGET = 12


class Player:
    def __init__(self, seat: str, token: str):
        self.seat = seat
        self.token = token
        self.session: Any = None
        self.socket: Any = None
        self.version: int | None = None  # None: has never synced
        self.texts: list[str] = []
        self.next_id = 0

    def take(self, message: dict[str, Any]) -> None:
        """Fold a sync or update into what this player knows."""
        if message["type"] == "sync":
            self.texts = [e["text"] for e in message["history"]]
        elif message["type"] == "update":
            for entry in message["entries"]:
                assert entry["number"] == len(self.texts) + 1, "an update skipped or repeated a move"
                self.texts.append(entry["text"])
        else:
            return
        self.version = message["version"]
        assert self.version == len(self.texts)

    def read_until(self, kind: str, message_id: int) -> dict[str, Any]:
        while True:
            message = self.socket.receive_json()
            if message["type"] in (kind, "error") and message.get("id") == message_id:
                return message
            assert message["type"] in ("sync", "update"), message
            self.take(message)

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.socket.send_json({**message, "id": self.next_id})
        kind = "pong" if message["type"] == "ping" else "ack"
        return self.read_until(kind, self.next_id)


class TwoPlayers(RuleBasedStateMachine):
    def __init__(self, client: Any):
        super().__init__()
        self.client = client
        self.game_id, blue, red = two_players(client, options={"target": TARGET})
        self.players = {"blue": Player("blue", blue), "red": Player("red", red)}
        self.stored: list[str] = []  # what the server has acknowledged, in order
        self.total = 0

    # --- the model ------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.total >= TARGET or any(text.startswith("resign") for text in self.stored)

    def to_move(self) -> str:
        return SEATS[len(self.stored) % 2]

    def expect(self, seat: str, version: int, amount: int) -> int:
        """The status the server must answer to `seat` playing `add amount` at `version`."""
        if version != len(self.stored) or self.over:
            return 409
        if seat != self.to_move() or amount not in (1, 2):
            return 422
        return 200

    def stored_move(self, amount: int) -> None:
        self.stored.append(f"add {amount}")
        self.total += amount

    # --- rules ----------------------------------------------------------------------------------
    @rule(seat=st.sampled_from(SEATS), fresh=st.booleans())
    def connect(self, seat: str, fresh: bool) -> None:
        player = self.players[seat]
        if player.socket is not None:
            return
        player.session = self.client.websocket_connect(f"/ws/games/{self.game_id}")
        player.socket = player.session.__enter__()
        since = None if fresh else player.version
        player.socket.send_json({"type": "hello", "token": player.token, "since": since})
        first = player.socket.receive_json()
        assert first["type"] == ("sync" if since is None else "update")
        player.take(first)

    @rule(seat=st.sampled_from(SEATS))
    def disconnect(self, seat: str) -> None:
        player = self.players[seat]
        if player.socket is not None:
            player.session.__exit__(None, None, None)
            player.session = player.socket = None

    @precondition(lambda self: any(p.socket is not None for p in self.players.values()))
    @rule(seat=st.sampled_from(SEATS), amount=st.integers(0, 3), lag=st.integers(0, 2))
    def play_over_the_socket(self, seat: str, amount: int, lag: int) -> None:
        player = self.players[seat]
        if player.socket is None or player.version is None:
            return
        version = max(0, player.version - lag)
        expected = self.expect(seat, version, amount)
        reply = player.request({"type": "move", "version": version, "actions": [f"add {amount}"]})
        if expected == 200:
            assert reply["type"] == "ack", reply
            self.stored_move(amount)
        else:
            assert reply["type"] == "error" and reply["status"] == expected, (expected, reply)
            if expected == 409 and not self.over:
                assert reply["version"] == len(self.stored)

    @rule(amount=st.integers(1, 2))
    def play_over_http(self, amount: int) -> None:
        seat = self.to_move()
        version = len(self.stored)
        response = self.client.post(
            f"/api/games/{self.game_id}/moves",
            json={"version": version, "actions": [f"add {amount}"]},
            headers=auth(self.players[seat].token),
        )
        assert response.status_code == self.expect(seat, version, amount), response.text
        if response.status_code == 200:
            self.stored_move(amount)

    @rule(seat=st.sampled_from(SEATS))
    def resign_sometimes(self, seat: str) -> None:
        if len(self.stored) < 6 or self.over:
            return
        response = self.client.post(
            f"/api/games/{self.game_id}/resign", json={}, headers=auth(self.players[seat].token)
        )
        assert response.status_code == 200
        self.stored.append(f"resign {seat}")

    # --- what must always hold -------------------------------------------------------------------
    @invariant()
    def every_connected_player_knows_exactly_the_stored_moves(self) -> None:
        for player in self.players.values():
            if player.socket is None:
                continue
            pong = player.request({"type": "ping"})
            assert pong["version"] == len(self.stored)
            assert player.version == len(self.stored)
            assert player.texts == self.stored

    def teardown(self) -> None:
        for seat in SEATS:
            self.disconnect(seat)


def test_two_players_connecting_playing_and_reconnecting_stay_in_step(client):
    run_state_machine_as_test(
        lambda: TwoPlayers(client),
        settings=settings(max_examples=20, stateful_step_count=25, deadline=None),
    )
