"""The scenario files (scenarios/*.toml): each a title, a briefing and options; mistakes are named."""

import pytest

from quarterdeck.core.errors import ScenarioError
from quarterdeck.games.pirate_chess.scenario import read_scenario

from .helpers import GAME

GOOD = '''
title = "Narrow seas"
briefing = """Two fleets \\
on a small board."""

[options]
size = 6
quiet_turn_limit = 40
'''


def test_the_standard_game_of_the_book_is_listed_first_and_is_the_default():
    names = [s.name for s in GAME.scenarios()]
    assert names[0] == "standard" == GAME.default_scenario
    assert set(names) == {"standard", "large"}


def test_every_shipped_scenario_starts_a_game_with_both_fleets_in_reserve():
    for info in GAME.scenarios():
        state = GAME.new_initial_state(info.name)
        assert state.options.size == info.options["size"]
        assert [len(state.reserve(p)) for p in range(2)] == [8, 8]
        assert info.title and len(info.briefing) > 200


def test_a_scenario_file_gives_title_briefing_on_one_line_and_options():
    assert read_scenario("narrow", GOOD) == (
        "Narrow seas",
        "Two fleets on a small board.",
        {"size": 6, "quiet_turn_limit": 40},
    )


def test_a_caller_changing_listed_options_does_not_change_the_scenario():
    GAME.scenarios()[0].options["size"] = 12
    assert GAME.scenarios()[0].options == {"size": 8}
    assert GAME.new_initial_state("standard").options.size == 8


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (GOOD + 'wind = "NE"\n', "options.wind"),  # a key after [options] belongs to the options
        ('wind = "NE"\n' + GOOD, "wind"),
        (GOOD.replace('title = "Narrow seas"', ""), "title"),
        (GOOD.replace('title = "Narrow seas"', 'title = "  "'), "title"),
        (GOOD.replace('briefing = """Two fleets \\\non a small board."""', "briefing = 3"), "briefing"),
        ('title = "t"\nbriefing = "b"\noptions = 8\n', "options"),
        (GOOD.replace("size = 6", "size = 7"), "options.size"),
        (GOOD.replace("quiet_turn_limit = 40", "quiet_turn_limit = 0"), "options.quiet_turn_limit"),
        ("title = ", "scenario"),
    ],
)
def test_a_bad_scenario_file_is_refused_naming_the_field(text, field):
    with pytest.raises(ScenarioError) as error:
        read_scenario("narrow", text)
    assert error.value.field == field


def test_a_players_own_scenario_file_is_played_from_its_path(tmp_path):
    mine = tmp_path / "narrow-seas.toml"
    mine.write_text(GOOD, encoding="utf-8")
    state = GAME.new_initial_state(str(mine), {"quiet_turn_limit": 30})
    assert (state.options.size, state.options.quiet_turn_limit) == (6, 30)  # the player's option on top
    mine.write_text(GOOD.replace("size = 6", "size = 7"), encoding="utf-8")
    with pytest.raises(ScenarioError) as error:
        GAME.new_initial_state(str(mine))
    assert error.value.field == "options.size"
