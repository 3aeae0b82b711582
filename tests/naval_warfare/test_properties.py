"""Properties of random legal play on every shipped scenario (seed 003 as a whole): hulls never
overlap, flotation and crew never fall below zero, every offered move passes the rules, notation
round-trips, records replay exactly, saved states reload, and bad input changes nothing."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction, NotationError, RecordError
from quarterdeck.core.protocol import CHANCE
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.games.naval_warfare.actions import Choose, Move, Roll
from quarterdeck.games.naval_warfare.scenario import builtin_names

from .helpers import GAME, distant_enemy, position, ship, to_movement

SCENARIOS = builtin_names()


def check_invariants(state) -> None:
    live = [s for s in state.ships.values() if s.in_play]
    for i, a in enumerate(live):
        assert a.flotation >= 0 and a.crew >= 0 and 0 <= a.masts_lost <= 2
        for b in live[i + 1 :]:
            assert not plane.convex_overlap(a.hull(), b.hull()), (a.name, b.name)
        for land in state.scenario.land:
            assert not plane.polygons_overlap(a.hull(), land.polygon), (a.name, land.name)


def random_game(scenario: str, seed: int, limit: int = 4000):
    match = Match(GAME, scenario, {}, seed)
    rng = random.Random(seed)
    for _ in range(limit):
        state = match.state
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            action = state.sample_chance()
        else:
            action = rng.choice(state.legal_actions())
            text = state.action_to_text(action)
            assert state.parse_action(text) == action
        match.play(action, state.current_player() if state.current_player() >= 0 else None)
        check_invariants(match.state)
    return match


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SCENARIOS), st.integers(0, 10_000))
def test_random_play_keeps_the_table_sound_and_replays_exactly(scenario, seed):
    match = random_game(scenario, seed)
    assert match.state.is_terminal()
    record = Record.parse(match.record().to_text())
    replayed = Match.from_record(record, GAME)
    assert replayed.state.to_json() == match.state.to_json()


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_saved_states_reload_and_clones_are_independent(scenario):
    match = random_game(scenario, 7, limit=120)
    state = match.state
    data = json.loads(json.dumps(state.to_json()))
    again = GAME.state_from_json(data)
    assert again.to_json() == state.to_json()
    assert again.legal_actions() == state.legal_actions()
    twin = state.clone()
    if not twin.is_terminal():
        twin.apply(twin.sample_chance() if twin.current_player() == CHANCE else twin.legal_actions()[0])
        assert state.to_json() == data


@pytest.mark.parametrize(
    "text",
    [
        "move Revenge turn +120 run 4.00 turn 0",
        "move Revenge turn 0 run 30.00 turn 0",
        "move Nobody hold",
        "fire Revenge port at San Martin",
        "roll 4",
        "move Revenge turn 0 run 1.00 turn 0 board San Martin",
        "move Revenge turn -80 run 3.00 turn 0",
    ],
)
def test_impossible_moves_are_refused_naming_the_rule_and_nothing_changes(text):
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 40, 20, 270, type="San Martin")]
        )
    )
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalAction) as error:
        state.apply(state.parse_action(text))
    assert error.value.rule
    assert json.dumps(state.to_json()) == before


@pytest.mark.parametrize(
    "text",
    [
        "",
        "move",
        "move Revenge turn x run 1 turn 0",
        "fire Revenge sideways at X",
        "remove Revenge port huge",
        "sail away",
        "roll",
        "move Revenge to 1 2 3",
    ],
)
def test_malformed_text_is_a_notation_error(text):
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 40, 20, 270, type="San Martin")]
        )
    )
    with pytest.raises(NotationError):
        state.parse_action(text)


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("move", "ship", "a ship's name is missing"),
        ("move Revenge", "move", "a move needs its numbers"),
        ("move Revenge board", "target", "board needs a ship's name"),
        ("move Revenge turn 0 walk 1.00 turn 0", "move", "unexpected 'walk 1.00 turn 0' after the move"),
        ("move Revenge walk 1.00", "move", "a move needs its numbers"),
        ("move Revenge turn 0 run", "run", "run needs a number"),
        ("move Revenge run 1.00 turn", "turn", "turn needs a number"),
        ("move Revenge turn 45 turn 45", "move", "a turn at the end comes after the run"),
        ("move Revenge run 1.00 run 2.00", "move", "unexpected 'run 2.00' after the move"),
        ("move Revenge turn 0 run 1.00 turn 0 board", "target", "board needs a ship's name"),
        ("move Revenge turn port run 1.00 turn 0", "turn", "expected a whole number, not 'port'"),
        ("move Revenge turn 0 run far turn 0", "run", "expected a number of inches, such as 3.50, not 'far'"),
        # numbers as the notation writes them, not every spelling Python's float() reads
        ("move Revenge turn 0 run 1_0 turn 0", "run", "expected a number of inches, such as 3.50, not '1_0'"),
        ("move Revenge turn 0 run \u0663.\u0665 turn 0", "run", "expected a number of inches"),
        ("move Revenge turn 0 run nan turn 0", "run", "expected a number of inches"),
        ("move Revenge turn 0 run 1e2 turn 0", "run", "expected a number of inches"),
        ("move Revenge turn \u0661 run 1.00 turn 0", "turn", "expected a whole number"),
        ("move Revenge turn 0 run 1000000 turn 0", "run", "not a distance: '1000000'"),
        ("move Revenge to 1000000 10 heading 90", "x", "not a distance: '1000000'"),
        ("move Revenge hold fast", "move", "nothing follows 'hold'"),
        ("move Revenge to 1 2 bearing 90", "move", "move <ship> to <x> <y> heading <degrees>"),
        ("move Revenge to 1 2 heading", "move", "move <ship> to <x> <y> heading <degrees>"),
        ("fire port at San Martin", "ship", "a ship's name comes first"),
        ("fire Revenge at", "fire", "fire <ship> <port|starboard|ahead|astern> at <target>"),
        ("roll 1 2 3", "roll", "roll and one or two numbers"),
        ("move Revenge turn 0 run 1.00 turn 0 fly", "move", "unexpected 'fly' after the move"),
        ("move Revenge turn 0 run 1.00 turn 0 heave-to now", "move", "unexpected 'heave-to now' after the move"),
        ("gunners Revenge", "gunners", "gunners <ship> <men kept at the guns>"),
        ("pick-up Revenge", "pick-up", "pick-up <ship> from <sunk ship>"),
        ("pick-up Revenge from", "pick-up", "pick-up <ship> from <sunk ship>"),
    ],
)
def test_a_malformed_action_is_refused_naming_the_part_at_fault(text, field, message):
    """Notation (actions.py): a part missing, too many, or a word where a number belongs is refused
    before anything is played, naming the part: a run is a distance in inches (under a million), a turn
    whole degrees, and after the numbers comes at most one ending."""
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    with pytest.raises(NotationError) as error:
        state.parse_action(text)
    assert error.value.field == field and message in error.value.message


@pytest.mark.parametrize(
    ("text", "full"),
    [
        ("move Revenge run 3", "move Revenge turn +0 run 3.00 turn +0"),
        ("move Revenge turn -45", "move Revenge turn -45 run 0.00 turn +0"),
        ("move Revenge turn 10 run 1.5", "move Revenge turn +10 run 1.50 turn +0"),
        ("move Revenge run 2 turn 45 heave-to", "move Revenge turn +0 run 2.00 turn +45 heave-to"),
        ("move Revenge heave-to", "move Revenge turn +0 run 0.00 turn +0 heave-to"),
    ],
)
def test_a_move_may_leave_out_its_parts_that_are_nothing(text, full):
    """A player says `move Revenge run 3` for a run straight on: a turn or run left out is none, and the
    move is the one the full notation writes."""
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    assert state.parse_action(text) == state.parse_action(full)
    assert state.action_to_text(state.parse_action(text)) == full


@settings(max_examples=40, deadline=None)
@given(st.integers(-100, 100), st.integers(0, 900), st.integers(-100, 100))
def test_any_move_is_either_legal_or_refused_cleanly(turn1, run, turn2):
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 14, 11, 0, type="San Martin")],
            wind="W",
        )
    )
    before = json.dumps(state.to_json())
    move = Move("Revenge", turn1, run, turn2)
    try:
        state.apply(move)
    except IllegalAction as error:
        assert error.rule and json.dumps(state.to_json()) == before
        return
    check_invariants(state)


def test_offered_moves_reach_the_limits_and_an_enemy_broadside():
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 20, 16, 180, type="San Martin")],
            wind="W",
        )
    )
    moves = [a for a in state.legal_actions() if isinstance(a, Move)]
    assert any(m.run == 800 for m in moves) and {-90, 90} <= {m.turn1 for m in moves}
    from quarterdeck.games.naval_warfare import fire

    revenge = state.ships["Revenge"]
    bearing_moves = 0
    for move in moves:
        trial = state.clone()
        trial.apply(move)
        r, sm = trial.ships["Revenge"], trial.ships["San Martin"]
        if fire.bears(r, "port", sm) or fire.bears(r, "starboard", sm):
            bearing_moves += 1
    assert bearing_moves >= 3 and revenge.x == 1000


def saved_with(**revenge):
    """A saved game in which Revenge's entry is changed as given (None removes a field)."""
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    data = state.to_json()
    entry = data["ships"][0]
    for name, value in revenge.items():
        if value is None:
            del entry[name]
        else:
            entry[name] = value
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"batteries": [{"mount": "port", "kind": "huge", "half": False}]}, "not a battery"),
        ({"batteries": [{"mount": "aloft", "kind": "long", "half": False}]}, "not a battery"),
        ({"crew": -1}, "impossible flotation, crew or masts"),
        ({"masts_lost": 3}, "impossible flotation, crew or masts"),
        ({"flotation": 24}, "impossible flotation, crew or masts"),
        ({"status": "flying"}, "unknown status"),
        ({"moved": None}, "not a ship: KeyError"),
        ({"heading": "90"}, "Revenge: heading must be a whole number"),
        ({"crew": True}, "Revenge: crew must be a whole number"),
    ],
)
def test_a_saved_ship_that_cannot_be_is_refused_naming_what_is_wrong(change, message):
    with pytest.raises(RecordError) as error:
        GAME.state_from_json(saved_with(**change))
    assert message in str(error.value)


