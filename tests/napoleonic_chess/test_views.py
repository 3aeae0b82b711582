"""The terminal view, the evaluation hook and the generic agents playing through the protocol."""

from __future__ import annotations

from rich.console import Console

from quarterdeck.ai.agents import GreedyAgent, RandomAgent
from quarterdeck.games.napoleonic_chess.actions import EndPhase, Move, Support

from .helpers import BLACK, GAME, GUARDS, RED, battle, play


def render(renderable) -> str:
    console = Console(width=100, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_terminal_board_shows_units_terrain_and_files():
    view = GAME.hook("terminal_view")
    state = GAME.new_initial_state("terrain")
    text = render(view.board(state))
    assert "Ar" in text and "Ca" in text and "Gd" in text and "In" in text
    assert " a   b   c " in text
    assert "━━━" in text  # the stream's edges


def test_terminal_board_highlights_the_selected_unit_and_its_targets():
    view = GAME.hook("terminal_view")
    state = GAME.new_initial_state()
    actions = state.legal_actions(piece="red-cavalry-1")
    plain = render(view.board(state))
    assert render(view.board(state, selected="red-cavalry-1", targets=actions)) == plain  # only colours change

    def styled(*args) -> str:
        console = Console(width=100, record=True, color_system="truecolor")
        console.print(view.board(state, *args))
        return console.export_text(styles=True)

    assert styled("red-cavalry-1", actions) != styled()
    assert styled("b2", [a.destination for a in actions if isinstance(a, Move)]) == styled("red-cavalry-1", actions)


def test_terminal_status_gives_each_targets_attack_against_its_defence():
    view = GAME.hook("terminal_view")
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "d6": "black infantry"})
    play(state, "end-move", "attack d4xd5")
    text = render(view.status(state))
    assert "black to support" in text
    assert "attack 2 against defence 1" in text and "falls" in text


def test_terminal_destination_and_shortcuts():
    view = GAME.hook("terminal_view")
    state = battle(
        {
            **GUARDS,
            "d4": "red artillery",
            "e4": "red artillery",
            "d5": "black infantry",
            "e5": "black infantry",
            "e6": "black guards",
            "d6": "black infantry",
        }
    )
    assert view.destination(state, Move((3, 3), (3, 2))) == "d3"
    assert view.destination(state, EndPhase("move")) is None
    assert view.shortcuts(state, RED) == {}
    play(state, "end-move", "attack d4xd5", "attack e4xe5")
    defence = view.shortcuts(state, BLACK)["best-defence"]
    assert sorted(defence, key=lambda s: s.supporter) == [Support((3, 5), (3, 4)), Support((4, 5), (4, 4))]


def test_evaluation_prefers_material_and_a_won_game():
    evaluate = GAME.hook("evaluate")
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry"})
    even = evaluate(state, RED)
    play(state, "end-move", "attack d4xd5")
    assert evaluate(state, RED) > even
    assert evaluate(state, BLACK) == -evaluate(state, RED)
    won = battle({"a1": "red guards", "e4": "red artillery", "d5": "red artillery", "e5": "black guards"})
    play(won, "end-move", "attack e4xe5", "attack d5xe5")
    assert evaluate(won, RED) == 1000.0 and evaluate(won, BLACK) == -1000.0


def test_greedy_agent_declares_a_winning_attack():
    state = battle({"a1": "red guards", "e4": "red artillery", "d5": "red artillery", "e5": "black guards"})
    play(state, "end-move")
    agent = GreedyAgent(seed=1)
    while not state.is_terminal() and state.current_player() == RED:
        state.apply(agent.act(state, RED), RED)
    assert state.outcome.result == "red"


def test_generic_agents_play_every_scenario_through_the_protocol():
    # Greedy against random in every scenario: each pick is one of the acting army's legal actions,
    # and sixty of them take the battle past its deployment into the manoeuvring (or to its end).
    for info in GAME.scenarios():
        state = GAME.new_initial_state(info.name)
        agents = {p: (GreedyAgent if p == 0 else RandomAgent)(seed=p) for p in range(len(state.players))}
        phases = set()
        for _ in range(60):
            if state.is_terminal():
                break
            player = state.acting_players()[0]
            action = agents[player].act(state, player)
            assert action in state.legal_actions(player), info.name
            state.apply(action, player)
            phases.add(state.phase)
        assert state.is_terminal() or "move" in phases, (info.name, phases)


def test_terminal_board_shows_only_the_viewers_own_secret_plan():
    view = GAME.hook("terminal_view")
    state = GAME.new_initial_state("attack-at-dawn")
    play(state, "place guards e2", player=RED)
    play(state, "place guards e7", player=BLACK)
    assert "gd" not in render(view.board(state))  # the full state: nobody's plan
    red_view, black_view = (render(view.board(state.observe(p))) for p in (RED, BLACK))
    assert red_view.count("gd") == black_view.count("gd") == 1
    assert red_view != black_view  # each sees its own Guards, on its own ranks


def test_greedy_agents_deploy_in_secret_and_fight():
    state = GAME.new_initial_state("attack-at-dawn")
    agents = [GreedyAgent(seed=0), GreedyAgent(seed=1)]
    while state.phase == "secret-deployment":
        for player in state.acting_players():
            state.apply(agents[player].act(state, player), player)
    assert len(state.board) == 30 and state.phase == "move"
