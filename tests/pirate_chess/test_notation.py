"""Action notation: every action reads and writes as text that parses back to the same action."""

import pytest

from quarterdeck.core.errors import NotationError
from quarterdeck.core.protocol import Resign
from quarterdeck.games.pirate_chess.actions import END, Anchor, Move, Place

from .helpers import new_game

STATE = new_game()


def square(name: str) -> int:
    return STATE.geometry.index[name]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("place Frigate d4", Place("Frigate", square("d4"))),
        ("place Junk d4 upgrade Frigate", Place("Junk", square("d4"), "Frigate")),
        ("move Barque c3-d4", Move("Barque", square("c3"), square("d4"))),
        ("move Pirate c3xe4 capture", Move("Pirate", square("c3"), square("e4"), "capture")),
        ("move Frigate2 a1xh8 sink", Move("Frigate2", square("a1"), square("h8"), "sink")),
        ("move Dhow d3-d4 upgrade Pirate", Move("Dhow", square("d3"), square("d4"), "", "Pirate")),
        ("anchor Junk", Anchor("Junk", True)),
        ("weigh Junk", Anchor("Junk", False)),
        ("end", END),
    ],
)
def test_notation_round_trip(text, action):
    assert STATE.parse_action(text) == action
    assert STATE.action_to_text(action) == text


def test_notation_accepts_any_letter_case():
    assert STATE.parse_action("MOVE barque C3-D4") == Move("Barque", square("c3"), square("d4"))
    assert STATE.parse_action("place frigate12 h1 UPGRADE pirate") == Place("Frigate12", square("h1"), "Pirate")


def test_notation_resign_is_shared_core_notation():
    assert STATE.text_to_action("resign red") == Resign(1)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "verb"),
        ("sail Frigate d4", "verb"),
        ("place Galleon d4", "ship"),
        ("place Frigate1 d4", "ship"),
        ("place Frigate02 d4", "ship"),
        ("place Frigate", "arguments"),
        ("place Frigate d4 now", "arguments"),
        ("place Frigate z9", "square"),
        ("place Frigate i1", "square"),
        ("place Frigate d4 upgrade Barque", "upgrade"),
        ("move Barque", "arguments"),
        ("move Barque c3d4", "course"),
        ("move Barque 3c-d4", "course"),
        ("move Barque q3-d4", "origin"),
        ("move Barque c9-d4", "origin"),
        ("move Barque c3-d0", "destination"),
        ("move Barque c3xd4", "attack"),
        ("move Barque c3xd4 board", "attack"),
        ("move Barque c3-d4 sink", "arguments"),
        ("move Barque c3-d4 upgrade", "upgrade"),
        ("move Pirate c3xe4 sink junk", "arguments"),
        ("move Pirate c3xe4 capture now", "arguments"),
        ("move Dhow d3-d4 upgrade Pirate now", "arguments"),
        ("move Dhow d3xd4 sink upgrade Pirate now", "arguments"),
        ("place Junk d4 upgrade Frigate now", "arguments"),
        ("anchor", "arguments"),
        ("weigh Junk now", "arguments"),
        ("end now", "arguments"),
    ],
)
def test_notation_errors_name_the_field(text, field):
    with pytest.raises(NotationError) as error:
        STATE.parse_action(text)
    assert error.value.field == field


def test_notation_squares_follow_the_board_size():
    large = new_game(size=10)
    assert large.action_to_text(large.parse_action("place Dhow j10")) == "place Dhow j10"
    with pytest.raises(NotationError):
        STATE.parse_action("place Dhow j10")


def test_notation_only_pirate_chess_actions_have_a_text():
    with pytest.raises(NotationError) as error:
        STATE.action_to_text(("fly", "away"))
    assert error.value.field == "action"
