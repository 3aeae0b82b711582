"""Scenarios and tables: every shipped scenario loads with a briefing; the reconstructed tables are
data a player may replace (`--tables FILE`), checked field by field with errors naming the field."""

from __future__ import annotations

import copy
from importlib import resources

import pytest

from quarterdeck.core.errors import ScenarioError
from quarterdeck.games.frigate.scenario import load_scenario, parse_tables, standard_tables_data

from .helpers import GAME

SHIPPED = ["convoy-raid", "fleet-battle", "frigate-duel", "seventy-four-and-two-frigates", "sloop-and-merchantman",
           "squadron-line-ahead"]
TABLES_TEXT = resources.files("quarterdeck.games.frigate").joinpath("tables.toml").read_text(encoding="utf-8")


def test_the_shipped_scenarios_with_their_briefings():
    infos = {info.name: info for info in GAME.scenarios()}
    assert set(SHIPPED) <= set(infos)
    assert GAME.default_scenario == "frigate-duel"
    for name in SHIPPED:
        assert len(infos[name].briefing) > 100 and infos[name].title
    fleet = load_scenario("fleet-battle")
    assert all(sum(1 for s in fleet.ships if s.side == side) >= 8 for side in (0, 1))
    line = load_scenario("squadron-line-ahead")
    assert any(s.flagship == "fleet" for s in line.ships) and line.squadrons[0].formation == "line-ahead"
    convoy = load_scenario("convoy-raid")
    assert sum(s.cls == "merchantman" for s in convoy.ships) == 4


def test_ship_values_from_the_rating():
    duel = load_scenario("frigate-duel")
    constitution, guerriere = duel.ships
    assert (constitution.gs, constitution.ds, constitution.hull) == (6, 6, 6)
    assert (guerriere.gs, guerriere.hull) == (5, 6)
    seventy_four = load_scenario("seventy-four-and-two-frigates").ships[0]
    assert (seventy_four.gs, seventy_four.hull) == (9, 9)


def test_schedule_rows_by_rating():
    tables = parse_tables(standard_tables_data())
    assert tables.row_for(38, "frigate").ratings == (36, 44)
    assert tables.row_for(44, "two-decker").two_decker
    assert tables.row_for(44, "frigate").turn == 1
    assert tables.row_for(24, "ship").ratings == (14, 20)
    assert tables.row_for(8, "ship").ratings == (14, 20)
    assert tables.row_for(130, "ship").p
    assert tables.row_for(14, "merchantman").merchantman


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["schedule"][2]["moderate"].__setitem__(1, 99), "schedule[2].moderate[1]"),
    (lambda d: d["schedule"][0]["fresh"].__setitem__(0, 3), "schedule[0].fresh[0]"),
    (lambda d: d["quarterly"]["chart"][4].__setitem__(2, 3), "quarterly.chart[4]"),
    (lambda d: d["crt"]["table"]["1-1"].__setitem__("hits", [0, 0, 0]), "crt.table.1-1.hits"),
    (lambda d: d["hit_kinds"].__setitem__("hull", ["hull"] * 5 + ["sails"]), "hit_kinds.hull[5]"),
    (lambda d: d["wind"].__setitem__("start_velocity", ["gale"] * 6), "wind.start_velocity[0]"),
    (lambda d: d["efficiency"]["crack"].pop("repair"), "efficiency.crack.repair"),
    (lambda d: (d["crt"]["columns"].__setitem__(3, "evens"), d["crt"]["table"].__setitem__("evens", {"hits": [0] * 6})),
     "crt.columns[3]"),
    (lambda d: d.__setitem__("extra", 1), "extra"),
    # a misspelt key deep in the file is refused, not left out
    (lambda d: d["combat"].__setitem__("rake_bonus", 1), "combat.rake_bonus"),
    (lambda d: d["efficiency"]["green"].__setitem__("moral", 1), "efficiency.green.moral"),
    (lambda d: d["crt"]["table"].__setitem__("9-1", {"hits": [6] * 6}), "crt.table.9-1"),
    (lambda d: d["wind"].__setitem__("gusts", [1] * 6), "wind.gusts"),
])
def test_a_bad_table_names_its_field(change, field):
    data = copy.deepcopy(standard_tables_data())
    change(data)
    with pytest.raises(ScenarioError) as error:
        parse_tables(data)
    assert error.value.field == field


