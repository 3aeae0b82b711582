"""Pirate Chess knowledge for the agents: the evaluation's attacking terms and the search the levels use.

Only a Pirate can strike an anchored ship, so against a fleet at anchor the Pirates are the way to
win; these tests pin the evaluation terms that make a search keep, bring up and make Pirates.
"""

from __future__ import annotations

from quarterdeck.ai import make_agent
from quarterdeck.ai.alphabeta import AlphaBetaAgent
from quarterdeck.ai.knowledge import Knowledge
from quarterdeck.games import get
from quarterdeck.games.pirate_chess.evaluate import _knight_distances, evaluate, hunting_power

GAME = get("pirate-chess")


def layout(ships: dict[str, str], **kwargs):
    return GAME.layout(ships, **kwargs)


def text_of_choice(spec: str, state) -> str:
    return state.action_to_text(make_agent(spec, seed=1).act(state, state.current_player()))


def test_the_levels_search_pirate_chess_with_alpha_beta():
    assert Knowledge.of(GAME).search == "alphabeta"
    agent = make_agent("ai:1:budget=iterations", seed=0)
    state = layout({"a1": "blue Barque", "a2": "red Dhow", "h8": "red Junk anchored"})
    agent.act(state, 0)
    assert isinstance(next(iter(agent._engines.values())), AlphaBetaAgent)


def test_hunting_power_grows_with_pirates_but_less_for_each():
    assert hunting_power(0) == 0
    assert hunting_power(1) == 1
    assert 1 < hunting_power(2) < 2 * hunting_power(1)
    assert hunting_power(3) - hunting_power(2) < hunting_power(2) - hunting_power(1)


def test_a_pirate_is_worth_more_against_a_fleet_at_anchor():
    anchored = layout({"a1": "blue Pirate", "a2": "blue Junk", "e5": "red Barque anchored", "h8": "red Junk anchored"})
    under_way = layout({"a1": "blue Pirate", "a2": "blue Junk", "e5": "red Barque", "h8": "red Junk"})
    without = layout({"a2": "blue Junk", "e5": "red Barque anchored", "h8": "red Junk anchored"})
    # the anchored fleet is safer, yet the Pirate facing it gains more than that
    assert evaluate(anchored, 0) - evaluate(without, 0) > evaluate(under_way, 0) - evaluate(
        layout({"a2": "blue Junk", "e5": "red Barque", "h8": "red Junk"}), 0
    )


def test_a_pirate_closer_to_its_target_is_better():
    near = layout({"c4": "blue Pirate", "a2": "blue Junk", "b3": "red Barque anchored"})
    far = layout({"e5": "blue Pirate", "a2": "blue Junk", "b3": "red Barque anchored"})
    distances = _knight_distances(8)
    index = near.geometry.index
    assert distances[index["c4"]][index["b3"]] == 2
    assert distances[index["e5"]][index["b3"]] == 3
    assert evaluate(near, 0) > evaluate(far, 0)


def test_knight_distances_on_the_torus():
    distances = _knight_distances(8)
    index = layout({"a1": "blue Junk", "h8": "red Junk"}).geometry.index
    assert distances[index["a1"]][index["a1"]] == 0
    assert distances[index["a1"]][index["b3"]] == 1
    assert distances[index["a1"]][index["h7"]] == 1  # the leap wraps round both edges
    assert distances[index["a1"]][index["b2"]] == 2
    assert all(d == distances[b][a] for a, row in enumerate(distances) for b, d in enumerate(row))


def test_a_harbour_base_with_pirate_upgrades_left_counts():
    base = layout({"d4": "blue Dhow anchored", "a1": "blue Junk", "h8": "red Junk anchored", "f6": "red Dhow"})
    elsewhere = layout({"b2": "blue Dhow anchored", "a1": "blue Junk", "h8": "red Junk anchored", "f6": "red Dhow"})
    spent = layout(
        {"d4": "blue Dhow anchored", "a1": "blue Junk", "h8": "red Junk anchored", "f6": "red Dhow"},
        upgrades_used={"blue": {"Pirate": 2}},
    )
    assert evaluate(base, 0) > evaluate(elsewhere, 0)
    assert evaluate(base, 0) > evaluate(spent, 0)


