"""Attacks, defensive supports, simultaneous resolution, the advance and victory."""

from __future__ import annotations

import pytest

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Attacked, Eliminated, GameOver, Moved, Supported, Survived

from .helpers import BLACK, GUARDS, RED, battle, events_of, legal_texts, play

# The rule book's "Example of a complex attack": Red's artillery (d5) and cavalry (e5) attack the
# Black artillery (d6), which three Black infantry support orthogonally (c6, e6 and d7 behind).
COMPLEX_ATTACK = {
    **GUARDS,
    "d5": "red artillery",
    "e5": "red cavalry",
    "c5": "red infantry",
    "f5": "red cavalry",
    "d6": "black artillery",
    "c6": "black infantry",
    "e6": "black infantry",
    "d7": "black infantry",
}


def rule_of(state, text: str, player: int | None = None) -> str:
    with pytest.raises(IllegalAction) as error:
        play(state, text, player=player)
    return error.value.rule


def fate(events, square: str):
    """The Eliminated or Survived event of the unit on `square`."""
    return next(e for e in events if isinstance(e, Eliminated | Survived) and e.square == square)


def test_complex_attack_example_the_artillery_falls_when_its_flank_supporters_are_attacked():
    state = battle(COMPLEX_ATTACK)
    play(state, "end-move", "attack d5xd6", "attack e5xd6", "attack c5xc6", "attack f5xe6")
    assert state.current_player() == BLACK and state.phase == "support"
    assert legal_texts(state) == ["support d7>d6", "end-support"]
    assert rule_of(state, "support c6>d6") == "under-attack-cannot-support"
    assert rule_of(state, "support e6>d6") == "under-attack-cannot-support"
    events = play(state, "support d7>d6")
    artillery = fate(events, "d6")
    assert isinstance(artillery, Eliminated)
    assert (artillery.attack, artillery.defence) == (3, 2)
    assert isinstance(fate(events, "c6"), Survived) and isinstance(fate(events, "e6"), Survived)
    # "Red then has the option of immediately moving either the attacking Red Cavalry unit or the
    # Red Artillery into the vacated space."
    assert state.current_player() == RED and state.phase == "advance"
    assert legal_texts(state) == ["advance d5>d6", "advance e5>d6", "end-advance"]


def test_complex_attack_example_without_the_flank_attacks_the_artillery_survives():
    state = battle(COMPLEX_ATTACK)
    play(state, "end-move", "attack d5xd6", "attack e5xd6", "end-attack")
    assert set(legal_texts(state)) == {"support c6>d6", "support e6>d6", "support d7>d6", "end-support"}
    events = play(state, "support c6>d6", "support e6>d6", "support d7>d6")
    artillery = fate(events, "d6")
    assert isinstance(artillery, Survived)
    assert (artillery.attack, artillery.defence) == (3, 4)
    assert state.current_player() == BLACK and state.phase == "move"


def test_attacks_add_up_against_one_target():
    state = battle(
        {**GUARDS, "d4": "red infantry", "c4": "red cavalry", "d5": "black infantry", "d6": "black infantry"}
    )
    play(state, "end-move", "attack d4xd5", "attack c4xd5")
    events = play(state, "support d6>d5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 2)
    assert isinstance(fate(events, "d5"), Survived)


def test_infantry_attacks_orthogonally_with_1():
    state = battle({**GUARDS, "d4": "red infantry", "d5": "black infantry", "e5": "black infantry"})
    play(state, "end-move")
    assert rule_of(state, "attack d4xe5") == "attack-direction"
    events = play(state, "attack d4xd5")
    assert events_of(events, Attacked)[0].value == 1


def test_cavalry_attacks_diagonally_with_1():
    state = battle({**GUARDS, "d4": "red cavalry", "d5": "black infantry", "e5": "black infantry"})
    play(state, "end-move")
    assert rule_of(state, "attack d4xd5") == "attack-direction"
    events = play(state, "attack d4xe5", "end-support")
    assert isinstance(fate(events, "e5"), Survived)
    assert events_of(events, Attacked)[0].value == 1


def test_artillery_attacks_orthogonally_with_2():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "e5": "black infantry"})
    play(state, "end-move")
    assert rule_of(state, "attack d4xe5") == "attack-direction"
    events = play(state, "attack d4xd5", "end-support")
    assert events_of(events, Attacked)[0].value == 2
    assert isinstance(fate(events, "d5"), Eliminated)


def test_guards_attack_in_any_direction_and_defend_with_2():
    state = battle({"d4": "red guards", "e5": "black guards", "d6": "red artillery"})
    play(state, "end-move")
    assert set(legal_texts(state)) == {"attack d4xe5", "end-attack"}
    events = play(state, "attack d4xe5")
    assert (fate(events, "e5").attack, fate(events, "e5").defence) == (1, 2)


