"""The standard scenario, the scenario files and their validation, options."""

from __future__ import annotations

from pathlib import Path

import pytest

from quarterdeck.core.errors import IllegalAction, RecordError, ScenarioError
from quarterdeck.core.protocol import SIMULTANEOUS
from quarterdeck.games import get, names
from quarterdeck.games.napoleonic_chess.scenario import parse_scenario

from .helpers import GAME, GUARDS, RED, scenario_data

STANDARD_BACK_RANK = ["artillery", "cavalry", "cavalry", None, "guards", "cavalry", "cavalry", "artillery"]


def layout(state, rank: int) -> list[str | None]:
    row = []
    for file in range(8):
        unit = state.unit_at((file, rank - 1))
        row.append(unit.kind.name if unit else None)
    return row


def test_registered_under_its_name():
    assert "napoleonic-chess" in names()
    assert get("napoleonic-chess").title == "Napoleonic Chess"


def test_standard_layout_red_on_ranks_2_and_3():
    state = GAME.new_initial_state()
    assert layout(state, 2) == STANDARD_BACK_RANK
    assert layout(state, 3) == ["infantry"] * 8
    assert {unit.army for square, unit in state.board.items() if square[1] in (1, 2)} == {RED}


def test_standard_layout_black_mirrors_on_ranks_7_and_6():
    state = GAME.new_initial_state("standard")
    assert layout(state, 7) == STANDARD_BACK_RANK
    assert layout(state, 6) == ["infantry"] * 8
    assert layout(state, 1) == layout(state, 4) == layout(state, 5) == layout(state, 8) == [None] * 8
    assert len(state.board) == 30


def test_red_moves_first_on_an_eight_by_eight_board():
    state = GAME.new_initial_state()
    assert state.players == ("red", "black")
    assert state.current_player() == RED
    assert state.phase == "move"
    assert (state.scenario.grid.width, state.scenario.grid.height) == (8, 8)


def test_units_are_numbered_per_army_and_type():
    state = GAME.new_initial_state()
    ids = {unit.id for unit in state.board.values()}
    assert {"red-infantry-1", "red-infantry-8", "black-cavalry-4", "red-guards-1"} <= ids
    assert len(ids) == 30


def test_every_builtin_scenario_loads_and_is_listed():
    listed = [info.name for info in GAME.scenarios()]
    assert listed[0] == "standard"
    expected = {
        "standard",
        "attack-at-dawn",
        "marching-orders",
        "variant-units",
        "other-epochs",
        "terrain",
        "grand-battle",
        "three-armies",
    }
    assert expected <= set(listed)
    for info in GAME.scenarios():
        assert info.briefing and info.title
        state = GAME.new_initial_state(info.name)
        assert state.acting_players()


def test_variant_units_scenario_fields_every_variant_unit():
    state = GAME.new_initial_state("variant-units")
    kinds = {unit.kind.name for unit in state.board.values()}
    assert {"horse-artillery", "dragoons", "foot-guards", "cuirassiers"} <= kinds


def test_other_epochs_scenario_puts_heavy_infantry_in_place_of_artillery():
    standard = GAME.new_initial_state("standard")
    ancient = GAME.new_initial_state("other-epochs")
    for square, unit in standard.board.items():
        expected = "heavy-infantry" if unit.kind.name == "artillery" else unit.kind.name
        assert ancient.unit_at(square).kind.name == expected


def test_larger_board_scenario():
    state = GAME.new_initial_state("grand-battle")
    assert (state.scenario.grid.width, state.scenario.grid.height) == (12, 10)
    assert state.scenario.hills


