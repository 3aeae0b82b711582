"""More than two armies: turn order, alliances, allied supports and attacks, routs and victory."""

from __future__ import annotations

from quarterdeck.core.events import Eliminated, GameOver, Survived

from .helpers import GAME, battle, events_of, legal_texts, play

ARMIES = [
    {"name": "red", "alliance": "coalition"},
    {"name": "blue", "alliance": "coalition"},
    {"name": "black", "alliance": "empire"},
]
RED, BLUE, BLACK = 0, 1, 2
TURN_ORDER = ["red", "black", "blue"]


def coalition_battle(layout: dict[str, str], **options) -> object:
    return battle(layout, options=options or None, armies=ARMIES, turn_order=TURN_ORDER)


def test_three_armies_scenario():
    state = GAME.new_initial_state("three-armies")
    assert state.players == ("red", "blue", "black")
    assert [state.team_of(p) for p in range(3)] == ["coalition", "coalition", "empire"]
    guards = [unit for unit in state.board.values() if unit.kind.guard and unit.army == BLACK]
    assert len(guards) == 2


def test_armies_take_turns_in_the_scenarios_order():
    state = coalition_battle({"a1": "red guards", "h1": "blue guards", "h8": "black guards"})
    seen = []
    for _ in range(6):
        seen.append(state.current_player())
        play(state, "end-move")
    assert seen == [RED, BLACK, BLUE] * 2


def test_allied_units_support_each_others_defence():
    state = coalition_battle(
        {
            "a1": "red guards",
            "h1": "blue guards",
            "h8": "black guards",
            "d6": "black artillery",
            "d5": "blue infantry",
            "d4": "blue infantry",
            "c5": "red infantry",
        }
    )
    play(state, "end-move", player=RED)
    play(state, "end-attack", player=BLUE)  # blue's d5 could have joined in against d6
    play(state, "end-move", "attack d6xd5", player=BLACK)
    assert state.acting_players() == [BLUE]  # defenders support in turn order after the attacker
    play(state, "support d4>d5", player=BLUE)
    assert legal_texts(state, RED) == ["support c5>d5", "end-support"]
    events = play(state, "support c5>d5", player=RED)
    survived = events_of(events, Survived)[0]
    assert (survived.attack, survived.defence) == (2, 3)


def test_allies_may_join_an_attack_without_moving_but_only_the_attacker_advances():
    state = coalition_battle(
        {
            "a1": "red guards",
            "h1": "blue guards",
            "h8": "black guards",
            "d4": "red artillery",
            "d5": "black infantry",
            "d6": "black infantry",
            "c5": "blue infantry",
        }
    )
    play(state, "end-move", "attack d4xd5", player=RED)
    assert state.acting_players() == [BLUE] and state.phase == "attack"
    assert legal_texts(state) == ["attack c5xd5", "end-attack"]
    play(state, "attack c5xd5", player=BLUE)
    events = play(state, "support d6>d5", player=BLACK)
    fallen = events_of(events, Eliminated)[0]
    assert (fallen.attack, fallen.defence) == (3, 2)
    assert legal_texts(state, RED) == ["advance d4>d5", "end-advance"]


def test_allied_attacks_can_be_switched_off():
    state = coalition_battle(
        {
            "a1": "red guards",
            "h1": "blue guards",
            "h8": "black guards",
            "d4": "red artillery",
            "d5": "black infantry",
            "c5": "blue infantry",
        },
        allied_attacks=False,
    )
    play(state, "end-move", "attack d4xd5", player=RED)
    assert state.phase == "advance" and state.acting_players() == [RED]


def test_an_army_whose_guards_fall_leaves_the_field_and_its_allies_fight_on():
    state = coalition_battle(
        {
            "d3": "red guards",
            "a5": "red infantry",
            "h1": "blue guards",
            "h8": "black guards",
            "d4": "black artillery",
            "c3": "black artillery",
        }
    )
    play(state, "end-move", "end-attack", player=RED)
    events = play(state, "end-move", "attack d4xd3", "attack c3xd3", player=BLACK)
    routed = [e.piece for e in events_of(events, Eliminated)]
    assert routed == ["red-guards-1", "red-infantry-1"]
    assert not state.is_terminal()
    assert all(unit.army != RED for unit in state.board.values())
    play(state, "end-advance", player=BLACK)
    assert state.current_player() == BLUE
    play(state, "end-move", player=BLUE)
    assert state.current_player() == BLACK  # red has no more turns


def test_victory_goes_to_the_alliance_that_eliminates_every_enemy_guards():
    state = coalition_battle(
        {
            "d3": "red guards",
            "f3": "blue guards",
            "h8": "black guards",
            "d4": "black artillery",
            "c3": "black artillery",
            "f4": "black artillery",
            "g3": "black artillery",
        }
    )
    play(state, "end-move", "end-attack", player=RED)
    play(state, "end-attack", player=BLUE)
    events = play(state, "end-move", "attack d4xd3", "attack c3xd3", "attack f4xf3", "attack g3xf3", player=BLACK)
    over = events_of(events, GameOver)[0]
    assert over.result == "empire"
    assert state.returns() == [-1.0, -1.0, 1.0]


def test_resigning_army_loses_with_its_alliance():
    state = GAME.new_initial_state("three-armies")
    state.apply(state.text_to_action("resign blue"))
    assert state.outcome.result == "empire"
    assert state.returns() == [-1.0, -1.0, 1.0]
