"""Square Rigger knowledge for the agents: the cheap `candidates` hook that ranks moves without the
full evaluation, so that a search of a fleet battle spends its time searching rather than ranking."""

from __future__ import annotations

from quarterdeck.ai import make_agent
from quarterdeck.ai.knowledge import Knowledge
from quarterdeck.core.geometry import Compass
from quarterdeck.games.square_rigger import evaluate
from quarterdeck.games.square_rigger.actions import EndDefence, EndMove, MoveShip

from ..square_rigger.helpers import GAME, play, position


def duel_at_close_range():
    return position(
        [("Bellona", "blue", "third", "c3", "N"), ("Achille", "red", "third", "f5", "N")],
        size=(10, 10),
    )


def test_square_rigger_provides_a_candidates_hook():
    assert Knowledge.of(GAME).candidates_hook is evaluate.candidates


def test_a_broadside_bearing_on_the_enemy_scores_above_an_empty_sea():
    state = duel_at_close_range()
    grid = state.setup.grid
    # On f3 heading N, Achille on f5 lies dead ahead (bow-chasers only); on e5 heading N she lies
    # abeam at one square: the full broadside bears.
    abeam = evaluate.move_score(state, "Bellona", grid.parse("e5"), Compass.N)
    away = evaluate.move_score(state, "Bellona", grid.parse("a1"), Compass.S)
    assert abeam > away
    assert abeam > 0


def test_candidates_keep_a_few_moves_per_ship_and_end_move():
    state = GAME.new_initial_state("fleet-battle")
    player = state.current_player()
    actions = state.legal_actions(player)
    ranked = evaluate.candidates(state, player, actions)
    assert ranked and set(ranked) <= set(actions)
    assert any(isinstance(action, EndMove) for action in ranked)
    per_ship: dict[str, int] = {}
    for action in ranked:
        if isinstance(action, MoveShip):
            per_ship[action.ship] = per_ship.get(action.ship, 0) + 1
    assert max(per_ship.values()) <= evaluate.MOVES_PER_SHIP
    movers = {action.ship for action in actions if isinstance(action, MoveShip)}
    assert set(per_ship) == movers  # every ship keeps options
    first = ranked[: len(movers)]
    assert len({action.ship for action in first}) == len(movers)  # each ship's best move comes first


def test_candidates_put_the_optimal_defence_first():
    state = duel_at_close_range()
    play(state, "move Bellona e5 N", "end-move")
    assert state.phase == "fire"
    fire = state.legal_actions(state.current_player())
    ranked = evaluate.candidates(state, state.current_player(), fire)
    assert set(ranked) == set(fire)
    while state.phase == "fire":  # the best fire first, until the end-fire ranks first
        state.apply(evaluate.candidates(state, state.current_player(), state.legal_actions(state.current_player()))[0])
    assert state.phase == "defence"
    defender = state.current_player()
    ranked = evaluate.candidates(state, defender, state.legal_actions(defender))
    best = evaluate.optimal_defence(state)
    assert best and ranked[0] == best[0]
    assert EndDefence() in ranked


def test_mcts_plays_the_fleet_battle_with_the_hook():
    state = GAME.new_initial_state("fleet-battle")
    agent = make_agent("mcts:iterations=30", seed=2)
    player = state.current_player()
    action = agent.act(state, player)
    assert action in state.legal_actions(player)


def pass_turn(state) -> None:
    """The side to move lets its turn go by: no move, no fire (and the other side defends nothing)."""
    side = state.side_name
    while state.side_name == side and not state.is_terminal():
        seat = state.current_player()
        state.apply(next(a for a in state.legal_actions(seat) if state.text_of(a).startswith("end-")), seat)


def test_a_captain_plays_on_rather_than_let_the_position_repeat_a_third_time():
    """Two ships that have each let a turn go by: once more each, and the repetition draws the game. The
    levels count a draw as half a hit lost (the game's contempt), so Bellona sails; content with
    the draw, the same search lets the turn go by again."""
    state = position(
        [("Bellona", "blue", "third", "f4", "SW"), ("Achille", "red", "third", "d6", "SW")], size=(10, 10)
    )
    pass_turn(state)
    pass_turn(state)
    assert max(state.seen.values()) == 2 and state.side_name == "blue" and state.phase == "move"
    player = state.current_player()
    assert isinstance(make_agent("ai:3:budget=iterations", seed=1).act(state, player), MoveShip)
    assert make_agent("ai:3:budget=iterations,contempt=0", seed=1).act(state, player) == EndMove()


def crippled_amazon_under_hortenses_broadside():
    """Red to fire: Amazon lies a square off Hortense's starboard beam at F0 S0 T1 (she can neither
    fire nor sail), Semillante is down to F1 S1 T1 a square from Phoebe."""
    state = position(
        [("Amazon", "blue", "frigate", "j4", "N"), ("Phoebe", "blue", "frigate", "g5", "NE"),
         ("Hortense", "red", "frigate", "k4", "S"), ("Semillante", "red", "frigate", "f6", "SW")],
        size=(12, 10), wind="NW",
    )
    state.hits["Amazon"] = 6
    state.hits["Semillante"] = 4
    play(state, "end-move", "end-fire", "end-move")
    assert state.phase == "fire" and state.side_name == "red"
    return state


def test_a_struck_enemy_counts_for_more_than_her_last_factor():
    """Only striking scores (points at the turn limit, the strike and annihilation conditions): the
    last hit on a ship is worth her banked value as well as the factor it takes."""
    state = crippled_amazon_under_hortenses_broadside()
    red = state.current_player()
    before = evaluate.evaluate(state, red)
    state.hits["Amazon"] = 7
    assert state.is_struck("Amazon")
    assert evaluate.evaluate(state, red) - before > 1 + 0.25 * state.setup.ships["Amazon"].value


def test_the_captains_strike_a_crippled_enemy_rather_than_leave_her_be():
    """In the ladder ai:4 sat beside such an Amazon turn after turn until the position repeated a third
    time (a draw): its search saw a seventh of a frigate in the last hit and lost sight of it behind
    Phoebe's reply. Each level's fire phase here strikes her."""
    for level in (2, 3, 4):
        state = crippled_amazon_under_hortenses_broadside()
        agent = make_agent(f"ai:{level}:budget=iterations", seed=1)
        while state.phase == "fire":
            seat = state.current_player()
            state.apply(agent.act(state, seat), seat)
        state.apply(EndDefence(), state.current_player())
        assert state.is_struck("Amazon"), f"ai:{level}"