def test_a_game_saved_before_boarding_holds_and_gunners_were_kept_loads_with_none():
    again = GAME.state_from_json(saved_with(held_until=None, gunners=None))
    revenge = again.to_json()["ships"][0]
    assert (revenge["held_until"], revenge["gunners"]) == (0, 0)


def test_a_saved_ship_with_no_men_left_or_dismasted_loads():
    again = GAME.state_from_json(saved_with(crew=0, masts_lost=2, flotation=0))
    revenge = again.ships["Revenge"]
    assert (revenge.crew, revenge.masts_lost, revenge.flotation) == (0, 2, 0)


def test_the_saved_view_gives_a_ship_in_inches_with_the_limits_of_her_move():
    """State JSON (state.py): positions, hull and the limits of her move now in inches, as the table
    shows them: Revenge in medium winds runs 1 to 8 inches, turns 90 degrees, not within 45 of the wind."""
    state = to_movement(position([ship("Revenge", "english", 10.5, 12.25, 90), distant_enemy()]))
    revenge = state.to_json()["ships"][0]
    assert (revenge["x"], revenge["y"], revenge["length"], revenge["beam"]) == (10.5, 12.25, 1.0, 0.25)
    assert revenge["limits"] == {"mode": "sail", "turn": 90, "run_max": 8.0, "run_min": 1.0, "wind": 45,
                                 "why": ""}
    assert (revenge["captor"], revenge["prize_crew"], revenge["damage"]) == (-1, 0, 0)  # nobody's prize, undamaged
    assert state.to_json()["table"] == {"width": 72, "height": 36}


