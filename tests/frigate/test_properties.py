"""Properties of random legal play (hypothesis): ships never share a hex unless afoul (or a prize
with the ship that took her), every declared MA is within the chart and momentum, records replay
exactly, and bad input is refused with the rule or field named and nothing changed."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quarterdeck.core.errors import IllegalAction, NotationError, RecordError
from quarterdeck.core.protocol import CHANCE
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.games.frigate import movement
from quarterdeck.games.frigate.actions import (
    Cut,
    Declare,
    Destroy,
    Fire,
    Hold,
    Move,
    Turn,
    action_text,
    parse_action_text,
)

from .helpers import GAME, battle, hold_windows, to_windows
from .helpers import ship as placed

SMALL = ["frigate-duel", "sloop-and-merchantman", "seventy-four-and-two-frigates", "convoy-raid"]
OPTIONS = [{}, {"simove": True}, {"simove": True, "no_wind": True, "wind_table": "optional", "sagging": True,
                                  "nearest_target": True, "preservation": "efficiency"}]


def check_position(state) -> None:
    by_hex: dict = {}
    for ship in state.ship_list:
        if ship.afloat:
            by_hex.setdefault(ship.hex, []).append(ship)
    for ships in by_hex.values():
        assert len(ships) <= 2
        if len(ships) == 2:
            a, b = ships
            afoul = a.afoul == b.name and b.afoul == a.name
            # Seed, Prizes 1-3: a ship taken or retaken by entering her hex, or striking where she lies,
            # shares the hex without running afoul.
            prize = a.captured_turn > 0 or b.captured_turn > 0
            # A ship just cut loose lies in her partner's hex until her first point takes her out.
            parting = a.must_leave or b.must_leave
            assert afoul or prize or parting, f"{a.name} and {b.name} share a hex"
        for ship in ships:
            assert state.grid.contains(ship.hex)


def random_game(scenario: str, options: dict, seed: int, limit: int = 4000):
    state = GAME.new_initial_state(scenario, options, seed)
    rng = random.Random(seed)
    played = 0
    while not state.is_terminal() and played < limit:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance())
            played += 1
            continue
        for seat in state.acting_players():
            action = rng.choice(state.legal_actions(seat))
            if isinstance(action, Declare | Cut):
                ship = state.ships[action.ship]
                assert 0 <= action.ma <= 20
                if isinstance(action, Declare) and not ship.afoul and not ship.prize:
                    low, high, _ = movement.declaration_range(state, ship)
                    assert low <= action.ma <= high and action.ma <= ship.last_ma + 2
                    assert action.ma >= ship.last_ma - 4 or ship.dismasted(state.tables)
            state.apply(action, seat)
            played += 1
            check_position(state)
            if state.is_terminal():
                break
    return state, played


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 100_000), st.sampled_from(SMALL), st.sampled_from(OPTIONS))
def test_random_legal_play_keeps_the_rules(seed, scenario, options):
    state, _ = random_game(scenario, options, seed)
    assert state.is_terminal()
    assert state.turn <= state.scenario.turns


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 100_000), st.sampled_from(SMALL), st.sampled_from(OPTIONS))
def test_records_replay_exactly(seed, scenario, options):
    match = Match(GAME, scenario, options, seed)
    rng = random.Random(seed)
    while not match.state.is_terminal() and len(match.moves) < 600:
        state = match.state
        if state.current_player() == CHANCE:
            match.play(state.sample_chance(), CHANCE)
            continue
        seat = state.acting_players()[0]
        match.play(rng.choice(state.legal_actions(seat)), seat)
    text = match.record().to_text()
    replayed = Record.parse(text).final_state(GAME)
    assert replayed.to_json() == match.state.to_json()
    assert GAME.state_from_json(match.state.to_json()).to_json() == match.state.to_json()


@pytest.mark.parametrize("options", [{}, {"simove": True}])
def test_bad_input_is_refused_and_changes_nothing(options):
    state, _ = random_game("frigate-duel", options, 5, limit=40)
    seat = state.acting_players()[0] if state.current_player() != CHANCE else CHANCE
    before = state.to_json()
    bad_actions = [Move("Nobody"), Turn("Constitution", "port"), Fire("Constitution", "bow", "Guerriere"),
                   Declare("Guerriere", 19), Move("Guerriere")]
    for action in bad_actions:
        with pytest.raises(IllegalAction) as error:
            state.apply(action, seat if seat != CHANCE else None)
        assert error.value.rule
        assert state.to_json() == before
    for text, field in (("declare Constitution lots", "ma"), ("fly Constitution", "verb"), ("move", "arguments"),
                        ("turn Constitution about", "way"), ("fire Constitution abaft Guerriere", "battery"),
                        ("order blue red", "arguments"), ("move Bounty", "ship"), ("roll 1 2 3", "arguments"),
                        ("fire Constitution starboard", "arguments"), ("", "verb"), ("roll", "arguments"),
                        ("end-declare now", "arguments"), ("form van line-ahead", "squadron"),
                        ("form van", "arguments"), ("sail Constitution", "arguments"),
                        ("declare Constitution 6 port now", "arguments"),
                        ("cut Constitution", "arguments"), ("turn Constitution", "arguments"),
                        ("plot Constitution", "arguments"), ("fire Constitution bow Guerriere hull now", "arguments"),
                        ("move Constitution now", "arguments"), ("order blue red red blue blue", "arguments")):
        with pytest.raises(NotationError) as notation:
            state.parse_action(text)
        assert notation.value.field == field
    assert state.to_json() == before


def test_each_refusal_names_the_rule_it_breaks():
    state = battle(placed("Essex", "blue", 44, "1010", "N", 0, **{"class": "frigate"}),
                   placed("Guerriere", "red", 38, "1209", "N", 0, **{"class": "frigate"}),
                   placed("Wasp", "blue", 20, "1015", "N", 4), placed("Lost", "blue", 20, "3020", "N", 0),
                   wind=(3, "moderate"))
    state.ships["Lost"].status = "sunk"
    declaring = [(Move("Nobody"), "ship"), (Declare("Guerriere", 0), "ownership"), (Declare("Lost", 0), "ship"),
                 (Move("Essex"), "sequence-of-play"), (Hold("Essex"), "sequence-of-play"),
                 (Cut("Wasp", 1), "cutting-loose"), (Destroy("Essex"), "destroying-prizes")]
    to_refuse(state, 0, declaring)
    state.apply(Declare("Essex", 0), 0)
    to_refuse(state, 0, [(Declare("Essex", 1), "declaration"), (Cut("Essex", 1), "declaration")])
    to_windows(state, Wasp=4, Guerriere=0)
    assert state.windows[0] == "Essex"
    to_refuse(state, 0, [(Move("Wasp"), "fire-window"), (Fire("Essex", "starboard", "Nobody", "hull"), "target"),
                         (Fire("Essex", "starboard", "Guerriere", "sails"), "aim"),
                         (Fire("Essex", "starboard", "Guerriere"), "aim"),
                         (Fire("Essex", "port", "Guerriere", "hull"), "field-of-fire")])
    hold_windows(state)
    to_refuse(state, 0, [(Hold("Wasp"), "fire-window"), (Turn("Essex", "port"), "movement-points"),
                         (Move("Essex"), "movement-points")])


def to_refuse(state, seat, refusals):
    """Each action is refused with its rule named, and the position is unchanged."""
    before = state.to_json()
    for action, rule in refusals:
        with pytest.raises(IllegalAction) as error:
            state.apply(action, seat)
        assert error.value.rule == rule, action
    assert state.to_json() == before


@pytest.mark.parametrize(("spoil", "said"), [(lambda saved: saved.update(game="pirate_chess"), "pirate_chess"),
                                             (lambda saved: saved["forces"].pop(), "not a saved Frigate state")],
                         ids=["another-game", "a-force-missing"])
def test_a_saved_state_of_another_game_or_spoilt_is_refused(spoil, said):
    saved = GAME.new_initial_state("frigate-duel", seed=1).to_json()
    spoil(saved)
    with pytest.raises(RecordError) as error:
        GAME.state_from_json(saved)
    assert said in str(error.value)


def test_every_verb_of_the_notation_reads_back_as_the_same_action():
    """The notation of actions.py, verb by verb: each text reads as one action, writes back as the same
    text, and reads twice as equal actions that serve as one key (as the agents' search trees use them)."""
    texts = ["roll 3 5", "roll 4", "sail Essex fighting", "declare Essex 6", "declare Essex 0 port", "cut Essex 2",
             "strike Essex", "destroy Java", "form van line-abreast", "end-declare", "order blue red red blue",
             "move Essex", "turn Essex port", "stand Essex", "plot Essex ahead", "fire Essex starboard Java hull",
             "fire Essex bow Java", "hold Essex", "pass Essex", "melee Essex"]
    ships = {"essex": "Essex", "java": "Java"}
    actions = {parse_action_text(text, ships, ("van",)): text for text in texts}
    assert len(actions) == len(texts)
    assert all(action_text(action) == text and parse_action_text(text, ships, ("van",)) in actions
               for action, text in actions.items())


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("fire Royal Sovereign port santa ana hull", "fire Royal_Sovereign port Santa_Ana hull"),
        ("strike SANTA ANA", "strike Santa_Ana"),
        ("move Royal_Sovereign", "move Royal_Sovereign"),
    ],
)
def test_a_name_typed_as_the_map_shows_it_with_spaces_reads_as_the_ship(text, written):
    ships = {"royal_sovereign": "Royal_Sovereign", "santa_ana": "Santa_Ana", "santa": "Santa"}
    assert action_text(parse_action_text(text, ships)) == written


