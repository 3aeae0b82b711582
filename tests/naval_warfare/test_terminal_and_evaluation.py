"""The terminal view (table, ruler, ship states) and the computer's evaluation of seed 003 positions."""

from __future__ import annotations

import pytest
from rich.console import Console

from quarterdeck.core.errors import IllegalAction, NotationError
from quarterdeck.core.protocol import Outcome
from quarterdeck.games.naval_warfare.actions import Gunners
from quarterdeck.games.naval_warfare.evaluate import Body, candidates, evaluate, fire_potential
from quarterdeck.games.naval_warfare.terminal import map_labels

from ..cli.helpers import play
from .helpers import GAME, boarded, position, ship, to_movement


def render(renderable) -> str:
    console = Console(width=160, record=True)
    console.print(renderable)
    return console.export_text()


def test_board_shows_ships_headings_and_the_ruler_for_a_selected_ship():
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 180, type="San Martin")],
            wind="W",
        )
    )
    view = GAME.hook("terminal_view")
    text = render(view.board(state, "Revenge", state.legal_actions(piece="Revenge")))
    assert "→" in text and "↓" in text and "+" in text
    assert "San Martin: 5.00 in, bearing 0; port bear" in text
    status = render(view.status(state))
    assert "wind medium from the W" in status and "flot 23/23" in status and "port 2M 3L" in status


def test_the_status_counts_the_moves_left_before_nightfall():
    view = GAME.hook("terminal_view")
    state = GAME.new_initial_state("single-ship-action")  # noon, moves of an hour and a half
    assert "move 1, 12:00 pm, 6 moves left before nightfall;" in render(view.status(state))
    state.clock = 19 * 60 + 30  # 7:30 pm: the last move before 9 pm
    assert "7:30 pm, 1 move left before nightfall;" in render(view.status(state))


@pytest.mark.parametrize(("phase", "words"), [("move-first", "moving first"), ("fire-second", "firing second"),
                                             ("damage-first", "removing batteries lost to sixes"),
                                             ("end", "the end of the move"), ("wind", "wind")])
def test_the_status_names_the_step_of_the_move_in_words(phase, words):
    view = GAME.hook("terminal_view")
    state = GAME.new_initial_state("single-ship-action")
    state.phase = phase
    assert f"({words})" in render(view.status(state))


def test_the_status_of_a_finished_battle_says_its_result_without_the_phase_it_ended_in():
    view = GAME.hook("terminal_view")
    state = GAME.new_initial_state("single-ship-action")
    assert f"({state.phase})" in render(view.status(state))  # a battle under way names the step due
    state.phase, state.outcome = "clock", Outcome((0.0, 0.0), "draw", "nightfall ends the battle; 0 points each")
    text = render(view.status(state))
    assert "game over: a draw (nightfall ends the battle; 0 points each)\n" in text and "(clock)" not in text


def test_same_repeats_a_naval_warfare_move_when_the_initiative_changed_hands():
    # seed 0: Blanche moves second in move 1 and first in move 2 (rule 3's 2d6), the same decision
    screen, match, _ = play("naval-warfare", ["Blanche turn +10 run 2 turn 0", "end", "same"],
                            scenario="single-ship-action", agents={1: "greedy"})
    assert "no plan of this phase" not in screen
    moved = [(match._before[i].move_number, match._before[i].phase, text)
             for i, (seat, text) in enumerate(match.moves) if seat == "british" and text.startswith("move")]
    assert moved == [(1, "move-second", "move Blanche turn +10 run 2.00 turn +0"),
                     (2, "move-first", "move Blanche turn +10 run 2.00 turn +0")]


def test_each_ship_is_named_on_the_table_beside_her_arrow():
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 180, type="San Martin")],
            wind="W",
        )
    )
    rows = render(GAME.hook("terminal_view").board(state)).splitlines()
    assert any("→Rev" in row for row in rows) and any("↓Mar" in row for row in rows)


@pytest.mark.parametrize("scenario", [info.name for info in GAME.scenarios()])
def test_no_two_ships_of_a_shipped_battle_share_a_label_on_the_table(scenario):
    names = list(GAME.new_initial_state(scenario).ships)
    labels = map_labels(names)
    assert len(set(labels.values())) == len(names), labels
    assert map_labels(["Ark Royal", "Old Royal", "San Mateo", "San Martin"]) == {
        "Ark Royal": "ARoy", "Old Royal": "ORoy", "San Mateo": "Mat", "San Martin": "Mar"}


def test_by_eye_hides_the_ruler():
    state = to_movement(
        position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 180, type="San Martin")],
            wind="W",
            options={"by-eye": True},
        )
    )
    assert "bearing" not in render(GAME.hook("terminal_view").board(state, "Revenge"))


def test_evaluation_prefers_a_broadside_bearing_and_damage_to_the_enemy():
    state = position(
        [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 180, type="San Martin")],
        wind="W",
    )
    revenge, martin = state.ships["Revenge"], state.ships["San Martin"]
    assert fire_potential(state, Body(revenge), [Body(martin)]) > 0
    bearing = evaluate(state, 0)
    revenge.heading = 0
    assert evaluate(state, 0) < bearing
    before = evaluate(state, 0)
    martin.flotation -= 5  # five points taken off the enemy score five for us (victory, a decision)
    assert evaluate(state, 0) == pytest.approx(before + 5) and evaluate(state, 1) == -evaluate(state, 0)