def test_scenario_file_by_path(tmp_path: Path):
    path = tmp_path / "mine.toml"
    path.write_text(
        'title = "Mine"\nbriefing = "Two Guards."\nwidth = 4\nheight = 4\n'
        'units = [{ army = "red", type = "guards", square = "a1" },\n'
        '         { army = "black", type = "guards", square = "d4" }]\n'
        '[[armies]]\nname = "red"\n[[armies]]\nname = "black"\n'
    )
    state = GAME.new_initial_state(str(path))
    assert len(state.board) == 2


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["units"][3].update(square="z9"), "units[3].square"),
        (lambda d: d["units"][2].update(square="a1"), "units[2].square"),
        (lambda d: d["units"][1].update(type="hussars"), "units[1].type"),
        (lambda d: d["units"][0].update(army="green"), "units[0].army"),
        (lambda d: d["units"][0].pop("square"), "units[0].square"),
        (lambda d: d["units"][0].update(count=2), "units[0].count"),
        (lambda d: d["units"][0].update(colour="blue"), "units[0].colour"),
        (lambda d: d.update(width=40), "width"),
        (lambda d: d.update(height="8"), "height"),
        (lambda d: d.pop("title"), "title"),
        (lambda d: d.update(deployment="random"), "deployment"),
        (lambda d: d.update(turn_order=["red", "red"]), "turn_order[1]"),
        (lambda d: d.update(turn_order=["red"]), "turn_order"),
        (lambda d: d["armies"][1].update(name="red"), "armies[1].name"),
        (lambda d: d["armies"][1].update(alliance="red"), "armies"),
        (lambda d: d["armies"][1].update(zone=["a3:h3"]), "armies[1].zone[0]"),
        (lambda d: d.update(terrain={"hills": ["d4", "q1"]}), "terrain.hills[1]"),
        (lambda d: d.update(terrain={"obstacles": ["d4|e5"]}), "terrain.obstacles[0]"),
        (lambda d: d.update(terrain={"rivers": []}), "terrain.rivers"),
        (lambda d: d.update(terrain=["d4"]), "terrain"),
        (lambda d: d.update(redoubts=["d4"]), "redoubts"),
        (lambda d: d.update(terrain={"obstacles": ["d4-d5"]}), "terrain.obstacles[0]"),
        (lambda d: d.update(terrain={"obstacles": [45]}), "terrain.obstacles[0]"),
        (lambda d: d.update(redoubts={"turns": 0}), "redoubts.turns"),
        (lambda d: d.update(redoubts={"turns": 100}), "redoubts.turns"),
        (lambda d: d.update(redoubts={"sites": ["d4", 5]}), "redoubts.sites[1]"),
        (lambda d: d.update(redoubts={"turns": 2, "depth": 1}), "redoubts.depth"),
        (lambda d: d.update(unit_types={"hussars": {"move": 2}}), "unit_types.hussars.attack"),
        (lambda d: d.update(surprise=True), "surprise"),
    ],
)
def test_invalid_scenario_is_rejected_naming_the_field(change, field):
    data = scenario_data({**GUARDS, "d4": "red infantry", "d5": "black infantry", "e4": "red cavalry"})
    change(data)
    with pytest.raises(ScenarioError) as error:
        parse_scenario(data, "broken")
    assert error.value.field == field


def test_an_army_without_guards_is_rejected():
    with pytest.raises(ScenarioError) as error:
        parse_scenario(scenario_data({"a1": "red guards", "h8": "black infantry"}), "broken")
    assert error.value.field == "armies[1]"


def test_deployment_needs_zones_large_enough():
    data = scenario_data({**GUARDS, "b1": "red infantry"}, deployment="alternate")
    data["armies"][0]["zone"] = ["a2"]
    with pytest.raises(ScenarioError) as error:
        parse_scenario(data, "broken")
    assert error.value.field == "armies[0].zone"


def test_unknown_scenario_and_bad_options_are_rejected():
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("waterloo")
    assert error.value.field == "scenario"
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("standard", {"fog": True})
    assert error.value.field == "options.fog"
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("standard", {"deployment": "sideways"})
    assert error.value.field == "options.deployment"
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state("standard", {"redoubt_turns": 2})
    assert error.value.field == "options.redoubt_turns"