def test_a_name_typed_with_spaces_that_no_ship_has_is_refused_as_words_too_many():
    with pytest.raises(NotationError) as error:
        parse_action_text("strike Royal Navy", {"royal_sovereign": "Royal_Sovereign"})
    assert error.value.field == "arguments"  # "Royal Navy" is two words, as no ship's name is
    assert error.value.message == "strike takes 1 word after it (2 given)"


@pytest.mark.parametrize(("text", "message"), [("move Essex 2", "move takes 1 word after it (2 given)"),
                                               ("fire Essex", "fire takes 3 to 4 words after it (1 given)"),
                                               ("order blue", "order takes 4 words after it (1 given)")])
def test_a_verb_with_words_missing_or_too_many_says_how_many_it_takes(text, message):
    with pytest.raises(NotationError) as error:
        parse_action_text(text, {"essex": "Essex"})
    assert error.value.field == "arguments" and error.value.message == message


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 100_000))
def test_notation_round_trips_for_every_legal_action(seed):
    state = GAME.new_initial_state("convoy-raid", {"simove": bool(seed % 2)}, seed)
    rng = random.Random(seed)
    for _ in range(300):
        if state.is_terminal():
            break
        seats = [CHANCE] if state.current_player() == CHANCE else state.acting_players()
        for seat in seats:
            actions = state.legal_actions(seat)
            for action in actions:
                assert state.parse_action(state.action_to_text(action)) == action
            state.apply(rng.choice(actions), seat)
