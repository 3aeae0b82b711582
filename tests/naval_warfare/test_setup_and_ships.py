"""Seed 003, before rule 1: the example ships, the gun table, the setup dice; scenarios and options."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import ScenarioError
from quarterdeck.core.events import DieRolled, WindChanged
from quarterdeck.games.naval_warfare import victory
from quarterdeck.games.naval_warfare.actions import Move
from quarterdeck.games.naval_warfare.scenario import (
    batteries_from_guns,
    builtin_names,
    load_scenario,
    parse_scenario,
    tables,
)

from .helpers import GAME, due, play, position, roll, ship, to_movement


def test_the_seven_example_ships_are_verbatim():
    rows = tables()["ships"]
    assert (rows["Hope"]["tons"], rows["Hope"]["flotation"], rows["Hope"]["crew"]) == (600, 30, 60)
    hope = rows["Hope"]
    assert (hope["short"], hope["medium"], hope["long"], hope["speed"]) == (4, 4, 6, 5.0)
    # Revenge: 22.5 flotation printed as 23; its two battery figures read as medium 4, long 6 (decision)
    assert (rows["Revenge"]["flotation"], rows["Revenge"]["medium"], rows["Revenge"]["long"]) == (23, 4, 6)
    assert rows["Revenge"]["turn"] == 90 and rows["Revenge"]["speed"] == 8.0
    assert rows["James"]["flotation"] == 44  # 43.75 rounded half up
    assert (rows["San Martin"]["short"], rows["San Martin"]["medium"], rows["San Martin"]["long"]) == (8, 8, 3)
    assert {"White Bear", "Prince Royal", "San Cristobal"} <= set(rows)


def test_oared_types_as_the_rulings_read_the_damaged_row():
    rows = tables()["ships"]
    assert rows["Galleasse"]["oar_speed"] == 5.0 and rows["Galleasse"]["one_turn"]
    assert rows["Galley"]["half_short"] == 2 and rows["Galley"]["medium"] == 1
    assert rows["Auxiliary Oars"]["oar_turn"] == 45 and rows["Pinnace"]["oar_turn"] == 135


def test_battery_calculator_pools_guns_and_reports_remainders():
    whole, half, dropped = batteries_from_guns("nelson", {"32-pdr": 28, "30-pdr": 2, "18-pdr": 28, "9-pdr": 18}, "g")
    # 30 x 32-pdr (28-32 pooled) = 6 long; 28 x 18 = 3 long, 1 over (dropped); 18 x 9 = 1 long
    assert whole["long"] == 10 and half["long"] == 0 and dropped == ["1 x 18-pdr"]
    whole, half, dropped = batteries_from_guns("nelson", {"12-pdr": 18}, "g")
    assert whole["long"] == 1 and half["long"] == 1 and not dropped  # 6 of 12 make a half battery
    whole, half, _ = batteries_from_guns("armada", {"whole cannon": 1, "culverin": 4, "demi-culverin": 4}, "g")
    assert whole["short"] == 2 and whole["long"] == 3
    whole, _, _ = batteries_from_guns("nelson", {"carronade": 10}, "g")
    assert whole["short"] == 2  # five carronades of any calibre make a short battery (rulings)


def test_disposition_splits_broadsides_and_points_an_odd_battery_ahead():
    state = position([ship("Hope", "english", 10, 10, 90, type="Hope"), ship("Foe", "spanish", 60, 10, 270)])
    mounts = [m for m, b in state.ships["Hope"].batteries if b.kind == "short"]
    assert mounts.count("port") == 2 and mounts.count("starboard") == 2
    foe = [m for m, b in state.ships["Foe"].batteries if b.kind == "long"]  # Revenge: 6 long
    assert foe.count("port") == 3 and foe.count("ahead") == 0
    sm = position([ship("San Martin", "english", 10, 10, 90, type="San Martin"), ship("F", "spanish", 60, 10, 270)])
    assert [m for m, b in sm.ships["San Martin"].batteries if b.kind == "long"].count("ahead") == 1  # 3 long


def test_time_roll_of_six_is_thrown_again_unless_kept():
    state = position([ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)], time="roll")
    assert roll(state, 6) == [DieRolled("time of start", 6)]
    assert state.agenda[0][1] == "time"
    roll(state, 3)
    assert state.clock == 12 * 60
    kept = position(
        [ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)],
        time="roll",
        options={"keep-nine-pm": True},
    )
    roll(kept, 6)
    assert kept.clock == 21 * 60


def test_prevailing_wind_roll_five_and_six_again_or_no_prevailing_wind():
    data = [ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)]
    state = position(data, prevailing="roll")
    roll(state, 5)
    roll(state, 6)
    roll(state, 4)
    assert state.prevailing == 270 and state.wind == 270
    state = position(data, prevailing="roll", options={"no-prevailing-wind": True})
    roll(state, 5)  # no prevailing wind; throw again for the first direction
    roll(state, 5)  # a 5 this time: calm, its direction thrown at once
    roll(state, 2)
    assert state.prevailing is None and state.strength == 0 and state.wind == 90


def test_with_no_prevailing_wind_a_six_for_the_first_direction_is_thrown_again():
    data = [ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)]
    state = position(data, prevailing="roll", options={"no-prevailing-wind": True})
    roll(state, 5)  # no prevailing wind
    roll(state, 6)  # neither a direction nor a calm: again
    events = roll(state, 3)
    assert state.prevailing is None and (state.wind, state.strength) == (180, 2)
    assert WindChanged("S", "medium") in events


def test_a_calm_at_the_setup_takes_its_direction_from_one_to_four_and_throws_again_on_five_or_six():
    data = [ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)]
    for value, wind, name in ((1, 0, "N"), (4, 270, "W")):
        state = position(data, prevailing="roll", options={"no-prevailing-wind": True})
        roll(state, 5)
        roll(state, 5)  # calm: its direction thrown at once
        events = roll(state, value)
        assert state.strength == 0 and state.wind == wind
        assert WindChanged(name, "calm") in events  # the players are told where the wind will come from
    for value in (5, 6):
        state = position(data, prevailing="roll", options={"no-prevailing-wind": True})
        roll(state, 5)
        roll(state, 5)
        assert roll(state, value) == [DieRolled("direction of the coming wind", value)]  # no direction: again
        assert state.agenda[0][1] == "calm-direction"


def test_every_shipped_scenario_loads_with_briefing_and_each_optional_rule_is_used():
    names = builtin_names()
    assert len(names) >= 6
    used = set()
    for name in names:
        scenario = load_scenario(name)
        assert scenario.briefing and scenario.title
        used |= {k for k, v in scenario.options.items() if v}
    assert {"boats", "jury-masts", "towing", "oared", "crews", "prizes", "foundering"} <= used
    battle = load_scenario("line-of-battle")
    assert all(sum(1 for p in battle.ships if p.side == s) >= 8 for s in (0, 1))
    assert load_scenario("throw-for-it").time is None and load_scenario("throw-for-it").roll_wind
    gravelines = load_scenario("gravelines")  # the Armada fought to a finish, the banks under its lee
    assert gravelines.off_table == "struck" and [land.kind for land in gravelines.land] == ["shoal"]
    tiger = next(p for p in load_scenario("mediterranean").ships if p.name == "Tiger")
    assert (tiger.arrives, tiger.edge) == (3, "west") and "third move" in load_scenario("mediterranean").briefing
    rowing = {p.name for p in load_scenario("mediterranean").ships if p.oars}  # "pull out to catch" them
    assert rowing == {"Zuniga", "Capitana", "Patrona", "Santa Ana"}


TWO = [ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"options": {"boats": "yes"}}, "options.boats"),
        ({"options": {"sails": True}}, "options.sails"),
        ({"wind": "NNE"}, "wind"),
        ({"table": [4, 36]}, "table"),
        ({"table": [72, 5000]}, "table"),  # beyond any floor: the terminal would draw 5,000 columns
        ({"time": "25:00"}, "time"),
        # a scenario's objective (rulings, "Victory": scenarios may add objectives)
        ({"victory": {"off-table": "sunk"}}, "victory.off-table"),
        ({"victory": {"escape": "west"}}, "victory.escape"),
        ({"victory": "struck"}, "victory"),
        ({"ships": [ship("A", "english", 10, 10, 400)]}, "ships[0].heading"),
        ({"ships": [ship("A", "english", 10, 10, 90, type="Dreadnought")]}, "ships[0].type"),
        ({"ships": [ship("A", "english", 10, 10, 90), ship("B", "spanish", 10.5, 10, 90)]}, "ships[1].at"),
        # a misspelt key is refused, not silently left out of the ship or the shore
        ({"ships": [*TWO, ship("C", "english", 30, 20, 90, flottation=30)]}, "ships[2].flottation"),
        ({"land": [{"name": "Aix", "points": [[1, 1], [2, 1], [2, 2]], "height": 3}]}, "land[0].height"),
        # a ship begins under oars only if she has them (optional rule 4)
        ({"ships": [*TWO, ship("C", "english", 30, 20, 90, oars=True)]}, "ships[2].oars"),
        ({"ships": [*TWO, ship("C", "english", 30, 20, 90, type="Galley", oars="yes")]}, "ships[2].oars"),
        # reinforcements "enter on a given move at a given edge" (rulings)
        ({"ships": [*TWO, ship("C", "english", 0.5, 20, 90, arrives=0)]}, "ships[2].arrives"),
        ({"ships": [*TWO, ship("C", "english", 0.5, 20, 90, arrives=3)]}, "ships[2].edge"),
        ({"ships": [*TWO, ship("C", "english", 0.5, 20, 90, arrives=3, edge="left")]}, "ships[2].edge"),
        ({"ships": [*TWO, ship("C", "english", 0.5, 20, 90, edge="west")]}, "ships[2].edge"),
        ({"ships": [*TWO, ship("C", "english", 5, 20, 90, arrives=3, edge="west")]}, "ships[2].at"),
        ({"ships": [*TWO, ship("C", "english", 0.5, 20, 270, arrives=3, edge="west")]}, "ships[2].heading"),
        (
            {"ships": [ship("A", "english", 10, 10, 90), ship("B", "spanish", 71, 10, 270, arrives=2, edge="east")]},
            "ships",
        ),
    ],
)
def test_bad_scenarios_name_the_field(change, field):
    data = {
        "title": "t",
        "briefing": "b",
        "ships": [ship("A", "english", 10, 10, 90), ship("B", "spanish", 60, 10, 270)],
    }
    data.update(change)
    with pytest.raises(ScenarioError) as error:
        parse_scenario("x", data)
    assert error.value.field == field


def test_user_options_override_the_scenario_and_are_validated():
    state = GAME.new_initial_state("armada", {"boats": True})
    assert state.scenario.option("boats") and state.scenario.option("jury-masts")
    with pytest.raises(ScenarioError):
        GAME.new_initial_state("armada", {"oars": True})
    with pytest.raises(ScenarioError):
        GAME.new_initial_state("no-such-battle")


class TestReinforcements:
    """Rulings: "Reinforcements (scenario data) enter on a given move at a given edge"."""

    def position(self, blocker=()):
        return position(
            [
                ship("Revenge", "english", 20, 20, 90),
                ship("San Martin", "spanish", 50, 20, 270, type="San Martin"),
                ship("White Bear", "english", 0.5, 20, 90, type="White Bear", arrives=2, edge="west"),
                *blocker,
            ]
        )

    def test_she_waits_off_the_table_and_sails_in_from_her_edge_on_her_move(self):
        state = to_movement(self.position())
        bear = state.ships["White Bear"]
        assert bear.status == "waiting" and not bear.in_play
        assert {a.ship for a in state.legal_actions() if isinstance(a, Move)} == {"Revenge"}
        assert victory.scores(state) == (0, 0) and victory.side_beaten(state) is None
        play(state, "move Revenge turn 0 run 6.00 turn 0")
        events = play(state, "move San Martin turn 0 run 6.00 turn 0")  # the last of move 1
        assert due(state) == ("roll", "wind") and state.move_number == 2
        assert "White Bear placed at (0.50, 20.00)" in [e.describe() for e in events] and bear.status == "afloat"
        roll(state, 2, 2)
        roll(state, 9, 4)
        play(state, "move White Bear turn 0 run 6.00 turn 0")
        assert (bear.x, bear.y) == (650, 2000)

    def test_with_her_place_taken_she_enters_once_it_is_free(self):
        state = to_movement(self.position(blocker=[ship("Hope", "english", 0, 20, 90, type="Hope")]))
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move Hope turn 0 run 1.00 turn 0")  # still over the place where White Bear comes in
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        roll(state, 2, 2)
        assert state.ships["White Bear"].status == "waiting"
        roll(state, 9, 4)
        play(state, "move Hope turn 0 run 5.00 turn 0")
        play(state, "move Revenge turn 0 run 1.00 turn 0")
        play(state, "move San Martin turn 0 run 1.00 turn 0")
        roll(state, 2, 2)
        assert state.ships["White Bear"].status == "afloat" and state.move_number == 3
