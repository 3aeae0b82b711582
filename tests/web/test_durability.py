"""Real server processes: racing clients, two servers on one database, and kill -9 with nothing lost."""

from __future__ import annotations

import asyncio
import threading

import httpx

from quarterdeck.store import GameStore, VersionConflict
from tests.web.conftest import ServerProcess, auth

ROUNDS = 12


def local_game(url: str) -> tuple[str, str]:
    created = httpx.post(
        f"{url}/api/games", json={"game": "counting", "opponent": "local", "options": {"target": 1000}}
    )
    created.raise_for_status()
    return created.json()["id"], created.json()["token"]


async def race(urls: list[str], game_id: str, token: str, rounds: int) -> list[list[int]]:
    """Each round, every url gets the same move for the same version at once; the statuses per round."""
    async with httpx.AsyncClient(timeout=30) as http:
        results = []
        for version in range(rounds):
            body = {"version": version, "actions": ["add 1"]}
            responses = await asyncio.gather(
                *(http.post(f"{url}/api/games/{game_id}/moves", json=body, headers=auth(token)) for url in urls)
            )
            results.append(sorted(r.status_code for r in responses))
        return results


def test_two_clients_racing_the_same_move_apply_it_exactly_once(servers, database_url):
    server = ServerProcess(database_url).start()
    servers.append(server)
    game_id, token = local_game(server.url)
    results = asyncio.run(race([server.url, server.url], game_id, token, ROUNDS))
    assert results == [[200, 409]] * ROUNDS
    moves = httpx.get(f"{server.url}/api/games/{game_id}/history").json()
    assert moves["version"] == ROUNDS and len(moves["entries"]) == ROUNDS


def test_two_server_processes_never_both_apply_a_move(servers, database_url):
    first, second = ServerProcess(database_url).start(), ServerProcess(database_url).start()
    servers.extend([first, second])
    game_id, token = local_game(first.url)
    results = asyncio.run(race([first.url, second.url], game_id, token, ROUNDS))
    assert results == [[200, 409]] * ROUNDS
    for server in (first, second):
        history = httpx.get(f"{server.url}/api/games/{game_id}/history").json()
        assert history["version"] == ROUNDS
        assert [e["number"] for e in history["entries"]] == list(range(1, ROUNDS + 1))


def test_the_store_compare_and_swap_lets_one_writer_through(database_url):
    from quarterdeck.store import GameRow

    one, other = GameStore(database_url), GameStore(database_url)  # as two processes would
    try:
        one.create_game(GameRow("race", "counting", None, {}, 0, {"blue": "human", "red": "human"}), {})
        assert one.append_moves("race", 0, [("blue", "add 1")]) == 1
        try:
            other.append_moves("race", 0, [("blue", "add 2")])
            raise AssertionError("the second writer should have lost")
        except VersionConflict as conflict:
            assert conflict.current == 1
        assert other.moves("race") == [("blue", "add 1")]
    finally:
        one.close()
        other.close()


def test_a_group_commit_swaps_each_append_on_its_own(database_url):
    """One transaction of several appends (as the writer groups them): each is compared with its own
    game's version; a stale one and one for a missing game are refused and change nothing, the
    others are stored, and two appends to one game in the same group chain."""
    from quarterdeck.store import GameRow, NotFound
    from quarterdeck.store.repository import Append

    store = GameStore(database_url)
    try:
        for name in ("a", "b", "c"):
            store.create_game(GameRow(name, "counting", None, {}, 0, {"blue": "human", "red": "human"}), {})
        store.append_moves("b", 0, [("blue", "add 1")])
        columns = {"status": "ongoing", "result": "*", "termination": "", "players": {"blue": "human", "red": "human"}}
        results = store.append_many(
            [
                Append("c", 0, (("blue", "add 2"),), columns),
                Append("b", 0, (("blue", "add 2"),), columns),  # b is at version 1: stale
                Append("gone", 0, (("blue", "add 1"),), columns),
                Append("a", 0, (("blue", "add 1"),), columns),
                Append("a", 1, (("red", "add 2"), ("blue", "add 1")), columns),  # chains on the one before
            ]
        )
        assert results[0] == 1 and results[3] == 1 and results[4] == 3
        assert isinstance(results[1], VersionConflict) and results[1].current == 1
        assert isinstance(results[2], NotFound)
        assert store.moves("a") == [("blue", "add 1"), ("red", "add 2"), ("blue", "add 1")]
        assert store.moves("b") == [("blue", "add 1")] and store.moves("c") == [("blue", "add 2")]
        assert [store.version(name) for name in ("a", "b", "c")] == [3, 1, 1]
    finally:
        store.close()


def test_a_killed_server_loses_nothing_it_acknowledged(servers, database_url):
    server = ServerProcess(database_url).start()
    servers.append(server)
    game_id, token = local_game(server.url)
    acknowledged: list[int] = []
    enough = threading.Event()

    def play_until_the_server_dies() -> None:
        with httpx.Client(timeout=10) as http:
            version = 0
            while True:
                try:
                    reply = http.post(
                        f"{server.url}/api/games/{game_id}/moves",
                        json={"version": version, "actions": [f"add {1 + version % 2}"]},
                        headers=auth(token),
                    )
                except httpx.HTTPError:
                    return  # the server is gone
                if reply.status_code != 200:
                    return
                version = reply.json()["version"]
                acknowledged.append(version)
                if version >= 25:
                    enough.set()

    player = threading.Thread(target=play_until_the_server_dies)
    player.start()
    assert enough.wait(120), "the server did not take 25 moves"
    server.kill()  # SIGKILL while the player is still sending
    player.join(30)

    restarted = ServerProcess(database_url).start()
    servers.append(restarted)
    history = httpx.get(f"{restarted.url}/api/games/{game_id}/history").json()
    assert history["version"] >= acknowledged[-1]
    texts = [e["text"] for e in history["entries"]]
    assert texts[: acknowledged[-1]] == [f"add {1 + v % 2}" for v in range(acknowledged[-1])]
    # the restarted server carries on from there
    carry_on = httpx.post(
        f"{restarted.url}/api/games/{game_id}/moves",
        json={"version": history["version"], "actions": ["add 1"]},
        headers=auth(token),
    )
    assert carry_on.status_code == 200