def test_the_saved_view_gives_the_land_in_inches():
    """State JSON (state.py): land and shoals where the scenario put them, in inches."""
    rock = {"name": "Eddystone", "kind": "shoal", "points": [[10.5, 12.25], [11.5, 12.25], [11.5, 13], [10.5, 13]]}
    state = position([ship("Revenge", "english", 20, 20, 90), distant_enemy()], land=[rock])
    assert state.to_json()["land"] == [rock]


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("move Revenge to 10.00 10.00 heading 135", Move("Revenge", 45, 0, 0)),
        ("move Revenge to 12.00 10.00 heading 90", Move("Revenge", 0, 200, 0)),
        # a heading given past the compass's ends reads as the compass does
        ("move Revenge to 12.00 10.00 heading 450", Move("Revenge", 0, 200, 0)),
        ("move Revenge to 12.00 10.00 heading -90", Move("Revenge", 0, 200, 180)),
    ],
)
def test_a_move_to_an_end_point_reads_as_turn_run_turn(text, move):
    """Notation (actions.py): "to <x> <y> heading <degrees>" reads as the turns and run that get her there;
    to where she lies, a turn in place with no run."""
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    assert state.parse_action(text) == move


def test_a_move_to_an_end_point_for_a_ship_not_on_the_table_names_the_ship():
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    with pytest.raises(NotationError) as error:
        state.parse_action("move Ark Royal to 12.00 10.00 heading 90")
    assert error.value.field == "ship" and error.value.message == "no ship called 'Ark Royal'"


