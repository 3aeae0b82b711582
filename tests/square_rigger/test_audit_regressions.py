"""Rules and robustness points found in review, each pinned by a test."""

from __future__ import annotations

import copy

import pytest
from typer.testing import CliRunner

from quarterdeck.cli.main import app
from quarterdeck.core.errors import IllegalAction, NotationError, RecordError, ScenarioError
from quarterdeck.core.events import PhaseChanged, Struck
from quarterdeck.core.session import Match
from quarterdeck.games.square_rigger.actions import EndMove, MoveShip
from quarterdeck.games.square_rigger.scenario import load_scenario_data

from .helpers import GAME, ends, play, position


def test_play_takes_place_by_alternate_moves():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="S")
    sides = []
    for _ in range(4):
        sides.append(state.side_name)
        play(state, "end-move")
    assert sides == ["blue", "red", "blue", "red"]


def test_three_sides_take_their_turns_in_the_order_the_scenario_lists_them():
    # Each side's turn begins with the word of whose turn it is.
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S"),
                      ("Pirate", "green", "third", "a10", "E")], wind="S", sides=["blue", "red", "green"])
    turns = [play(state, "end-move")[-1] for _ in range(3)]
    assert turns == [PhaseChanged("red", "move", 1), PhaseChanged("green", "move", 1), PhaseChanged("blue", "move", 2)]


def test_manoeuvrability_and_firepower_decline_with_hits():
    state = position([("Bellona", "blue", "third", "d4", "N"), ("Foe", "red", "third", "j10", "S")], wind="S")
    fresh = ends(state, "Bellona")
    state.hits["Bellona"] = 4  # 3 2 2 -> 1 1 1
    assert state.factors("Bellona") == (1, 1, 1)
    damaged = ends(state, "Bellona")
    assert damaged < fresh and ("d6", "N") not in damaged
    assert state.cap("Bellona", 2) == 1 and state.cap("Bellona", 1) == 0


def test_merchants_take_damage_and_strike_like_warships():
    state = position([("Trader", "red", "third", "e5", "N", {"role": "merchant"}),
                      ("Victory", "blue", "first", "f5", "N"), ("Escort", "red", "frigate", "a10", "S")])
    state.hits["Trader"] = 6
    events = play(state, "end-move", "fire Victory port-beam 5", "end-fire", "end-defence")
    assert any(isinstance(e, Struck) and e.piece == "Trader" for e in events)


def test_batteries_are_fixed():
    board = "\n".join([".........."] * 9 + ["####......"])
    state = position([("Frig", "red", "frigate", "h8", "N"), ("Frig2", "blue", "frigate", "h2", "N")], board=board,
                     batteries=[{"name": "Fort", "side": "blue", "at": "b1", "F": 3, "field": ["N"]}])
    with pytest.raises(IllegalAction) as error:
        play(state, "move Fort b2 N")
    assert error.value.rule == "batteries-fixed"


def test_players_set_wind_direction_and_strength_before_play():
    state = GAME.new_initial_state("duel", {"wind_from": "S", "wind_strength": "strong"})
    assert ("c3", "N") in ends(state, "Bellona") and ("c7", "N") in ends(state, "Bellona")


def test_a_side_with_nothing_left_in_the_fight_loses_whatever_the_turn_limit_says():
    state = position([("Last", "blue", "frigate", "e5", "N"), ("Victory", "red", "first", "f5", "N")],
                     at_limit="blue", turn_limit=30,
                     victory=[{"type": "strike", "side": "red", "count": 1}])
    state.hits["Last"] = 6
    play(state, "end-move", "end-move", "fire Victory port-beam 5", "end-fire", "end-defence")
    assert state.outcome.result == "red"


def test_a_side_with_nothing_to_do_this_turn_passes():
    board = "\n".join([".........."] * 9 + ["####......"])
    state = position([("Frig", "blue", "frigate", "h8", "N")], board=board,
                     batteries=[{"name": "Fort", "side": "red", "at": "b1", "F": 3, "field": ["N"]}])
    play(state, "end-move")
    assert state.outcome is None and state.side_name == "blue" and state.turn == 2


def test_squadrons_may_not_commit_next_to_another_squadrons_ship():
    state = position([("A", "blue", "third", "b4", "S", {"squadron": "van"}),
                      ("B", "blue", "first", "a1", "S", {"squadron": "rear"}),
                      ("Foe", "red", "third", "j10", "S")], wind="N",
                     squadrons=[{"side": "blue", "name": "van"}, {"side": "blue", "name": "rear"}])
    with pytest.raises(IllegalAction) as error:
        play(state, "move A b2 S")
    assert error.value.rule == "non-adjacency"
    play(state, "move A b3 S", "end-move")
    assert state.legal_actions() == [EndMove()] or EndMove() in state.legal_actions()


