"""Scenario files: every shipped scenario is valid and playable; malformed ones are rejected with the
field at fault (decisions: scenarios as data, each with a briefing)."""

from __future__ import annotations

import copy
from importlib import resources

import pytest

from quarterdeck.core.errors import ScenarioError
from quarterdeck.games.square_rigger.scenario import load_scenario_data

from .helpers import GAME

REQUIRED = {"duel", "frigate-action", "squadron-battle", "fleet-battle", "convoy", "chase", "blockade"}


def test_every_required_scenario_ships_with_a_briefing():
    infos = {info.name: info for info in GAME.scenarios()}
    assert REQUIRED <= set(infos)
    for info in infos.values():
        assert len(info.briefing.split()) > 20, info.name


def test_duel_is_two_third_raters():
    state = GAME.new_initial_state("duel")
    assert sorted(s.ship_class for s in state.setup.ships.values()) == ["third", "third"]


def test_fleet_battle_has_a_line_of_battle_of_at_least_eight_ships_a_side():
    state = GAME.new_initial_state("fleet-battle")
    for side in ("blue", "red"):
        line = [s for s in state.setup.ships.values() if s.side == side and s.ship_class != "frigate"]
        assert len(line) >= 8


def test_blockade_has_harbour_squares_and_shore_batteries():
    state = GAME.new_initial_state("blockade")
    assert state.setup.batteries
    assert any("H" in row for row in state.setup.terrain)


def test_convoy_has_merchants_that_may_escape():
    state = GAME.new_initial_state("convoy")
    merchants = [s for s in state.setup.ships.values() if s.role != "warship"]
    assert merchants and all(s.exits for s in merchants)


def test_squadron_battle_has_a_commander_per_squadron():
    assert len(GAME.new_initial_state("squadron-battle").players) == 4


def base() -> dict:
    return copy.deepcopy(load_scenario_data("duel"))


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["ships"][1].update(at="z9"), "ships[1].at"),
        (lambda d: d["ships"][0].update(heading="NNE"), "ships[0].heading"),
        (lambda d: d["ships"][0].update({"class": "sloop"}), "ships[0].class"),
        (lambda d: d["ships"][0].update(side="green"), "ships[0].side"),
        (lambda d: d["ships"][1].update(at="c3"), "ships[1].at"),
        (lambda d: d["ships"][0].update(speed=4), "ships[0].speed"),
        (lambda d: d["ships"][0].pop("at"), "ships[0].at"),
        (lambda d: d["ships"][0].update(name="two words"), "ships[0].name"),
        (lambda d: d.update(board="..\n..."), "board"),
        (lambda d: d.update(board="..x\n..."), "board"),
        (lambda d: d["wind"].update({"from": "up"}), "wind.from"),
        (lambda d: d["wind"].update(strength="gale"), "wind.strength"),
        (lambda d: d.update(victory=[{"type": "strike", "side": "blue"}]), "victory[0].count"),
        (lambda d: d.update(at_limit="nobody"), "at_limit"),
        (lambda d: d.update(tracks={"third": [[3, 2, 2], [1, 2, 2]]}), "tracks.third"),
        (lambda d: d.update(tracks={"third": [[3, 2, 1], [2, 2, 1], [1, 2, 1], [0, 2, 1], [0, 1, 1], [0, 0, 1],
                                              [0, 0, 0]]}), "tracks.third"),
        (lambda d: d.update(tracks={"third": [[3, 2, 2], [2, 2, 2], [1, 2, 2], [0, 2, 2], [0, 1, 2]]}),
         "tracks.third"),
        (lambda d: d.update(tracks={"third": []}), "tracks.third"),
        (lambda d: d.update(tracks={"third": [[3, 2, 2], [2, 1, 2], [1, 1, 2], [0, 1, 2], [0, 0, 2], [0, 0, 1],
                                              [0, 0, 0]]}), "tracks.third"),
        (lambda d: d.update(tracks={"third": [[3, 2, 2], [2, 2, 2], [2, 2, 3], [1, 2, 3], [0, 2, 3], [0, 1, 3],
                                              [0, 0, 3], [0, 0, 2], [0, 0, 1], [0, 0, 0]]}), "tracks.third"),
        (lambda d: d.update(tracks={"third": [[3, 2, 2], [2, 2, 2], [1, 2, 2], [0, 2, 2], [0, 1, 2], [0, 0, 2],
                                              [0, 0, 1], [0, 0]]}), "tracks.third"),
        (lambda d: d.update(tracks={"third": [[3, 2, 2], [2, 2, 2], [3, 1, 1], [2, 1, 1], [1, 1, 1], [0, 1, 1],
                                              [0, 0, 1], [0, 0, 0]]}), "tracks.third"),
        (lambda d: d["ships"][0].update(exits=["up"]), "ships[0].exits"),
        (lambda d: d.update(victory=[{"type": "annihilation", "side": "green"}]), "victory[0].side"),
        (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 1, "roles": ["pirate"]}]),
         "victory[0].roles"),
        (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 1, "classes": ["sloop"]}]),
         "victory[0].classes"),
        (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 1, "ships": ["Nobody"]}]),
         "victory[0].ships"),
    ],
)
def test_a_malformed_scenario_is_rejected_naming_the_field(change, field):
    data = base()
    change(data)
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_setup(data)
    assert error.value.field == field, str(error.value)