@pytest.mark.parametrize(("flotation", "damage"), [(18, 0), (17, 1), (12, 1), (11, 2), (6, 2), (5, 3)])
def test_the_damage_thresholds_count_when_reached(flotation, damage):
    """Rule 5 (rulings: reached counts): of Revenge's 23 points, 6 lost is a quarter, 12 a half, 18 three quarters."""
    state = position([ship("Revenge", "english", 10, 10, 90), distant_enemy()])
    state.ships["Revenge"].flotation = flotation
    assert state.to_json()["ships"][0]["damage"] == damage


def test_a_die_is_thrown_only_when_due_and_only_as_one_of_its_results():
    """Every die is a chance outcome (state.py): no throw is taken when a player must decide, none
    outside the die's results, and nobody but chance acts while a die is due."""
    state = position([ship("Revenge", "english", 10, 10, 90), distant_enemy()])
    assert state.legal_actions(0) == [] and len(state.legal_actions()) == 36
    with pytest.raises(IllegalAction) as error:
        state.apply(Roll((7, 1)))
    assert error.value.rule == "dice"
    to_movement(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(Roll((3,)), 0)
    assert error.value.rule == "dice" and error.value.message == "no die is due now"


def test_the_choices_of_one_ship_at_the_end_of_the_move():
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()], options={"prizes": True}))
    state.apply(state.parse_action("move Revenge turn 0 run 1.00 turn 0"))
    state.apply(state.parse_action("move San Martin turn 0 run 1.00 turn 0"))
    assert state.legal_actions(piece="Revenge") == [Choose("surrender", "Revenge")]


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda data: data.update(agenda=[]), "a game in progress needs something due next"),
        (lambda data: data["ships"].pop(), "the ships do not match the scenario"),
        (lambda data: data["ships"][0].update(name="Ark Royal"), "no ship 'Ark Royal' in the scenario"),
    ],
    ids=["nothing due", "a ship missing", "a ship the scenario never had"],
)
def test_a_saved_game_that_cannot_go_on_is_refused(spoil, message):
    data = saved_with()
    spoil(data)
    with pytest.raises(RecordError) as error:
        GAME.state_from_json(data)
    assert message in str(error.value)


@pytest.mark.parametrize(
    "text",
    [
        "move Revenge turn +0 run 1.00 turn +0 board San Martin",
        "move Revenge turn -45 run 2.50 turn +10 heave-to",
        "remove San Martin port half short",
        "jettison San Martin ahead long",
        "pick-up Revenge from Hope",
    ],
)
def test_an_action_reads_back_as_the_text_it_was_written_in(text):
    state = to_movement(position([ship("Revenge", "english", 10, 10, 90), distant_enemy()]))
    assert state.action_to_text(state.parse_action(text)) == text


def test_something_that_is_no_naval_warfare_action_has_no_text():
    state = position([ship("Revenge", "english", 10, 10, 90), distant_enemy()])
    with pytest.raises(NotationError) as error:
        state.action_to_text("fire!")
    assert error.value.field == "action"
