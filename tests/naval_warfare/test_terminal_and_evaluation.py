"""The terminal view (table, ruler, ship states) and the computer's evaluation of seed 003 positions."""

from __future__ import annotations

import pytest
from rich.console import Console

from quarterdeck.games.naval_warfare.actions import Gunners
from quarterdeck.games.naval_warfare.evaluate import Body, candidates, evaluate, fire_potential

from .helpers import GAME, play, position, roll, ship, to_movement


def render(renderable) -> str:
    console = Console(width=160, record=True)
    console.print(renderable)
    return console.export_text()


def test_board_shows_ships_headings_and_the_ruler_for_a_selected_ship():
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90),
                                  ship("San Martin", "spanish", 10, 15, 180, type="San Martin")], wind="W"))
    view = GAME.hook("terminal_view")
    text = render(view.board(state, "Revenge", state.legal_actions(piece="Revenge")))
    assert "→" in text and "↓" in text and "+" in text
    assert "San Martin: 5.00 in, bearing 0; port bear" in text
    status = render(view.status(state))
    assert "wind medium from the W" in status and "flot 23/23" in status and "port 2M 3L" in status


def test_by_eye_hides_the_ruler():
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90),
                                  ship("San Martin", "spanish", 10, 15, 180, type="San Martin")], wind="W",
                                 options={"by-eye": True}))
    assert "bearing" not in render(GAME.hook("terminal_view").board(state, "Revenge"))


def test_evaluation_prefers_a_broadside_bearing_and_damage_to_the_enemy():
    state = position([ship("Revenge", "english", 10, 10, 90),
                      ship("San Martin", "spanish", 10, 15, 180, type="San Martin")], wind="W")
    revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
    assert fire_potential(state, Body(revenge), [Body(martin)]) > 0
    bearing = evaluate(state, 0)
    revenge.heading = 0
    assert evaluate(state, 0) < bearing
    before = evaluate(state, 0)
    martin.flotation -= 5  # five points taken off the enemy score five for us (victory, a decision)
    assert evaluate(state, 0) == pytest.approx(before + 5) and evaluate(state, 1) == -evaluate(state, 0)


def test_the_computer_weighs_all_hands_to_the_fight_or_a_man_at_each_gun_that_bears():
    # optional rule 5: Revenge grapples San Martin on her port side, where five of her ten batteries point
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90),
                                  ship("San Martin", "spanish", 11, 10.3, 90, type="San Martin")],
                                 options={"crews": True}))
    play(state, "move Revenge turn 0 run 1.00 turn 0 board San Martin")
    roll(state, 4)
    assert candidates(state, 0, state.legal_actions()) == [Gunners("Revenge", 0), Gunners("Revenge", 5)]


def test_a_reinforcement_still_to_come_says_when_and_where_she_enters():
    status = render(GAME.hook("terminal_view").status(GAME.new_initial_state("mediterranean")))
    assert "Tiger          waiting" in status and "arrives on move 3 at the west edge" in status