@pytest.mark.parametrize(
    ("change", "field", "keys"),
    [
        (lambda d: d["ships"][0].update(speed=4), "ships[0].speed", "name, side, class, role, at, heading"),
        (lambda d: d["wind"].update(force=3), "wind.force", "from, strength, changes, table"),
        (lambda d: d["wind"].update(changes=[{"turn": 3, "from": "N", "strength": "calm", "gusts": 1}]),
         "wind.changes[0].gusts", "turn, from, strength"),
        (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 1, "who": "me"}]),
         "victory[0].who", "type, side, count, roles, classes, ships"),
        (lambda d: d.update(classes={"sloop": {"title": "Sloop", "F": 1, "S": 2, "T": 1, "guns": 8}}),
         "classes.sloop.guns", "title, F, S, T"),
    ],
)
def test_a_misspelt_key_deep_in_a_scenario_is_answered_with_the_keys_of_its_table(change, field, keys):
    data = base()
    change(data)
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_setup(data)
    assert error.value.field == field
    assert f"no such field; fields are {keys}" in str(error.value)


def test_a_players_own_scenario_file_is_played_from_its_path(tmp_path):
    shipped = resources.files("quarterdeck.games.square_rigger").joinpath("scenarios", "duel.toml").read_text()
    mine = tmp_path / "short-duel.toml"
    mine.write_text(shipped.replace("turn_limit = 40", "turn_limit = 3").replace('title = "', 'title = "My '))
    state = GAME.new_initial_state(str(mine))
    assert state.setup.title.startswith("My ") and state.setup.turn_limit == 3
    assert state.square == GAME.new_initial_state("duel").square
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state(str(tmp_path / "missing.toml"))
    assert error.value.field == "scenario" and "cannot read" in str(error.value)
    mine.write_text(shipped.replace("[wind]", "[wind]\nforce = 3"))
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state(str(mine))
    assert error.value.field == "wind.force"


def test_ships_placed_on_touching_squares_of_one_side_are_rejected():
    data = base()
    data["ships"].append({"name": "Twin", "side": "blue", "class": "frigate", "at": "d4", "heading": "N"})
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_setup(data)
    assert error.value.field == "ships[2].at" and "non-adjacency" in str(error.value)


def test_a_ship_placed_on_land_is_rejected():
    data = base()
    data["board"] = "#" + data["board"].strip()[1:]
    data["ships"][1]["at"] = "a10"
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_setup(data)
    assert error.value.field == "ships[1].at" and "land" in str(error.value)


def test_a_battery_at_sea_is_rejected():
    data = base()
    data["batteries"] = [{"name": "Fort", "side": "red", "at": "e5", "F": 3, "field": ["N"]}]
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_setup(data)
    assert error.value.field == "batteries[0].at"


def test_unknown_scenario_and_bad_options_are_rejected():
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("armada")
    assert error.value.field == "scenario"
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("duel", {"wind_strength": "hurricane"})
    assert error.value.field == "options.wind_strength"
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("duel", {"fog": True})
    assert error.value.field == "options.fog"


def test_options_change_the_game():
    state = GAME.new_initial_state("duel", {"wind_from": "E", "wind_strength": "strong", "turn_limit": 5})
    assert state.wind_from.name == "E" and state.wind_strength == "strong" and state.setup.turn_limit == 5
