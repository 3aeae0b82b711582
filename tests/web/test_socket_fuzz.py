"""A hypothesis state machine of the socket protocol under random valid and invalid traffic.

Two seated players and a spectator (the counting race with its opening secret bids) send moves for
their own seat and for the other's, stale moves, junk text, deeply nested JSON, lone surrogates,
oversized and binary frames, and reconnect when the server closes on them. After every step:

* every acknowledged move is stored, in the order acknowledged, for the seat of the one who sent it;
* nobody acts for a seat it does not hold (such moves are refused with 403, and never stored);
* no client has seen another seat's bid before both bids are in, nor a version that counts it;
* every connected socket still answers a ping.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import two_players

SEATS = ("blue", "red")
CLIENTS = ("blue", "red", "spectator")

JUNK = st.one_of(
    st.text(max_size=40),
    st.just("[" * 50_000),
    st.just('{"type": "move", "id": "\\ud800", "version": 0, "actions": ["add 1"]}'),
    st.just('{"type": "move", "id": 1, "version": 0, "actions": ["add \\udc00"]}'),
    st.just('{"type": "hello", "token": null}'),
    st.just('{"type": "move", "id": {"a": [1]}, "version": -1, "actions": []}'),
    st.builds(
        lambda n: json.dumps({"type": "move", "id": 5, "version": 0, "actions": ["add " + "9" * n]}),
        st.integers(1, 5000),
    ),
    st.dictionaries(
        st.sampled_from(["type", "id", "version", "actions", "seat", "answer"]), st.integers() | st.text(max_size=5)
    ).map(json.dumps),
)


class Client:
    def __init__(self, name: str, token: str | None):
        self.name = name
        self.token = token
        self.seats = {name} if name in SEATS else set()
        self.session: Any = None
        self.socket: Any = None
        self.version = 0
        self.seen: list[tuple[str, str]] = []  # (seat, text) in the order learnt
        self.next_id = 0

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "sync":
            self.seen = [(e["seat"], e["text"]) for e in message["history"]]
        elif message["type"] == "update":
            for entry in message["entries"]:
                assert entry["number"] == len(self.seen) + 1, "an update skipped or repeated a move"
                self.seen.append((entry["seat"], entry["text"]))
        else:
            return
        self.version = message["version"]
        assert self.version == len(self.seen)

    def read_reply(self, message_id: int) -> dict[str, Any]:
        """Fold pushed updates in until the reply to `message_id` (an ack, a pong or an error)."""
        while True:
            message = self.socket.receive_json()
            if message["type"] in ("ack", "pong", "error") and message.get("id") == message_id:
                return message
            assert message["type"] in ("sync", "update", "error"), message
            self.take(message)


class Traffic(RuleBasedStateMachine):
    def __init__(self, client: Any):
        super().__init__()
        self.client = client
        self.game_id, blue, red = two_players(client, options={"bids": True, "target": 15})
        self.clients = {"blue": Client("blue", blue), "red": Client("red", red), "spectator": Client("spectator", None)}
        self.acked: list[tuple[str, str]] = []  # (seat of the sender, action) in the order acknowledged
        for name in CLIENTS:
            self.connect(name)

    # --- helpers ---------------------------------------------------------------------------------
    def stored(self) -> list[tuple[str, str]]:
        return self.client.app.state.service.store.moves(self.game_id)

    def bidding(self) -> bool:
        return sum(1 for _, text in self.stored() if text.startswith("bid")) < 2

    def drop(self, name: str) -> None:
        peer = self.clients[name]
        if peer.session is not None:
            peer.session.__exit__(None, None, None)
        peer.session = peer.socket = None

    # --- rules -----------------------------------------------------------------------------------
    @rule(name=st.sampled_from(CLIENTS))
    def connect(self, name: str) -> None:
        peer = self.clients[name]
        if peer.socket is not None:
            return
        peer.session = self.client.websocket_connect(f"/ws/games/{self.game_id}")
        peer.socket = peer.session.__enter__()
        peer.socket.send_json({"type": "hello", "token": peer.token, "since": peer.version})
        peer.take(peer.socket.receive_json())

    @rule(
        name=st.sampled_from(CLIENTS),
        action=st.sampled_from(["add 1", "add 2", "bid 1", "bid 4", "add 3"]),
        for_seat=st.sampled_from((None, *SEATS)),
        lag=st.integers(0, 1),
    )
    def move(self, name: str, action: str, for_seat: str | None, lag: int) -> None:
        peer = self.clients[name]
        if peer.socket is None:
            return
        peer.next_id += 1
        message = {"type": "move", "id": peer.next_id, "version": max(0, peer.version - lag), "actions": [action]}
        if for_seat is not None:
            message["seat"] = for_seat
        before = len(self.stored())
        peer.socket.send_json(message)
        reply = peer.read_reply(peer.next_id)
        if reply["type"] == "ack":
            (seat,) = peer.seats if for_seat is None else {for_seat}
            assert seat in peer.seats, "a move was accepted for a seat the sender does not hold"
            self.acked.append((seat, action))
        else:
            assert len(self.stored()) == before, "a refused move changed the game"
            if not peer.seats:
                assert reply["status"] == 401
            elif for_seat is not None and for_seat not in peer.seats:
                assert reply["status"] == 403

    @rule(name=st.sampled_from(CLIENTS), junk=JUNK)
    def junk(self, name: str, junk: str) -> None:
        peer = self.clients[name]
        if peer.socket is None:
            return
        before = len(self.stored())
        peer.socket.send_text(junk)
        peer.next_id += 1
        peer.socket.send_json({"type": "ping", "id": peer.next_id})
        while (reply := peer.read_reply(peer.next_id))["type"] != "pong":
            assert reply["type"] == "error" and reply["status"] in (400, 401, 403, 409, 422)
        assert len(self.stored()) == before, "junk changed the game"

    @rule(name=st.sampled_from(CLIENTS), big=st.booleans())
    def unreadable_frame(self, name: str, big: bool) -> None:
        """A binary or oversized frame: the server closes with 1003 or 1009, and the client reconnects."""
        peer = self.clients[name]
        if peer.socket is None:
            return
        if big:
            peer.socket.send_text("x" * 300_000)
        else:
            peer.socket.send_bytes(b"\x00binary")
        try:
            while True:
                peer.take(peer.socket.receive_json())
        except WebSocketDisconnect as closed:
            assert closed.code == (1009 if big else 1003)
        self.drop(name)
        self.connect(name)

    # --- what must always hold -------------------------------------------------------------------
    @invariant()
    def acknowledged_moves_are_stored_for_their_senders(self) -> None:
        stored = [(seat, text) for seat, text in self.stored() if seat != "chance"]
        assert stored == self.acked

    @invariant()
    def no_secret_leaks_and_every_socket_answers(self) -> None:
        bidding = self.bidding()
        for peer in self.clients.values():
            if peer.socket is None:
                continue
            peer.next_id += 1
            peer.socket.send_json({"type": "ping", "id": peer.next_id})
            pong = peer.read_reply(peer.next_id)
            assert pong["type"] == "pong" and pong["version"] == peer.version
            if bidding:
                assert all(seat in peer.seats for seat, text in peer.seen if text.startswith("bid")), peer.seen
                assert peer.version == sum(1 for seat, _ in self.stored() if seat in peer.seats)
            else:  # all is known; the two bids perhaps in another order (one's own first)
                stored = [tuple(move) for move in self.stored()]
                assert sorted(peer.seen[:2]) == sorted(stored[:2]) and peer.seen[2:] == stored[2:]

    def teardown(self) -> None:
        for name in CLIENTS:
            self.drop(name)


def test_random_traffic_from_players_and_a_spectator_keeps_the_promises(client):
    run_state_machine_as_test(
        lambda: Traffic(client), settings=settings(max_examples=15, stateful_step_count=20, deadline=None)
    )
