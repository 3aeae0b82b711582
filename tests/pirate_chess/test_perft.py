"""Perft: the number of legal whole turns, by the engine and by an independent brute-force count.

The brute force (rulebook.py) is written from the rule book and shares no code with the engine.
A turn is one distinct sequence of actions by the player to move until the other player is to act.
The table below is also printed in docs/rules/pirate-chess.md.
"""

from pathlib import Path

import pytest

from quarterdeck.games.pirate_chess.perft import perft

from . import rulebook
from .helpers import GAME

POSITIONS = {
    # Blue's Pirate can leap onto the Dhow anchored in the harbour (an upgrade) or strike the anchored Junk.
    "harbour": (
        6,
        {"b1": "blue Pirate", "c3": "blue Dhow anchored", "f6": "red Pirate", "d4": "red Junk anchored"},
        {},
    ),
    # Blue's Dhow may sink or capture the red Frigate; captures change sides.
    "capture": (
        6,
        {"a1": "blue Dhow", "e5": "blue Caravel anchored", "a2": "red Frigate", "c2": "red Schooner anchored"},
        {},
    ),
    # Every ship starts on an edge: all of their lines cross an edge of the torus.
    "wrap": (
        6,
        {"f6": "blue Caravel", "a1": "red Schooner", "c6": "blue Dhow anchored", "f3": "red Junk anchored"},
        {},
    ),
    # The standard board: corner ships, a Pirate duel, and the last red ship can be taken (the game ends).
    "endgame": (8, {"a1": "blue Junk", "h8": "blue Pirate", "d5": "red Dhow anchored", "e4": "red Pirate"}, {}),
    # A reserve Dhow: placements on every empty square, or onto the Junk anchored in the harbour.
    "reserve": (
        6,
        {"c3": "blue Junk anchored", "a1": "blue Pirate", "f6": "red Dhow", "e2": "red Brig anchored"},
        {"blue": ["Dhow"]},
    ),
}

# Depth 3 of "reserve" is left out to keep the test short.
PERFT = {
    "harbour": (28, 831, 24262),
    "capture": (32, 2058, 99500),
    "wrap": (36, 1984, 82436),
    "endgame": (40, 1120, 37824),
    "reserve": (163, 4411),
}
CASES = [(name, depth) for name, counts in PERFT.items() for depth in range(1, len(counts) + 1)]


def engine_position(name):
    size, ships, reserves = POSITIONS[name]
    return GAME.layout(ships, reserves=reserves, options={"size": size})


def model_position(name):
    size, ships, reserves = POSITIONS[name]
    return rulebook.position(size, ships, reserves=(reserves.get("blue", ()), reserves.get("red", ())))


@pytest.mark.parametrize(("name", "depth"), CASES)
def test_perft_engine_matches_the_independent_brute_force(name, depth):
    expected = PERFT[name][depth - 1]
    assert perft(engine_position(name), depth) == expected
    assert rulebook.brute_force_perft(model_position(name), depth) == expected


def test_perft_opening_counts_every_ship_on_every_empty_square():
    state = GAME.new_initial_state("standard", {"size": 6})
    assert perft(state, 1) == 8 * 36
    assert perft(state, 2) == 8 * 36 * 8 * 35


def test_perft_counts_move_then_anchor_and_anchor_then_move_as_two_turns():
    ships = {"a1": "blue Dhow", "c1": "blue Junk anchored", "f6": "red Dhow"}
    # The Dhow's 4 moves, each followed by: anchor Dhow, weigh Junk or end (12 turns); or weigh the
    # Junk first, then move the Dhow (4) or the Junk (7: its way west stops at the Dhow) (11 turns).
    # Anchoring the Dhow first is not allowed: it would leave no fleet action.
    assert perft(GAME.layout(ships, options={"size": 6}), 1) == 12 + 11
    assert rulebook.brute_force_perft(rulebook.position(6, ships), 1) == 12 + 11


def test_perft_of_a_finished_game_is_zero():
    state = GAME.layout({"a1": "blue Barque", "a2": "red Dhow"})
    state.apply(state.parse_action("move Barque a1xa2 sink"))
    assert state.is_terminal()
    assert perft(state, 0) == 1 and perft(state, 1) == 0


def test_perft_table_in_the_rules_reference_matches():
    reference = Path(__file__).parents[2] / "docs" / "rules" / "pirate-chess.md"
    rows = {}
    for line in reference.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if cells and cells[0] in PERFT:
            rows[cells[0]] = tuple(int(c.replace(",", "")) for c in cells[-3:] if c.replace(",", "").isdigit())
    assert rows == PERFT
