"""Which hunts of a last ship at anchor can be won (games/pirate_chess/hunts.py), and that the
relaxed game it solves gives the hunted ship the book's own choices and the hunters no fewer."""

from __future__ import annotations

import json
import random

import pytest

from quarterdeck.games import get
from quarterdeck.games.pirate_chess.actions import Move
from quarterdeck.games.pirate_chess.hunts import Sea, main, solve
from quarterdeck.games.pirate_chess.movement import geometry

GAME = get("pirate-chess")
NAMES = geometry(8).names
RED, BLUE = 1, 0


def turn_ends(state, fleet: int) -> tuple[set[tuple[int, ...]], bool]:
    """Every way `fleet`'s turn can end that strikes no ship, as the squares of blue's Pirate, blue's
    other ship and red's ship, with red's anchor; and whether some action of the turn strikes."""
    ends: set[tuple[int, ...]] = set()
    strikes = False

    def walk(position):
        nonlocal strikes
        if position.current_player() != fleet or position.is_terminal():
            pirate, other = sorted(position.ships[BLUE].values(), key=lambda ship: ship.kind != "Pirate")
            (red,) = position.ships[RED].values()
            ends.add((pirate.square, other.square, red.square, red.anchored))
            return
        for action in position.legal_actions(fleet):
            if isinstance(action, Move) and action.attack:
                strikes = True
                continue
            following = position.clone()
            following.apply(action, fleet)
            walk(following)

    walk(state)
    return ends, strikes


def hunt_position(rng: random.Random, hunted: str, helper: str, anchored: bool):
    her, pirate, other = rng.sample(range(64), 3)
    ships = {
        NAMES[her]: f"red {hunted}" + (" anchored" if anchored else ""),
        NAMES[pirate]: "blue Pirate",
        NAMES[other]: f"blue {helper}",
    }
    return her, (pirate, other), ships


@pytest.mark.parametrize("hunted", ["Barque", "Frigate", "Junk", "Dhow"])
def test_her_turn_in_the_solver_is_her_turn_in_the_game(hunted):
    sea = Sea(hunted, ("Frigate",))
    rng = random.Random(hunted)
    for anchored in (True, False) * 6:
        her, hunters, ships = hunt_position(rng, hunted, "Frigate", anchored)
        ends, _ = turn_ends(GAME.layout(ships, to_move="red"), RED)
        in_game = {(tuple(sea.seen_from[end[2]][s] for s in hunters), end[3]) for end in ends if end[:2] == hunters}
        seen = tuple(sea.seen_from[her][s] for s in hunters)
        assert in_game == set(sea.her_turns(seen, anchored)), (ships, anchored)


@pytest.mark.parametrize("helper", ["Frigate", "Barque", "Junk"])
def test_the_hunters_have_every_turn_the_game_gives_them(helper):
    sea = Sea("Barque", (helper,))
    rng = random.Random(helper)
    for anchored in (True, False) * 6:
        her, hunters, ships = hunt_position(rng, "Barque", helper, anchored)
        ends, strikes = turn_ends(GAME.layout(ships, to_move="blue"), BLUE)
        moves, strike_unanchored, strike_anchored = sea.hunters_turns(tuple(sea.seen_from[her][s] for s in hunters))
        assert strikes == (strike_anchored if anchored else strike_unanchored), ships
        assert {tuple(sea.seen_from[her][s] for s in end[:2]) for end in ends} <= set(moves), ships


def test_a_pirate_and_one_more_ship_net_only_a_dhow():
    # With one ship to close her flight, a Pirate strikes a lone ship at anchor only where she already
    # lies a leap away: she weighs and sails before it comes. A Frigate's lines close a Dhow's four
    # squares, so that hunt is won from every position.
    for hunted in ("Frigate", "Barque", "Junk"):
        hunt = solve(hunted, ("Frigate",))
        assert hunt.won == hunt.struck > 0 and not hunt.winnable
    dhow = solve("Dhow", ("Frigate",))
    assert dhow.winnable and dhow.won == dhow.positions
    assert not solve("Dhow", ("Junk",)).winnable


def test_an_unknown_or_unanchoring_hunted_ship_is_refused():
    with pytest.raises(ValueError, match="Galleon"):
        solve("Galleon", ())
    with pytest.raises(ValueError, match="never anchors"):
        solve("Pirate", ("Frigate",))


def test_the_command_prints_a_hunt_and_names_what_is_wrong(capsys):
    main(["Dhow", "Frigate"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["winnable"] and printed["won"] == printed["positions"] == 3906
    with pytest.raises(SystemExit, match="usage"):
        main([])
    with pytest.raises(SystemExit, match="Galleon"):
        main(["Barque", "Frigate,Galleon"])