def test_two_attacks_of_2_eliminate_the_guards_and_win():
    state = battle({"a1": "red guards", "e4": "red artillery", "d5": "red artillery", "e5": "black guards"})
    play(state, "end-move", "attack e4xe5")
    events = play(state, "attack d5xe5")
    assert isinstance(fate(events, "e5"), Eliminated)
    over = events_of(events, GameOver)[0]
    assert over.result == "red"
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []


def test_each_unit_attacks_at_most_once_per_turn():
    state = battle({**GUARDS, "d4": "red guards", "c4": "red infantry", "d5": "black infantry", "c5": "black infantry"})
    play(state, "end-move", "attack d4xd5")
    assert rule_of(state, "attack d4xc5") == "one-attack-per-turn"
    assert legal_texts(state) == ["attack c4xc5", "end-attack"]


def test_only_enemies_may_be_attacked():
    state = battle({**GUARDS, "d4": "red infantry", "d5": "red infantry", "e4": "black infantry"})
    play(state, "end-move")
    assert rule_of(state, "attack d4xd5") == "attack-target"
    assert rule_of(state, "attack d4xd6") == "attack-target"


def test_an_attack_is_declared_after_movement_and_the_unit_that_moved_may_attack():
    state = battle({**GUARDS, "d3": "red infantry", "d5": "black infantry"})
    play(state, "move d3-d4", "end-move")
    assert state.phase == "attack"
    events = play(state, "attack d4xd5")
    assert isinstance(fate(events, "d5"), Survived)


def test_supports_follow_the_supporters_directions():
    state = battle(
        {
            **GUARDS,
            "d4": "red artillery",
            "d5": "black infantry",
            "c6": "black cavalry",
            "d6": "black infantry",
            "e5": "black cavalry",
            "e6": "black infantry",
        }
    )
    play(state, "end-move", "attack d4xd5")
    assert set(legal_texts(state)) == {"support c6>d5", "support d6>d5", "end-support"}
    assert rule_of(state, "support e5>d5") == "support-direction"
    assert rule_of(state, "support e6>d5") == "support-direction"


def test_support_goes_only_to_an_attacked_friendly_unit():
    state = battle(
        {
            **GUARDS,
            "d4": "red artillery",
            "d5": "black infantry",
            "d6": "black infantry",
            "e6": "black infantry",
            "c4": "red infantry",
        }
    )
    play(state, "end-move", "attack d4xd5")
    assert rule_of(state, "support e6>d6") == "support-target"
    assert rule_of(state, "support d5>c4") == "under-attack-cannot-support"
    events = play(state, "support d6>d5")
    assert events_of(events, Supported)[0].value == 1
    assert isinstance(fate(events, "d5"), Survived)


def test_each_unit_supports_at_most_once_per_turn():
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
    play(state, "end-move", "attack d4xd5", "attack e4xe5")
    play(state, "support e6>e5")
    assert rule_of(state, "support e6>d5") == "one-support-per-turn"
    assert legal_texts(state) == ["support d6>d5", "end-support"]


def test_the_state_reports_each_targets_totals_so_far_as_a_fixed_record():
    # The figures the terminal and the browser show while Black weighs its supports.
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "d6": "black infantry"})
    play(state, "end-move", "attack d4xd5")
    (engagement,) = state.engagements()
    assert (engagement.defender.id, engagement.attack, engagement.defence, engagement.falls) == (
        "black-infantry-1",
        2,
        1,
        True,
    )
    with pytest.raises(AttributeError):  # what the views are handed cannot change the battle's figures
        engagement.attack = 0
    assert state.engagements() == [engagement] and hash(engagement) == hash(state.engagements()[0])


def test_support_is_the_defenders_decision():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "d6": "black infantry"})
    play(state, "end-move", "attack d4xd5")
    assert state.acting_players() == [BLACK]
    assert rule_of(state, "support d6>d5", player=RED) == "turn-order"


def test_artillery_supports_with_1():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "d6": "black artillery"})
    play(state, "end-move", "attack d4xd5")
    events = play(state, "support d6>d5")
    assert events_of(events, Supported)[0].value == 1
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 2)


def test_resolution_is_simultaneous():
    # d5 falls although it supports nothing; e5 is attacked too and both resolve together.
    state = battle(
        {**GUARDS, "d4": "red artillery", "e4": "red artillery", "d5": "black infantry", "e5": "black infantry"}
    )
    play(state, "end-move", "attack d4xd5")
    events = play(state, "attack e4xe5")
    assert [type(e) for e in events if isinstance(e, Eliminated | Survived)] == [Eliminated, Eliminated]
    assert state.phase == "advance"