def test_choosing_a_ship_lists_every_legal_end_position():
    state = Match(GAME, "fleet-battle").state
    one_ship = {a for a in state.legal_actions(piece="Temeraire") if isinstance(a, MoveShip)}
    safe = {a for a in state.legal_actions() if isinstance(a, MoveShip) and a.ship == "Temeraire"}
    assert safe < one_ship  # ending next to an unmoved friend is legal, but not in the safe list
    extra = next(iter(one_ship - safe))
    state.apply(extra)
    assert EndMove() not in state.legal_actions()  # the friend has to sail away first
    with pytest.raises(IllegalAction):
        state.apply(EndMove())


def test_an_escaped_ships_position_survives_a_json_round_trip():
    state = position([("Runner", "blue", "frigate", "j5", "E", {"exits": ["E"]}),
                      ("Stay", "blue", "frigate", "a5", "W"), ("Foe", "red", "third", "a10", "S")], wind="W")
    play(state, "escape Runner E", "end-move")
    again = GAME.state_from_json(state.to_json())
    assert again.repetition_key() == state.repetition_key()


@pytest.mark.parametrize("corrupt", [
    lambda d: d["ships"]["Bellona"].update(hits=-1),
    lambda d: d["ships"]["Bellona"].update(hits=99),
    lambda d: d["ships"]["Bellona"].update(square="h8"),
    lambda d: d["ships"].pop("Achille"),
    lambda d: d.update(moved=["Nobody"]),
    lambda d: d["wind"].update(strength="hurricane"),
    lambda d: d.update(seat="red"),
    lambda d: d.update(ships=[]),
    lambda d: d["fire"].append({"piece": "Nobody", "bearing": "stbd-beam", "amount": 1, "target": "Achille",
                                "distance": 1, "effect": 1, "arrives": "port-beam"}),
    lambda d: d["defence"].append({"piece": "Nobody", "bearing": "fore", "amount": 1}),
])
def test_corrupt_saved_states_are_rejected(corrupt):
    data = copy.deepcopy(GAME.new_initial_state("duel").to_json())
    corrupt(data)
    with pytest.raises(RecordError):
        GAME.state_from_json(data)


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["wind"].update(changes=[{"turn": 1, "from": "E", "strength": "strong"}]), "wind.changes[0].turn"),
    (lambda d: d["wind"].update(changes=[{"turn": 3, "from": "E", "strength": "strong"},
                                         {"turn": 3, "from": "W", "strength": "calm"}]), "wind.changes[0].turn"),
    (lambda d: d.update(classes={"hulk": {"title": "Hulk", "F": 0, "S": 0, "T": 0}}), "classes.hulk"),
    (lambda d: d.update(tracks={"sloop": [[1, 1, 1]]}), "tracks.sloop"),
    (lambda d: d.update(sides=["blue", "chance"]), "sides"),
    (lambda d: d.update(sides=["blue side", "red"]), "sides[0]"),
    (lambda d: d.update(victory=[{"type": "escape", "side": "blue", "count": 1}]), "victory[0].side"),
    (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 1, "ships": ["Bellona"]}]),
     "victory[0].ships"),
    (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 1, "ships": ["Achille", "Bellona"]}]),
     "victory[0].ships"),
    (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 5}]), "victory[0].count"),
    # Only enemy ships count towards striking, only own ships towards escaping: one of each here.
    (lambda d: d.update(victory=[{"type": "strike", "side": "blue", "count": 2}]), "victory[0].count"),
    (lambda d: (d["ships"][0].update(exits=["E"]), d.update(victory=[{"type": "escape", "side": "blue", "count": 2}])),
     "victory[0].count"),
])
def test_scenarios_that_could_never_play_right_are_rejected(change, field):
    data = copy.deepcopy(load_scenario_data("duel"))
    change(data)
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_setup(data)
    assert error.value.field == field, str(error.value)


def test_unicode_digits_are_malformed_notation():
    state = GAME.new_initial_state("duel")
    for text in ("fire Bellona stbd-beam ²", "move Bellona d² N"):
        with pytest.raises(NotationError):
            state.parse_action(text)


def test_terminal_input_in_the_fire_and_defence_phases_never_crashes(tmp_path):
    runner = CliRunner()
    saved = tmp_path / "fire.qdr"
    match = Match(GAME, "duel")
    for text in ("move Bellona d4 NE", "end-move", "move Achille f6 SW", "end-move", "move Bellona e5 NE",
                 "end-move"):
        match.play(text)
    assert match.state.phase == "fire"
    saved.write_text(match.record().to_text())
    script = "\n".join(["fire Bellona port-beam 3", "foo", "²", "save /nonexistent/dir/x.qdr", "resign"]) + "\n"
    result = runner.invoke(app, ["play", "square-rigger", "--load", str(saved)], input=script)
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    assert "cannot write /nonexistent/dir/x.qdr" in result.output
    binary = tmp_path / "bin.qdr"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = runner.invoke(app, ["replay", str(binary)])
    assert result.exit_code == 2 and "not a text game record" in result.output
