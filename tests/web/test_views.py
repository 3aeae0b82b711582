"""What the view of a seat carries besides the state: the game's named shortcuts (such as the
optimal defence) and its board notes (such as combat totals), both worked out by the game's hooks."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import auth, new_game

# Blue closes in, red crosses her bow and fires; blue defends as well as she can and still takes a hit.
DUEL_TO_DEFENCE = ["move Bellona e5 NE", "end-move", "move Achille f6 S", "end-move"]
# Red's infantry marches up the a-file until it stands next to black's.
NAPOLEONIC_TO_ATTACK = ["move a3-a4", "end-move", "end-move", "move a4-a5", "end-move"]


def local(client: Any, game: str) -> tuple[str, str]:
    created = new_game(client, game=game, opponent="local")
    return created["id"], created["token"]


def play(client: Any, game_id: str, token: str, actions: list[str]) -> dict[str, Any]:
    """Each action as its own turn; the last reply (an update)."""
    reply: dict[str, Any] = {}
    for action in actions:
        version = client.get(f"/api/games/{game_id}", headers=auth(token)).json()["view"]["version"]
        response = client.post(
            f"/api/games/{game_id}/moves", json={"version": version, "actions": [action]}, headers=auth(token)
        )
        assert response.status_code == 200, response.text
        reply = response.json()
    return reply


def test_the_optimal_defence_is_offered_as_a_named_shortcut(client):
    game_id, token = local(client, "square-rigger")
    play(client, game_id, token, DUEL_TO_DEFENCE)
    view = play(client, game_id, token, ["fire Achille stbd-bow 2", "end-fire"])["view"]
    assert view["state"]["phase"] == "defence" and view["to_act"] == ["blue"]
    fire = view["state"]["fire"]
    assert [(f["piece"], f["target"], f["amount"], f["effect"]) for f in fire] == [("Achille", "Bellona", 2, 2)]
    optimal = view["shortcuts"]["blue"]["optimal"]
    assert optimal == ["defend Bellona fore 1"]
    events = play(client, game_id, token, [*optimal, "end-defence"])["entries"][-1]["events"]
    hits = [e for e in events if e["kind"] == "hit"]
    assert hits and hits[0]["piece"] == "Bellona" and hits[0]["hits"] == 1


def test_no_shortcuts_for_a_seat_not_to_act_or_a_spectator(client):
    game_id, token = local(client, "square-rigger")
    play(client, game_id, token, DUEL_TO_DEFENCE)
    watched = client.get(f"/api/games/{game_id}").json()["view"]
    assert watched["shortcuts"] == {} and watched["legal"] == {}


def test_attack_totals_against_defence_come_with_the_view(client):
    game_id, token = local(client, "napoleonic-chess")
    view = play(client, game_id, token, NAPOLEONIC_TO_ATTACK)["view"]
    assert view["notes"] == {"engagements": []}
    view = play(client, game_id, token, ["attack a5xa6"])["view"]
    (engagement,) = view["notes"]["engagements"]
    assert engagement["square"] == "a6" and engagement["attack"] == 1 and engagement["defence"] == 1
    assert engagement["falls"] is False and engagement["supporters"] == []
    preview = client.post(
        f"/api/games/{game_id}/preview",
        json={"version": view["version"], "actions": ["support b6>a6"]},
        headers=auth(token),
    )
    assert preview.status_code == 200, preview.text
    (supported,) = preview.json()["notes"]["engagements"]
    assert supported["defence"] == 1 + supported["support"] and supported["support"] >= 1
    assert len(supported["supporters"]) == 1
    spectator = client.get(f"/api/games/{game_id}").json()["view"]
    assert spectator["notes"]["engagements"][0]["attack"] == 1  # the totals are no secret


def test_a_game_without_board_notes_sends_none(client):
    game_id, token = local(client, "counting")
    assert client.get(f"/api/games/{game_id}", headers=auth(token)).json()["view"]["notes"] == {}
