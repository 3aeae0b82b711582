"""The move request's short path (web/fastpath.py): an ordinary move is served without FastAPI's
machinery, and answers exactly as the FastAPI route does; anything unusual goes to the route."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import auth, new_game

ROUTE_ONLY = "application/json; charset=utf-8"  # FastAPI reads it as JSON; the short path leaves it alone


def send(client, game_id: str, body: object, token: str | None, content_type: str = "application/json"):
    headers = {"Content-Type": content_type, **(auth(token) if token else {})}
    return client.post(f"/api/games/{game_id}/moves", content=json.dumps(body), headers=headers)


def two_local_games(client) -> list[dict]:
    return [new_game(client, opponent="local") for _ in range(2)]


def test_a_move_by_either_path_is_stored_and_answered_alike(client):
    short, routed = two_local_games(client)
    answers = [
        send(client, short["id"], {"version": 0, "actions": ["add 2"]}, short["token"]),
        send(client, routed["id"], {"version": 0, "actions": ["add 2"]}, routed["token"], ROUTE_ONLY),
    ]
    assert [a.status_code for a in answers] == [200, 200]
    bodies = [a.json() for a in answers]
    for body in bodies:
        del body["view"]["id"]
    assert bodies[0] == bodies[1]
    assert bodies[0]["version"] == 1 and bodies[0]["view"]["to_act"] == ["red"]
    stored = client.get(f"/api/games/{short['id']}/history", headers=auth(short["token"])).json()
    assert [e["text"] for e in stored["entries"]] == ["add 2"]


@pytest.mark.parametrize(
    ("body", "token", "status"),
    [
        ({"version": 3, "actions": ["add 1"]}, "own", 409),  # stale
        ({"version": 0, "actions": ["add 7"]}, "own", 422),  # illegal
        ({"version": 0, "actions": ["add 1"], "seat": "green"}, "own", 403),  # a seat nobody holds
        ({"version": 0, "actions": ["add 1"]}, "stranger", 403),  # a token of another game
        ({"version": "0", "actions": ["add 1"]}, "own", 422),  # strict: a number as text is refused
        ({"version": 0, "actions": []}, "own", 422),  # no action
        ({"version": 0, "actions": ["add 1"], "extra": 1}, "own", 422),  # a field the API does not know
    ],
)
def test_a_refused_move_reads_the_same_by_either_path(client, body, token, status):
    short, routed = two_local_games(client)
    stranger = new_game(client, opponent="local")["token"]
    answers = [
        send(client, game["id"], body, stranger if token == "stranger" else game["token"], content_type)
        for game, content_type in ((short, "application/json"), (routed, ROUTE_ONLY))
    ]
    assert [a.status_code for a in answers] == [status, status]
    assert answers[0].json() == answers[1].json()
    for game in (short, routed):  # nothing was stored
        assert client.get(f"/api/games/{game['id']}").json()["view"]["version"] == 0


def test_an_unknown_game_and_a_missing_token_are_refused_as_the_route_refuses_them(client):
    game = new_game(client, opponent="local")
    missing = [
        send(client, "no-such-game", {"version": 0, "actions": ["add 1"]}, game["token"], kind)
        for kind in ("application/json", ROUTE_ONLY)
    ]
    assert [m.status_code for m in missing] == [404, 404] and missing[0].json() == missing[1].json()
    spectator = send(client, game["id"], {"version": 0, "actions": ["add 1"]}, None)
    assert spectator.status_code == 401
    lower_case = client.post(
        f"/api/games/{game['id']}/moves",
        json={"version": 0, "actions": ["add 1"]},
        headers={"Authorization": f"bearer {game['token']}"},  # the route's HTTPBearer reads any case
    )
    assert lower_case.status_code == 200 and lower_case.json()["version"] == 1


def test_a_body_that_is_not_json_is_answered_by_the_route(client):
    game = new_game(client, opponent="local")
    broken = client.post(
        f"/api/games/{game['id']}/moves",
        content=b'{"version": 0, "actions": ["add 1"',
        headers={"Content-Type": "application/json", **auth(game["token"])},
    )
    assert broken.status_code == 422
    assert broken.json()["detail"] == "malformed request: the body is not JSON: Expecting ',' delimiter at character 34"
    for content_type in ("application/json", ROUTE_ONLY):  # a body saved in Latin-1, by either path
        unreadable = client.post(
            f"/api/games/{game['id']}/moves",
            content='{"version": 0, "actions": ["add 1 \u00e9"]}'.encode("latin-1"),
            headers={"Content-Type": content_type, **auth(game["token"])},
        )
        assert unreadable.status_code == 400
        assert unreadable.json()["detail"].startswith("malformed request: the body is not JSON: JSON is UTF-8 text")
        deep = client.post(
            f"/api/games/{game['id']}/moves",
            content=b'{"version": 0, "actions": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            headers={"Content-Type": content_type, **auth(game["token"])},
        )
        assert deep.status_code == 400
        assert deep.json()["detail"].endswith("the body is not JSON: it nests arrays or objects too deeply to be read")
    assert client.get(f"/api/games/{game['id']}").json()["view"]["version"] == 0


def test_only_the_unusual_request_reaches_the_route(client, monkeypatch):
    import quarterdeck.web.app as app_module

    routed: list[str] = []
    original = app_module.play_turn

    async def spy(service, game_id, seats, turn):
        routed.append(game_id)
        return await original(service, game_id, seats, turn)

    monkeypatch.setattr(app_module, "play_turn", spy)
    short, unusual = two_local_games(client)
    assert send(client, short["id"], {"version": 0, "actions": ["add 1"]}, short["token"]).status_code == 200
    assert (
        send(client, unusual["id"], {"version": 0, "actions": ["add 1"]}, unusual["token"], ROUTE_ONLY).status_code
        == 200
    )
    assert routed == [unusual["id"]]