def test_a_players_own_tables_file(tmp_path):
    mine = tmp_path / "tables.toml"
    mine.write_text(TABLES_TEXT.replace("broadside_range = 10", "broadside_range = 8"), encoding="utf-8")
    state = GAME.new_initial_state("frigate-duel", {"tables": str(mine)})
    assert state.tables.broadside_range == 8
    restored = GAME.state_from_json(state.to_json())
    assert restored.tables.broadside_range == 8  # a saved game carries its tables
    assert restored.to_json() == state.to_json()  # saved before the first die, it reloads as it was
    broken = tmp_path / "broken.toml"
    broken.write_text(TABLES_TEXT.replace("sag = 2", "sag = 9", 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("frigate-duel", {"tables": str(broken)})
    assert error.value.field == "schedule[0].sag"
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("frigate-duel", {"tables": str(tmp_path / "missing.toml")})
    assert error.value.field == "options.tables"
    saved_in_latin1 = tmp_path / "latin-1.toml"
    saved_in_latin1.write_bytes(TABLES_TEXT.replace("[wind]", "# vent, d\u00e9cid\u00e9\n[wind]").encode("latin-1"))
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("frigate-duel", {"tables": str(saved_in_latin1)})
    assert error.value.field == "options.tables" and "not UTF-8 text" in error.value.message


@pytest.mark.parametrize(("options", "field"), [
    ({"simove": "yes"}, "options.simove"),
    ({"wind_table": "gusty"}, "options.wind_table"),
    ({"preservation": "none"}, "options.preservation"),
    ({"speed": 3}, "options.speed"),
    ({"turns": -1}, "options.turns"),
])
def test_bad_options_name_the_option(options, field):
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("frigate-duel", options)
    assert error.value.field == field


def test_a_bad_scenario_names_its_field(tmp_path):
    text = resources.files("quarterdeck.games.frigate").joinpath("scenarios", "frigate-duel.toml").read_text()
    for wrong, field in ((text.replace('hex = "1910"', 'hex = "1406"'), "ships[1].hex"),
                         (text.replace('hex = "1910"', 'hex = "9999"'), "ships[1].hex"),
                         (text.replace('facing = "NE"', 'facing = "E"'), "ships[1].facing"),
                         (text.replace('rating = 38', 'rating = "many"'), "ships[1].rating"),
                         (text.replace('efficiency = "crack"', 'efficiency = "elite"'), "forces[0].efficiency")):
        path = tmp_path / "bad.toml"
        path.write_text(wrong, encoding="utf-8")
        with pytest.raises(ScenarioError) as error:
            GAME.new_initial_state(str(path))
        assert error.value.field == field


def test_the_sister_frigates_favour_neither_side():
    """A duel of equals: the same rating, values, crew quality and CRT, the two ships on one row,
    mirrored about column 17 and about the northerly wind (one close-hauled on each tack)."""
    duel = load_scenario("sister-frigates")
    amethyst, thetis = duel.ships
    values = [(s.rating, s.cls, s.gs, s.ds, s.hull, s.ma) for s in (amethyst, thetis)]
    assert values == [(38, "frigate", 5, 5, 6, 5)] * 2
    blue, red = duel.forces
    assert (blue.efficiency, blue.crt, blue.preservation) == (red.efficiency, red.crt, red.preservation)
    assert (duel.wind_direction.name, amethyst.facing.name, thetis.facing.name) == ("N", "NE", "NW")
    assert [duel.data["ships"][i]["hex"] for i in (0, 1)] == ["1211", "2211"]