def test_options_switch_any_scenario_to_a_deployment_variant():
    state = GAME.new_initial_state("standard", {"deployment": "secret"})
    assert state.current_player() == SIMULTANEOUS
    assert not state.board
    state = GAME.new_initial_state("terrain", {"redoubt_turns": 5})
    assert state.scenario.redoubt_turns == 5
    assert GAME.new_initial_state("terrain", {"redoubt_turns": 99}).scenario.redoubt_turns == 99
    for turns in (0, 100):
        with pytest.raises(ScenarioError) as error:
            GAME.new_initial_state("terrain", {"redoubt_turns": turns})
        assert error.value.field == "options.redoubt_turns"


def test_scenario_may_define_its_own_unit_type():
    data = scenario_data(
        {**GUARDS, "d4": "red hussars"},
        unit_types={
            "hussars": {
                "symbol": "Hu",
                "move": 3,
                "move_directions": "any",
                "attack": 1,
                "attack_directions": "diagonal",
                "support": 1,
                "defence": 1,
            }
        },
    )
    scenario = parse_scenario(data, "custom")
    hussars = scenario.unit_types["hussars"]
    assert hussars.move == 3 and hussars.support_directions == hussars.attack_directions


def test_black_mirrors_red_so_its_first_moves_mirror_reds():
    state = GAME.new_initial_state()
    red_moves = {state.action_to_text(a) for a in state.legal_actions()}
    state.apply(state.parse_action("end-move"))
    black_moves = {state.action_to_text(a) for a in state.legal_actions()}
    flip = str.maketrans("12345678", "87654321")
    assert {text.translate(flip) for text in red_moves} == black_moves


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda d: {**d, "game": "pirate-chess"}, "saved state of 'pirate-chess'"),
        (lambda d: {**d, "active": "green"}, "not a saved Napoleonic Chess state: KeyError"),
        (lambda d: {**d, "units": [{**d["units"][0], "square": "z99"}]}, "not a saved Napoleonic Chess state"),
        (lambda d: {k: v for k, v in d.items() if k != "turn"}, "not a saved Napoleonic Chess state: KeyError"),
    ],
)
def test_a_corrupt_saved_state_is_rejected_saying_why(corrupt, message):
    data = GAME.new_initial_state("standard").to_json()
    with pytest.raises(RecordError, match=message):
        GAME.state_from_json(corrupt(data))


def test_a_saved_attack_by_or_at_a_unit_not_on_the_board_is_rejected():
    # saved while the attacks are declared: the board stands still until they resolve
    data = {**GAME.new_initial_state("standard").to_json(), "phase": "attack"}
    unit = data["units"][0]
    enemy = next(u for u in data["units"] if u["army"] != unit["army"])
    empty = next(f"{f}{r}" for r in "45" for f in "abcdefgh" if all(u["square"] != f"{f}{r}" for u in data["units"]))
    with pytest.raises(RecordError, match="attacks: ghost is not a unit on the board"):
        GAME.state_from_json({**data, "attacks": {"ghost": enemy["square"]}})
    with pytest.raises(RecordError, match=f"supports: {unit['id']} is declared at {empty}, where no unit stands"):
        GAME.state_from_json({**data, "supports": {unit["id"]: empty}})
    with pytest.raises(RecordError, match=f"fallen: {empty} is not a vacated square its attackers may take"):
        GAME.state_from_json({**data, "phase": "advance", "fallen": {empty: [unit["id"], "ghost"]}})
    declared = {unit["id"]: enemy["square"]}
    assert GAME.state_from_json({**data, "attacks": declared}).to_json()["attacks"] == declared


def test_only_napoleonic_actions_are_accepted():
    state = GAME.new_initial_state("standard")
    before = state.to_json()
    with pytest.raises(IllegalAction) as error:
        state.apply(("charge", "d4"))
    assert error.value.rule == "action" and state.to_json() == before
