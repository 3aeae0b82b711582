"""Secret decisions at one keyboard (issue 12, points 15 and 16): Napoleonic Chess's Attack at Dawn,
where both commanders place their armies in secret (seed 002, "Advanced Scenarios" a)."""

from __future__ import annotations

import contextlib
import io

import pytest
from rich.console import Console

from quarterdeck import games
from quarterdeck.cli.terminal import TerminalGame
from quarterdeck.core.session import Match

from .helpers import CLEAR, play

RED_PLAN = ([f"infantry {f}2" for f in "abcdefgh"] + [f"cavalry {f}3" for f in "abcd"]
            + ["artillery e3", "artillery f3", "guards g3"])
BLACK_PLAN = ([f"infantry {f}7" for f in "abcdefgh"] + [f"cavalry {f}6" for f in "abcd"]
              + ["artillery e6", "artillery f6", "guards g6"])


def test_hot_seat_deployment_clears_reds_plan_and_waits_for_black():
    # Red places all fifteen units; the keyboard then passes to Black, who must not see them.
    screen, match, person = play("napoleonic-chess", ["", *RED_PLAN, "", *BLACK_PLAN], scenario="attack-at-dawn",
                                 terminal=True)
    assert person.prompts[0].startswith("Red, press Enter")
    handover = person.prompts.index(next(p for p in person.prompts if p.startswith("Black, press Enter")))
    assert handover == 1 + len(RED_PLAN)  # straight after Red's last placement
    before, _, after = screen.partition("Black, press Enter")
    assert CLEAR in before.split("red> guards g3")[-1]  # cleared between Red's last unit and Black's turn
    blacks_turn = after.split("black> infantry a7")[0]
    assert "red>" not in blacks_turn and "gd" not in blacks_turn.lower().replace("guards", "")
    assert len(match.state.board) == 30 and match.state.phase == "move"  # both plans revealed together


def test_notation_at_a_secret_prompt_is_the_prompting_seats_decision():
    # Red types a placement in full while Black (the computer) also has to place: it is Red's.
    screen, match, _ = play("napoleonic-chess", ["place guards e2", "cavalry b3"], scenario="attack-at-dawn",
                            agents={1: "random"})
    assert "say which one acts" not in screen
    assert match.moves_for(0) == [("red", "place guards e2"), ("red", "place cavalry b3")]


def test_the_computers_secret_placements_are_not_printed_before_the_reveal():
    screen, match, _ = play("napoleonic-chess", BLACK_PLAN, scenario="attack-at-dawn", agents={0: "random"})
    assert "red (random) decides in secret." in screen
    reveal = screen.index("revealed")
    assert "red (random): place" not in screen[:reveal]
    assert len(match.state.board) == 30


def test_after_the_reveal_the_terminal_says_what_the_computer_chose_in_secret():
    # Frigate's sails are chosen in secret before play (Movement 5): the reveal says Thetis' choice
    screen, match, _ = play("frigate", ["sail Amethyst fighting"], scenario="sister-frigates", agents={1: "ai:2"})
    (choice,) = [text for seat, text in match.moves if seat == "red"]
    after = screen[screen.index("secret decisions of blue, red revealed"):]
    assert f"red decided: {choice}" in after and "blue decided" not in screen  # blue typed her own
    revealed = after.splitlines()
    assert revealed[1].strip() == f"red decided: {choice}"  # straight after the reveal, before the turn it opens
    screen, _, _ = play("napoleonic-chess", BLACK_PLAN, scenario="attack-at-dawn", agents={0: "random"}, width=1000)
    (line,) = [line for line in screen.splitlines() if "red decided:" in line]
    assert line.count("place ") == 15  # the computer's whole deployment, in the order it was written


def test_at_one_keyboard_the_reveal_says_what_the_first_to_decide_chose():
    screen, _, _ = play("frigate", ["", "sail Amethyst fighting", "", "sail Thetis full"], scenario="sister-frigates")
    assert "blue decided: sail Amethyst fighting" in screen and "red decided" not in screen


def test_every_secret_phase_of_any_game_hands_over_frigate_simove_plots():
    # Two captains at one keyboard plot their moves in secret (Frigate with SiMove), each taking the
    # first legal action; before each plot the other's is cleared from the screen.
    person_lines = iter(["list", "1"] * 400)
    match = Match(games.get("frigate"), "frigate-duel", {"simove": True}, 7)
    console = Console(file=io.StringIO(), width=140, force_terminal=True, color_system=None)
    prompts: list[str] = []

    def person(prompt: str) -> str:
        prompts.append(prompt)
        return "" if "press Enter" in prompt else next(person_lines)

    TerminalGame(match, {}, console, ask=person).run()
    screen = console.file.getvalue()
    assert match.state.is_terminal()
    handovers = [p for p in prompts if "press Enter" in p]
    assert handovers and screen.count(CLEAR) >= len(handovers) // 2
    assert {p.split(",")[0] for p in handovers} == {"Blue", "Red"}



def test_the_next_person_cannot_bring_back_a_secret_plan_with_the_up_arrow():
    """In a terminal the typed lines are kept for the Up arrow (readline), and a hand-over empties
    them: Black, pressing Up at her first prompt, finds nothing of Red's deployment."""
    readline = pytest.importorskip("readline")
    readline.clear_history()
    kept_at_handover: list[int] = []
    lines = iter(["", *RED_PLAN, "", *BLACK_PLAN])

    def person(prompt: str) -> str:
        if prompt.startswith("Black, press Enter"):
            kept_at_handover.append(readline.get_current_history_length())
        line = next(lines, None)
        if line is None:
            raise EOFError  # the person leaves once both armies are placed
        if line:
            readline.add_history(line)  # as input() does with readline loaded
        return line

    match = Match(games.get("napoleonic-chess"), "attack-at-dawn", {}, 0)
    console = Console(file=io.StringIO(), width=120, force_terminal=True, color_system=None)
    with contextlib.suppress(EOFError):
        TerminalGame(match, {}, console, ask=person).run()
    assert kept_at_handover == [0] and match.state.phase == "move"
    assert readline.get_current_history_length() == len(BLACK_PLAN)  # hers, kept for her own Up arrow
    readline.clear_history()
