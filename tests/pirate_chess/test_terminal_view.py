"""The terminal view: board, status, destinations (hook_terminal_view contract)."""

from rich.console import Console

from quarterdeck.games.pirate_chess.terminal import ANCHOR, HARBOUR, TARGET, WHEEL

from .helpers import GAME, layout, new_game, play

VIEW = GAME.hook("terminal_view")


def render(renderable) -> tuple[str, Console]:
    console = Console(width=120, record=True, color_system="truecolor")
    console.print(renderable)
    return console.export_text(), console


def test_board_marks_anchored_ships_and_draws_every_square():
    state = layout({"a1": "blue Frigate", "d4": "blue Junk anchored", "h8": "red Pirate"})
    text, _ = render(VIEW.board(state))
    assert f"JU{ANCHOR}" in text and "FR " in text and "pi " in text  # blue in capitals, red in small letters
    assert text.count("·") == 64 - 3
    assert " 8 " in text and "a    b" in text


def test_the_fleets_differ_without_colour():
    state = layout({"a1": "blue Pirate", "h8": "red Pirate"})
    console = Console(width=120, record=True, color_system=None)
    console.print(VIEW.board(state))
    console.print(VIEW.status(state))
    text = console.export_text()
    assert " PI " in text and " pi " in text
    assert "blue (PI)" in text and "red (pi)" in text


def test_board_shows_the_harbour_and_paints_the_targets_green():
    state = layout({"a1": "blue Junk", "h8": "red Pirate"})
    text = VIEW.board(state, "Junk")
    styles = {str(span.style) for span in text.spans}
    assert any(TARGET in style for style in styles)
    assert any(HARBOUR in style for style in styles)
    painted = [text.plain[span.start : span.end] for span in text.spans if TARGET in str(span.style)]
    assert len(painted) == 8  # the Junk's eight squares (a2 a3 b1 c1 a8 a7 h1 g1)


def test_board_accepts_explicit_targets():
    state = layout({"a1": "blue Junk", "h8": "red Pirate"})
    actions = state.legal_actions(piece="Junk")[:2]
    text = VIEW.board(state, "Junk", actions)
    assert len([s for s in text.spans if TARGET in str(s.style)]) == 2


def test_status_shows_reserves_turn_wheel_and_upgrades_left():
    state = new_game()
    play(state, "place Pirate d4")
    text, _ = render(VIEW.status(state))
    assert WHEEL in text and "red to act" in text
    assert "Frigate, Barque" in text  # Blue's reserve without the Pirate
    assert "upgrades left: Frigate 2, Pirate 2" in text


def test_status_shows_the_result():
    state = layout({"a1": "blue Barque", "a2": "red Dhow"})
    play(state, "move Barque a1xa2 sink")
    text, _ = render(VIEW.status(state))
    assert "blue (red has no ship left on the board)" in text


def test_destination_of_each_action_kind():
    state = layout({"a1": "blue Junk", "h8": "red Pirate"}, reserves={"blue": ["Dhow"]})
    assert VIEW.destination(state, state.parse_action("place Dhow c5")) == "c5"
    assert VIEW.destination(state, state.parse_action("move Junk a1-a3")) == "a3"
    assert VIEW.destination(state, state.parse_action("anchor Junk")) == "a1"  # choose the ship again
    assert VIEW.destination(state, state.parse_action("end")) is None
    assert VIEW.shortcuts(state, 0) == {}
