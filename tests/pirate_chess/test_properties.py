"""Property tests: random legal play never breaks an invariant, and everything round-trips."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Upgraded
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.games.pirate_chess.actions import CAPTURE, END, SINK, Anchor, Move, Place
from quarterdeck.games.pirate_chess.movement import Recommissioned
from quarterdeck.games.pirate_chess.scenario import FLEET, UPGRADE_KINDS, ship_kind
from quarterdeck.games.pirate_chess.state import PirateChessState

from .helpers import GAME

SETTINGS = settings(max_examples=40, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
sizes = st.sampled_from([6, 8, 10])


def random_play(seed: int, size: int, limit: int = 10_000) -> Iterator[tuple[PirateChessState, list]]:
    """(state, events of the last action) after each random legal action, until the game ends."""
    rng = random.Random(seed)
    state = GAME.new_initial_state("standard", {"size": size})
    for _ in range(limit):
        if state.is_terminal():
            return
        events = state.apply(rng.choice(state.legal_actions()), validate=False)
        yield state, events


def check_invariants(state: PirateChessState, new_ships: list[int]) -> None:
    occupied = [square for square, occupant in enumerate(state.board) if occupant is not None]
    on_board = 0
    for fleet in range(2):
        ships, lost = state.ships[fleet], state.lost[fleet]
        for ship_id, ship in ships.items():
            assert ship.kind == ship_kind(ship_id)
            if ship.square < 0:
                assert not ship.anchored and ship_id in FLEET  # only original ships wait in reserve
            else:
                on_board += 1
                assert state.board[ship.square] == (fleet, ship_id)  # one ship per square
                assert not (ship.anchored and ship.kind == "Pirate")
        # reserve + board + lost add up: the eight originals plus every prize and upgrade
        assert not set(ships) & set(lost)
        assert len(ships) + len(lost) == len(FLEET) + new_ships[fleet]
        assert set(FLEET) <= set(ships) | set(lost)
        assert all(0 <= used <= 2 for used in state.upgrades[fleet].values())
    assert on_board == len(occupied)


@SETTINGS
@given(seed=seeds, size=sizes)
def test_random_legal_play_never_breaks_an_invariant(seed, size):
    new_ships = [0, 0]
    for state, events in random_play(seed, size):
        for event in events:
            if isinstance(event, Recommissioned):
                new_ships[state.players.index(event.name.split()[0])] += 1
            elif isinstance(event, Upgraded):
                new_ships[state.players.index(event.into.split()[0])] += 1
        check_invariants(state, new_ships)
        if not state.is_terminal():
            assert state.legal_actions(), "a player to act always has a legal action"


@SETTINGS
@given(seed=seeds, size=sizes)
def test_json_round_trip_during_random_play(seed, size):
    for step, (state, _) in enumerate(random_play(seed, size)):
        if step % 7:
            continue
        data = state.to_json()
        copy = GAME.state_from_json(data)
        assert copy.to_json() == data
        assert copy.legal_actions() == state.legal_actions()
        assert copy.position_key() == state.position_key()


@settings(max_examples=30, deadline=None)
@given(seed=seeds, size=sizes)
def test_notation_round_trip_for_every_legal_action(seed, size):
    for step, (state, _) in enumerate(random_play(seed, size)):
        if step % 23:
            continue
        for action in state.legal_actions():
            text = state.action_to_text(action)
            assert state.parse_action(text) == action, text


@settings(max_examples=25, deadline=None)
@given(seed=seeds, size=sizes)
def test_match_record_replays_to_the_same_state(seed, size):
    rng = random.Random(seed)
    match = Match(GAME, "standard", {"size": size}, seed=seed, players={"blue": "random", "red": "random"})
    while not match.state.is_terminal():
        match.play(rng.choice(match.state.legal_actions()))
    text = match.record().to_text()
    replayed = Record.parse(text).final_state(GAME)
    assert replayed.to_json() == match.state.to_json()
    assert Record.parse(text).result == match.state.outcome.result


def candidate_actions(state: PirateChessState, rng: random.Random, count: int) -> list:
    """Random actions of every kind, mostly illegal: real and made-up ids, any squares and choices."""
    ids = [*state.ships[0], *state.ships[1], *state.lost[0], "Frigate7", "Dhow"]
    squares = range(len(state.board))
    attacks, upgrades = ("", SINK, CAPTURE), ("", *UPGRADE_KINDS)
    makers = [
        lambda: Place(rng.choice(ids), rng.choice(squares), rng.choice(upgrades)),
        lambda: Move(
            rng.choice(ids), rng.choice(squares), rng.choice(squares), rng.choice(attacks), rng.choice(upgrades)
        ),
        lambda: Anchor(rng.choice(ids), rng.random() < 0.5),
        lambda: END,
    ]
    candidates = [rng.choice(makers)() for _ in range(count)]
    # moves from the ships' real squares are the interesting near misses
    for ship_id, ship in state.ships[state.to_move].items():
        if ship.square >= 0:
            candidates.append(Move(ship_id, ship.square, rng.choice(squares), rng.choice(attacks)))
    return candidates


@settings(max_examples=30, deadline=None)
@given(seed=seeds, size=sizes)
def test_illegal_actions_leave_the_state_unchanged_and_legal_ones_validate(seed, size):
    rng = random.Random(seed)
    for step, (state, _) in enumerate(random_play(seed, size)):
        if step % 11 or state.is_terminal():
            continue
        legal = set(state.legal_actions())
        before = state.to_json()
        for action in candidate_actions(state, rng, 25):
            if action in legal:
                state.clone().apply(action)  # the validator accepts what the generator lists
                continue
            try:
                state.apply(action)
            except IllegalAction as error:
                assert error.rule and error.rule != "action"
            else:
                raise AssertionError(f"illegal {state.action_to_text(action)} was applied")
            assert state.to_json() == before


def test_positions_with_one_key_offer_the_same_moves():
    """The searches remember candidates by position key (`exact_keys`), so a key must tell apart
    positions whose moves differ: two Frigates may carry either name, and the moves name the ship."""
    frigate_on_a1 = GAME.layout({"a1": "blue Frigate", "c3": "blue Frigate", "h8": "red Dhow anchored"})
    frigate_on_c3 = GAME.layout({"c3": "blue Frigate", "a1": "blue Frigate", "h8": "red Dhow anchored"})
    assert frigate_on_a1.legal_actions() != frigate_on_c3.legal_actions()
    assert frigate_on_a1.position_key() != frigate_on_c3.position_key()
    assert frigate_on_a1.repetition_key() == frigate_on_c3.repetition_key()  # the same position to the rules
    again = GAME.layout({"a1": "blue Frigate", "c3": "blue Frigate", "h8": "red Dhow anchored"})
    assert again.position_key() == frigate_on_a1.position_key()


def test_the_position_key_tells_apart_what_the_evaluation_and_the_moves_read():
    """The searches reuse an evaluation and a move list by key (`exact_keys`): positions that differ
    only in a reserve ship, an upgrade spent, the turns played, the quiet-turn count or the actions
    already made this turn score or move differently, and must not share a key."""
    ships = {"a1": "blue Pirate", "c3": "blue Frigate", "h8": "red Dhow anchored", "e5": "red Junk"}
    plain = GAME.layout(ships)
    variants = {
        "a reserve ship": GAME.layout(ships, reserves={"blue": ["Brig"]}),
        "an upgrade spent": GAME.layout(ships, upgrades_used={"blue": {"Frigate": 1}}),
    }
    opening = plain.clone()  # blue still has an opening turn to play: a placement is due
    opening.turns_played = (plain.turns_played[0] - 1, plain.turns_played[1])
    variants["the turns played"] = opening
    quieter = plain.clone()
    quieter.quiet_turns += 1
    variants["the quiet turns"] = quieter
    moved = plain.clone()  # the fleet action made, the anchor action still to come
    moved.fleet_done = True
    variants["the fleet action made"] = moved
    weighed = plain.clone()  # the anchor action made: a ship weighed
    weighed.anchor_done = True
    variants["the anchor action made"] = weighed
    for what, other in variants.items():
        assert other.position_key() != plain.position_key(), what
    anchored = weighed.clone()  # a ship anchored this turn is no base for an upgrade yet
    anchored.anchored_now = "Dhow"
    assert anchored.position_key() != weighed.position_key()
    assert GAME.layout(ships).position_key() == plain.position_key()