def test_the_computer_weighs_all_hands_to_the_fight_or_a_man_at_each_gun_that_bears():
    # optional rule 5: Revenge grapples San Martin on her port side, where five of her ten batteries point
    state = boarded({"crews": True})
    assert candidates(state, 0, state.legal_actions()) == [Gunners("Revenge", 0), Gunners("Revenge", 5)]


def test_a_reinforcement_still_to_come_says_when_and_where_she_enters():
    status = render(GAME.hook("terminal_view").status(GAME.new_initial_state("mediterranean")))
    assert "Tiger          waiting" in status and "arrives on move 3 at the west edge" in status


def ask(state, line: str, player: int = 0) -> str:
    """A range query typed at the prompt, as the terminal loop answers it."""
    view = GAME.hook("terminal_view")
    name, _, rest = line.partition(" ")
    return render(view.query(state, player, name, rest))


def broadside_to_bow():
    """Revenge heading east with San Martin 5" off her port beam, heading south straight at her."""
    return position(
        [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 180, type="San Martin")],
        wind="W",
    )


class TestRangeAndBearingQuery:
    def test_the_ruler_and_fans_between_two_ships(self):
        text = ask(broadside_to_bow(), "range revenge san martin")
        assert "Revenge to San Martin: 5.00 in, mainmast to mainmast" in text
        # rule 10's fan and rule 9's bands: medium batteries reach 4-8" at long range, long ones 0-8" at short
        assert (
            "from Revenge (heading 90): San Martin bears 0, 90° to port of the bow, in her port broadside fan; "
            "port: 2 medium at long range, 3 long at short range"
        ) in text
        # San Martin's odd long battery points ahead (the disposition), and Revenge lies on her keel line
        assert (
            "from San Martin (heading 180): Revenge bears 180, dead ahead, in her keel line ahead; "
            "ahead: 1 long at short range"
        ) in text
        assert "line of fire: clear" in text

    def test_out_of_the_fans_out_of_range_and_a_hull_in_the_line_of_fire(self):
        state = position(
            [
                ship("Revenge", "english", 10, 10, 90),
                ship("Hope", "english", 10, 14, 90, type="Hope"),
                ship("San Martin", "spanish", 10, 23, 90, type="San Martin"),
            ],
            wind="W",
        )
        text = ask(state, "bearing Revenge San Martin")
        assert "Revenge to San Martin: 13.00 in" in text
        assert "port: 2 medium out of range, 3 long at long range" in text
        # San Martin heading east has Revenge dead abeam to starboard: her starboard short and medium
        # batteries do not reach 13", her long one does at its long range
        assert "90° to starboard of the bow, in her starboard broadside fan; starboard: 4 short out of range" in text
        assert "line of fire: blocked by Hope" in text
        state.ships["San Martin"].heading = 45
        assert "in none of her broadside fans or keel lines; none of her batteries bears" in ask(
            state, "range San Martin Revenge"
        )
        martin = state.ships["San Martin"]
        martin.x, martin.y, martin.heading = 3000, 1000, 270
        far = ask(state, "range San Martin Revenge")  # 20" off: on her bow guns' keel line, beyond their reach
        assert "dead ahead, in her keel line ahead; ahead: 1 long out of range" in far

    def test_one_ship_alone_is_measured_against_every_enemy_on_the_table(self):
        state = position(
            [
                ship("Revenge", "english", 10, 10, 90),
                ship("Hope", "english", 10, 20, 90, type="Hope"),
                ship("San Martin", "spanish", 10, 15, 180, type="San Martin"),
                ship("San Cristobal", "spanish", 30, 10, 270, type="San Cristobal"),
            ],
            wind="W",
        )
        text = ask(state, "range Revenge")
        assert "Revenge to San Martin: 5.00 in" in text and "Revenge to San Cristobal: 20.00 in" in text
        assert "Revenge to Hope" not in text
        assert "Revenge to Hope: 10.00 in" in ask(state, "range Revenge Hope")  # a friend when named

    @pytest.mark.parametrize("line", ["range", "range Revenge Revenge", "range Revenge Santa Ana", "range Golden Hind"])
    def test_ships_not_on_the_table_are_a_notation_error(self, line):
        with pytest.raises(NotationError) as error:
            ask(broadside_to_bow(), line)
        assert error.value.field == "ship" and "ships on the table are Revenge, San Martin" in error.value.message

    def test_a_ship_off_the_table_is_named_as_such(self):
        state = broadside_to_bow()
        state.ships["San Martin"].status = "sunk"
        with pytest.raises(NotationError) as error:
            ask(state, "range Revenge San Martin")
        assert error.value.message.startswith("San Martin is not on the table (sunk)")

    def test_a_battle_fought_by_eye_measures_nothing(self):
        # "Measuring ranges and angles before moving is definitely forbidden"
        state = position(
            [ship("Revenge", "english", 10, 10, 90), ship("San Martin", "spanish", 10, 15, 180, type="San Martin")],
            options={"by-eye": True},
        )
        with pytest.raises(IllegalAction) as error:
            ask(state, "range Revenge San Martin")
        assert error.value.rule == "by eye"

    def test_help_names_the_query_and_the_men_kept_at_the_guns(self):
        view = GAME.hook("terminal_view")
        rows = dict(view.help(broadside_to_bow(), 0))
        assert "range <ship> [<ship>]" in rows and "gunners <ship> <men>" in rows
        state = boarded({"crews": True})
        assert view.phase_help(state, 0) == (
            "how many of Revenge's men stay at her guns (0 to 10, `gunners Revenge "
            "<men>`); the rest fight the boarders (optional rule 5)"
        )
