"""Seed 003, rules 5 (masts), 6 (drifting, collisions, shore, heave to), 7 and 8 (in irons)."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction

from .helpers import due, play, position, roll, ship, to_movement


def end_of_move(state, *dice):
    """Skip the fire steps and throw the end-of-move dice given."""
    for value in dice:
        roll(state, value)


class TestRule5Masts:
    def test_quarter_damaged_throws_for_a_mast_at_the_end_of_the_move(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = to_movement(position(ships))
        state.ships["Revenge"].flotation = 17  # 6 of 23 lost: a quarter
        play(state, "move Revenge turn 0 run 8.00 turn 0")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert due(state) == ("roll", "mast")
        roll(state, 3)
        assert state.ships["Revenge"].masts_lost == 1
        assert state.ships["Revenge"].marks == 1

    def test_three_quarters_loses_a_mast_without_a_throw_and_two_masts_drift(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = to_movement(position(ships))
        revenge = state.ships["Revenge"]
        revenge.flotation, revenge.marks, revenge.masts_lost = 5, 2, 1
        play(state, "move Revenge turn 0 run 4.00 turn 0")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        assert revenge.masts_lost == 2
        to_movement(state)
        assert revenge.x == 1400 and revenge.y == 900  # dismasted: drifted 1" downwind, no move of her own
        assert state.current_player() == 1


class TestRule6Drifting:
    def test_drifting_ship_strikes_another_which_drifts_until_4_to_6(self):
        ships = [ship("Revenge", "english", 10, 10.8, 90), ship("San Martin", "spanish", 10, 10, 90, type="San Martin"),
                 ship("Hope", "english", 40, 30, 90, type="Hope")]
        state = position(ships)
        state.ships["Revenge"].masts_lost = 2
        to_movement(state)
        revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
        assert revenge.y == 1025 and martin.adrift  # stopped at contact, beam to beam
        assert state.current_player() == 0  # Hope moves; San Martin drifts next move
        play(state, "move Hope turn 0 run 5.00 turn 0")
        assert state.current_player() != 1 or not any(a.ship == "San Martin" for a in state.legal_actions())

    def test_drifting_onto_the_shore_wrecks(self):
        land = [{"name": "Lizard", "kind": "land", "points": [[0, 0], [30, 0], [30, 9.2], [0, 9.2]]}]
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = position(ships, land=land)
        state.ships["Revenge"].masts_lost = 2
        to_movement(state)
        assert state.ships["Revenge"].status == "wrecked"

    def test_heave_to_announced_then_drifts_and_throws_4_to_6_to_sail(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = to_movement(position(ships))
        play(state, "move Revenge turn 0 run 2.00 turn 0 heave-to")
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        to_movement(state)
        revenge = state.ships["Revenge"]
        assert revenge.adrift and revenge.y == 900 and revenge.x == 1200
        play(state, "move San Martin turn 0 run 6.00 turn 0")
        roll(state, 2, 2)
        roll(state, 9, 4)
        assert due(state) == ("roll", "resume")
        roll(state, 4)
        assert not revenge.adrift and state.current_player() == 0


class TestRules7And8Irons:
    def test_ending_closer_than_permitted_puts_a_ship_in_irons(self):
        ships = [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = to_movement(position(ships))
        play(state, "move Revenge turn -45 run 4.00 turn -30")  # ends heading 15, wind from the north
        assert state.ships["Revenge"].irons

    def test_in_irons_throws_5_or_6_for_one_turn_which_frees_her_if_permitted(self):
        ships = [ship("Revenge", "english", 10, 10, 15), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = position(ships)
        state.ships["Revenge"].irons = True
        roll(state, 2, 2)
        roll(state, 9, 4)
        assert due(state) == ("roll", "irons")
        roll(state, 5)
        with pytest.raises(IllegalAction):
            play(state, "move Revenge turn 30 run 1.00 turn 0")
        play(state, "move Revenge turn 60 run 0.00 turn 0")
        assert not state.ships["Revenge"].irons and state.ships["Revenge"].heading == 75

    def test_wind_shift_rule_8_one_or_two_irons_else_turn_away_on_the_same_tack(self):
        ships = [ship("Revenge", "english", 10, 10, 60), ship("San Martin", "spanish", 60, 30, 270, type="San Martin")]
        state = position(ships)
        roll(state, 6, 2)
        roll(state, 3)  # the wind veers to the north-east: Revenge, heading 60, is 15 off
        roll(state, 9, 4)
        assert due(state) == ("roll", "rule8")
        roll(state, 4)
        assert state.ships["Revenge"].heading == 90 and not state.ships["Revenge"].irons
        state = position(ships)
        roll(state, 6, 2)
        roll(state, 3)
        roll(state, 9, 4)
        roll(state, 2)
        assert state.ships["Revenge"].irons
