"""Action notation: every kind of action reads and writes, and bad text names the faulty field."""

from __future__ import annotations

import dataclasses

import pytest

from quarterdeck.core.errors import NotationError
from quarterdeck.core.protocol import Resign
from quarterdeck.games.napoleonic_chess.actions import Advance, Attack, EndPhase, Move, Place, Support

from .helpers import GAME

EVERY_KIND = [
    ("move c3-c4", Move((2, 2), (2, 3))),
    ("attack b2xc3", Attack((1, 1), (2, 2))),
    ("support d6>d7", Support((3, 5), (3, 6))),
    ("advance c3>d4", Advance((2, 2), (3, 3))),
    ("place infantry c3", Place("infantry", (2, 2))),
    ("end-move", EndPhase("move")),
    ("end-attack", EndPhase("attack")),
    ("end-support", EndPhase("support")),
    ("end-advance", EndPhase("advance")),
]


@pytest.mark.parametrize(("text", "action"), EVERY_KIND)
def test_notation_reads_and_writes_every_kind_of_action(text, action):
    state = GAME.new_initial_state()
    assert state.parse_action(text) == action
    assert state.action_to_text(action) == text


@pytest.mark.parametrize(("text", "action"), EVERY_KIND)
def test_an_action_is_a_fixed_value_that_can_key_a_table(text, action):
    # Agents and records index positions and branches by action: equal actions are one key, and a
    # chosen action cannot be altered afterwards.
    state = GAME.new_initial_state()
    parsed = state.parse_action(text)
    assert {action: text}[parsed] == text
    with pytest.raises(AttributeError):
        setattr(parsed, dataclasses.fields(parsed)[0].name, None)
    assert parsed == action


def test_a_move_and_an_advance_between_the_same_squares_differ():
    assert Move((2, 2), (3, 3)) != Advance((2, 2), (3, 3))


def test_notation_on_wide_boards_where_a_file_is_called_x():
    data_state = GAME.new_initial_state("grand-battle")
    assert data_state.parse_action("attack l3xl4") == Attack((11, 2), (11, 3))


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "verb"),
        ("charge d4-d5", "verb"),
        ("end-turn", "phase"),
        ("end-move now", "arguments"),
        ("move", "arguments"),
        ("move d4", "destination"),
        ("move q4-d5", "origin"),
        ("move d4-d9", "destination"),
        ("attack d4-d5", "target"),
        ("attack d4xz", "target"),
        ("support 44>d5", "supporter"),
        ("advance d4>", "destination"),
        ("place hussars d2", "unit"),
        ("place infantry", "arguments"),
        ("place infantry k2", "square"),
    ],
)
def test_malformed_notation_names_the_field(text, field):
    state = GAME.new_initial_state()
    with pytest.raises(NotationError) as error:
        state.parse_action(text)
    assert error.value.field == field


def test_resign_is_shared_notation():
    state = GAME.new_initial_state()
    assert state.text_to_action("resign black") == Resign(1)
    assert state.text_of(Resign(0)) == "resign red"
