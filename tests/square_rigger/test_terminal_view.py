"""The terminal view of Square Rigger Chess (issue 12, point 22): the fleet battle on an 80x24
terminal, a key of letters, and the running victory counts (seed 000, "General notes on scenarios and
tactics"; rules-decisions.md, "Victory")."""

from __future__ import annotations

from rich.console import Console

from quarterdeck.games.square_rigger.terminal import labels

from .helpers import GAME, play, position

VIEW = GAME.hook("terminal_view")


def screen(state, width: int, height: int, selected=None, targets=()) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(VIEW.board(state, selected, targets))
    console.print(VIEW.status(state))
    return console.export_text().rstrip("\n").split("\n")


def strike(state, name: str) -> None:
    state.hits[name] = state.striking_hits[name]


def test_the_fleet_battle_fits_an_80_by_24_terminal_with_the_prompt():
    state = GAME.new_initial_state("fleet-battle")
    lines = screen(state, 80, 24)
    assert len(lines) <= 23 and max(len(line.rstrip()) for line in lines) <= 80
    assert lines[0].split()[:3] == ["a", "b", "c"] and "blue (A-Z)" in lines[0] and "red (a-z)" in lines[0]
    # The line of battle on rank 3: Victory, Temeraire, Neptune-B ... heading east.
    assert lines[14].startswith(" 3 · V→· T→· N→· L→· C→· B→· A→· O→· G→")
    assert "V Victory   5 1 1" in lines[1] and "b Bucentaur 4 1 2" in lines[1]  # 1st Rater, 2nd Rater
    assert "S Sirius    2 2 3" in lines[11] and "n Rhin      2 2 3" in lines[11]  # the frigates


def test_every_ship_has_its_own_letter_capitals_for_blue_small_for_red():
    state = GAME.new_initial_state("fleet-battle")
    letters = labels(state)
    blue = [letters[n] for n in state.pieces("blue")]
    red = [letters[n] for n in state.pieces("red")]
    assert len(set(blue)) == 11 and all(c.isupper() for c in blue)
    assert len(set(red)) == 11 and all(c.islower() for c in red)
    assert letters["Victory"] == "V" and letters["Agamemnon"] == "G"  # Ajax took the A


def test_the_key_marks_moved_and_struck_ships_and_the_status_counts_towards_victory():
    state = GAME.new_initial_state("fleet-battle")
    play(state, "move Victory c4 NE")
    strike(state, "Santisima")
    strike(state, "Bucentaure")
    text = "\n".join(screen(state, 80, 24))
    assert "V✓Victory" in text and "s✕Santisima 0 0 0" in text and "s✕" in text.split("\n")[3]
    flat = " ".join(text.split())
    assert "blue strikes all 11 enemy warships (2 so far)" in flat
    assert "at turn 60: most points (blue 14, red 0)" in flat  # F+S+T of a 1st and a 2nd Rater: 7 + 7


def test_a_scenarios_own_conditions_are_counted():
    state = GAME.new_initial_state("blockade")
    flat = " ".join("\n".join(screen(state, 80, 24)).split())
    assert "red escapes with 2 warships off the S edge (0 so far)" in flat
    assert "blue strikes 3 ships (0 so far)" in flat and "at turn 30: blue wins" in flat
    chase = " ".join("\n".join(screen(GAME.new_initial_state("chase"), 80, 24)).split())
    assert "blue strikes Ocean (0 so far)" in chase


def test_a_large_terminal_gets_the_wide_board_and_the_full_table():
    state = GAME.new_initial_state("fleet-battle")
    text = "\n".join(screen(state, 160, 60))
    assert " 3  · V→  · T→ " in text
    assert "V  Victory     blue  1st Rater  b3      E     5 1 1" in text


def test_target_squares_are_marked_even_under_a_ship():
    # Bellona and Achille beam to beam two squares apart; blue is to fire.
    state = position([("Bellona", "blue", "third", "c3", "N"), ("Achille", "red", "third", "e3", "N")])
    play(state, "end-move")
    fire = state.legal_actions(piece="Bellona")
    assert {state.text_of(a) for a in fire} >= {"fire Bellona stbd-beam 2 at Achille"}
    wide = "\n".join(screen(state, 160, 60, "Bellona", fire))
    assert " 3  ·  · B↑  · a↑◦ " in wide  # the target keeps her letter and heading, with the mark beside


def test_a_narrow_terminal_gets_the_key_below_the_board():
    state = GAME.new_initial_state("fleet-battle")
    lines = screen(state, 50, 40)
    assert max(len(line.rstrip()) for line in lines) <= 50
    key = lines.index(next(line for line in lines if line.startswith("blue (A-Z)")))
    assert key == 17 and "b Bucentaure 4 1 2" in lines[key + 1]  # under the board's 17 lines, names whole