def test_a_lead_shrinks_as_the_quiet_turns_add_up():
    fresh = layout({"a1": "blue Frigate", "h8": "red Dhow"})
    drifting = layout({"a1": "blue Frigate", "h8": "red Dhow"})
    drifting.quiet_turns = 80
    assert 0 < evaluate(drifting, 0) < evaluate(fresh, 0)
    assert evaluate(drifting, 1) == -evaluate(drifting, 0)


def test_the_evaluation_is_zero_sum():
    state = layout(
        {"a1": "blue Pirate", "d4": "blue Barque anchored", "c2": "red Pirate", "h8": "red Junk anchored"},
        reserves={"red": ["Frigate"]},
    )
    state.quiet_turns = 10
    assert evaluate(state, 0) == -evaluate(state, 1)


def test_the_search_keeps_its_pirate_against_a_fleet_at_anchor():
    # Sinking the Junk keeps the Pirate, the only ship that can strike the rest of Red's anchored
    # fleet; capturing the Frigate would spend it
    state = layout(
        {
            "a1": "blue Pirate",
            "h8": "blue Dhow anchored",
            "b3": "red Frigate anchored",
            "c2": "red Junk anchored",
            "f5": "red Barque anchored",
            "e6": "red Schooner anchored",
            "g3": "red Brig anchored",
        }
    )
    assert text_of_choice("alphabeta:depth=2", state) in ("move Pirate a1xb3 sink", "move Pirate a1xc2 sink")


def test_the_search_upgrades_to_a_pirate_when_it_has_none():
    # Blue has no Pirate and Red lies at anchor: the Dhow in the harbour with the Junk beside it
    # can become one, the only way to make progress
    state = layout(
        {
            "d4": "blue Dhow anchored",
            "c4": "blue Junk",
            "a1": "red Frigate anchored",
            "g7": "red Barque anchored",
            "b7": "red Junk anchored",
        }
    )
    assert text_of_choice("alphabeta:depth=2", state) == "move Junk c4-d4 upgrade Pirate"


def test_a_hunter_closes_the_squares_a_lone_ship_could_flee_to():
    # Red is down to one Frigate at anchor with nothing in reserve: only Blue's Pirate can strike
    # her, and when it comes she must weigh and flee to a square no Blue ship reaches. Blue's own
    # Frigate on a3 watches ten of the squares she could reach (fourteen left), on c2 three (21
    # left): the net is worth more than whatever else tells the two squares apart.
    def hunt(square: str, **position):
        return layout({"e5": "red Frigate anchored", "b1": "blue Pirate", square: "blue Frigate anchored"}, **position)

    assert evaluate(hunt("a3"), 0) > evaluate(hunt("c2"), 0)
    # A fleet with a ship in reserve is not hunted yet (it can always place one): the net counts less
    reserve = {"red": ["Dhow"]}
    net = evaluate(hunt("a3"), 0) - evaluate(hunt("c2"), 0)
    assert evaluate(hunt("a3", reserves=reserve), 0) - evaluate(hunt("c2", reserves=reserve), 0) < net


def test_positions_the_evaluation_tells_apart_have_different_keys():
    # the searches remember evaluations by position key (exact_keys): a lead worn down by quiet turns
    # must not be read from the memo of the same board a few quiet turns earlier
    fresh = layout({"a1": "blue Frigate", "a2": "blue Junk", "h8": "red Junk"})
    later = fresh.clone()
    later.quiet_turns = 60
    assert evaluate(later, 0) != evaluate(fresh, 0)
    assert later.position_key() != fresh.position_key()