def test_the_advance_moves_one_attacker_into_the_vacated_square():
    state = battle(
        {**GUARDS, "d4": "red artillery", "c4": "red cavalry", "d5": "black infantry", "e6": "black infantry"}
    )
    play(state, "end-move", "attack d4xd5", "attack c4xd5")
    assert set(legal_texts(state)) == {"advance d4>d5", "advance c4>d5", "end-advance"}
    events = play(state, "advance c4>d5")
    assert events_of(events, Moved)[0].destination == "d5"
    assert state.unit_at((3, 4)).kind.name == "cavalry"
    assert state.current_player() == BLACK  # one square vacated, one advance


def test_the_advance_is_optional():
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "e6": "black infantry"})
    play(state, "end-move", "attack d4xd5")
    play(state, "end-advance")
    assert state.unit_at((3, 3)).kind.name == "artillery"
    assert state.current_player() == BLACK


def test_only_an_attacker_of_the_eliminated_unit_may_advance():
    state = battle(
        {**GUARDS, "d4": "red artillery", "c5": "red infantry", "d5": "black infantry", "e6": "black infantry"}
    )
    play(state, "end-move", "attack d4xd5", "end-attack")
    assert rule_of(state, "advance c5>d5") == "advance-attacker"
    assert rule_of(state, "advance d4>e5") == "advance-vacated"


def test_victory_needs_every_guards_unit_where_a_side_has_several():
    state = battle(
        {"a1": "red guards", "d4": "red artillery", "c5": "red artillery", "d5": "black guards", "h8": "black guards"}
    )
    events = play(state, "end-move", "attack d4xd5", "attack c5xd5")
    assert isinstance(fate(events, "d5"), Eliminated)
    assert not state.is_terminal()


def test_resignation_ends_the_battle():
    state = battle(GUARDS)
    state.apply(state.text_to_action("resign black"))
    assert state.outcome.result == "red"
    assert state.returns() == [1.0, -1.0]


def test_horse_artillery_attacks_and_supports_in_any_direction_with_1():
    state = battle({**GUARDS, "d4": "red horse-artillery", "e5": "black infantry", "e6": "black horse-artillery"})
    play(state, "end-move")
    events = play(state, "attack d4xe5")
    assert events_of(events, Attacked)[0].value == 1
    events = play(state, "support e6>e5")
    assert fate(events, "e5").defence == 2


def test_dragoons_attack_and_support_orthogonally_with_1():
    state = battle(
        {**GUARDS, "d4": "red dragoons", "d5": "black infantry", "e5": "black dragoons", "c6": "black dragoons"}
    )
    play(state, "end-move")
    assert rule_of(state, "attack d4xe5") == "attack-direction"
    events = play(state, "attack d4xd5")
    assert events_of(events, Attacked)[0].value == 1
    assert rule_of(state, "support c6>d5") == "support-direction"
    events = play(state, "support e5>d5")
    assert fate(events, "d5").defence == 2


def test_foot_guards_defend_with_2():
    state = battle({**GUARDS, "d4": "red infantry", "c4": "red cavalry", "d5": "black foot-guards"})
    play(state, "end-move", "attack d4xd5")
    events = play(state, "attack c4xd5")
    assert (fate(events, "d5").attack, fate(events, "d5").defence) == (2, 2)
    assert isinstance(fate(events, "d5"), Survived)


def test_cuirassiers_attack_with_2_and_support_with_1():
    state = battle({**GUARDS, "d4": "red cuirassiers", "e5": "black infantry", "f6": "black cuirassiers"})
    play(state, "end-move")
    events = play(state, "attack d4xe5")
    assert events_of(events, Attacked)[0].value == 2
    events = play(state, "support f6>e5")
    assert events_of(events, Supported)[0].value == 1
    assert isinstance(fate(events, "e5"), Survived)  # 2 against 1 + 1


def test_heavy_infantry_attacks_orthogonally_with_2_as_artillery_did():
    state = battle({**GUARDS, "d4": "red heavy-infantry", "d5": "black infantry", "e5": "black infantry"})
    play(state, "end-move")
    assert rule_of(state, "attack d4xe5") == "attack-direction"
    events = play(state, "attack d4xd5", "end-support")
    assert isinstance(fate(events, "d5"), Eliminated)


def test_only_the_guards_unit_decides_the_battle():
    state = battle(
        {
            "a1": "red guards",
            "e4": "red artillery",
            "d5": "red artillery",
            "e5": "black guards",
            "h8": "black foot-guards",
            "g8": "black cuirassiers",
        }
    )
    events = play(state, "end-move", "attack e4xe5", "attack d5xe5")
    assert events_of(events, GameOver)[0].result == "red"
