"""The terminal view (map, wind, declaration ranges, fire windows with odds) and the computer's
knowledge (evaluation and candidate order) on positions a player would recognise."""

from __future__ import annotations

import itertools
import random

from rich.console import Console
from typer.testing import CliRunner

from quarterdeck.ai import make_agent
from quarterdeck.ai.knowledge import Knowledge
from quarterdeck.ai.mcts import Settings
from quarterdeck.cli.main import app
from quarterdeck.core.hexes import distance
from quarterdeck.core.protocol import CHANCE
from quarterdeck.games.frigate.actions import Cut, Declare, Fire, Hold, Melee, Move, Pass
from quarterdeck.games.frigate.evaluate import CONTEMPT, candidates, chances, evaluate, evaluate_all, rollout_policy
from quarterdeck.games.frigate.terminal import map_letters

from ..cli.helpers import flat, play
from .helpers import GAME, battle, play_quietly, ship, to_movement, to_windows

FRIGATE = {"class": "frigate"}


def render(renderable) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_map_shows_ships_facing_and_the_wind():
    state = battle(ship("Essex", "blue", 44, "1010", "SE", 4, **FRIGATE), ship("Java", "red", 38, "1209", "SW", 0))
    view = GAME.hook("terminal_view")
    board = render(view.board(state))
    assert "E↘" in board and "J↙" in board and "wind from N (1), moderate" in board
    # The ships lie in columns 10 to 12 and rows 9 to 10: three hexes more each way are shown.
    rows, columns = state.grid.rows, state.grid.columns
    assert f"map: columns 01 to {columns:02d}, rows 01 to {rows:02d} (shown: columns 07 to 15, rows 06 to 13)" in board
    status = render(view.status(state))
    assert "Essex: MA 0 to 6" in status and "schedule maximum" in status
    # Before she declares, her line gives last turn's MA (what momentum reads), not an MA of 0.
    assert "SE; MA not declared yet (was 4);" in status


def test_ships_with_one_initial_have_each_a_letter_of_her_own_on_the_map_and_in_the_list():
    state = battle(ship("Pallas", "blue", 32, "1010", "SE", 4), ship("Providence", "blue", 14, "1012", "SE", 4),
                   ship("Seine", "red", 36, "1209", "SW", 0), ship("Sirene", "red", 32, "1409", "SW", 0))
    view = GAME.hook("terminal_view")
    board, status = render(view.board(state)), render(view.status(state))
    expected = (("P", "↘", "Pallas"), ("R", "↘", "Providence"), ("S", "↙", "Seine"), ("I", "↙", "Sirene"))
    for letter, mark, name in expected:
        assert letter + mark in board and f"  {letter} {name} (" in status


def test_no_two_ships_of_a_shipped_scenario_share_a_letter():
    for info in GAME.scenarios():
        letters = map_letters(GAME.new_initial_state(info.name).ships)
        assert len(set(letters.values())) == len(letters), (info.name, letters)


def test_a_fire_window_shows_the_odds_before_firing():
    state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                              ship("Java", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Java=0)
    view = GAME.hook("terminal_view")
    status = render(view.status(state))
    assert "fire window: Essex" in status
    assert "fire Essex starboard Java hull: range 2, GS 6 against DS 5, CRT column 1-1" in status
    assert view.shortcuts(state, 0) == {"hold": [Hold("Essex")], "pass": [Pass("Essex")]}
    assert view.phase_help(state, 0) == "a fire window: fire, `hold` fire, or `pass` to the segment's end (Combat 1)"


def test_frigate_help_gives_the_notation_and_what_the_phase_asks():
    screen = flat(play("frigate", ["help", "sail Amethyst full", "help"], scenario="sister-frigates",
                       agents={1: "greedy"})[0])
    assert "choose fighting or full sail for each ship, both sides at once (Movement 5)" in screen
    assert "declare <ship> <MA>" in screen and "fire <ship> port|starboard <target> hull|rigging" in screen
    assert "Movement Declaration: each ship's MA for the turn (momentum +2 / -4" in screen
    assert "Choices now: declare (" in screen


def test_help_at_the_segments_end_offers_the_melee():
    state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                   ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"))
    to_movement(state, Essex=4, Guerriere=0)
    state.apply(Move("Essex"), 0)  # into Guerriere's hex from astern, a wind from the south: afoul
    while state.windows[0] != "Essex" or not state.end_round:
        state.apply(Hold(state.windows[0]), state.ships[state.windows[0]].owner)
    view = GAME.hook("terminal_view")
    assert Melee("Essex") in state.legal_actions(0)
    assert view.phase_help(state, 0) == (
        "the segment's end: fire what bears, `melee` with the ship she is afoul of, or `hold`")
    status = render(view.status(state))  # nothing is left to pass to
    assert "fire window: Essex ('hold' to hold fire)" in status and "'pass'" not in status
    assert "fire window: Essex ('hold' to hold fire, 'pass' to the segment's end)" in render(
        view.status(to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                                      ship("Java", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Java=0)))


def test_the_evaluation_likes_damage_done_and_the_candidates_fire_first():
    state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                              ship("Java", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Java=0)
    before = evaluate(state, 0)
    state.ships["Java"].hull = 2
    assert evaluate(state, 0) > before
    ordered = candidates(state, 0, state.legal_actions(0))
    assert isinstance(ordered[0], Fire)


def test_the_captains_aim_at_the_hull_and_at_the_rigging_of_a_ship_that_would_sail_away():
    # Both aims are legal (seed, Combat); the search tries one: hull hits sink a ship or bring her to
    # strike, crew and gun hits weaken her fire. A merchantman that scores for leaving the map is
    # kept within reach by shooting away her masts.
    def broadsides(objectives=None, target=("Java", 38, "frigate")):
        name, rating, cls = target
        state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                                  ship(name, "red", rating, "1209", "N", 0, **{"class": cls}),
                                  objectives=objectives), Essex=0, **{name: 0})
        legal = {a.aim for a in state.legal_actions(0) if isinstance(a, Fire) and a.battery == "starboard"}
        assert legal == {"hull", "rigging"}
        return {a.aim for a in candidates(state, 0, state.legal_actions(0)) if isinstance(a, Fire)}

    assert broadsides() == {"hull"}
    leaving = [{"side": "red", "edge": "west", "points": 8, "class": "merchantman"}]
    assert broadsides(leaving, ("Indiaman", 20, "merchantman")) == {"rigging"}
    assert broadsides(leaving) == {"hull"}  # her escort does not score for leaving


def test_both_sides_are_valued_in_one_pass_and_damage_is_one_sides_gain():
    state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                              ship("Java", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Java=0)
    hurt = state.clone()
    hurt.ships["Java"].hull = 2
    assert evaluate_all(state) == (evaluate(state, 0), evaluate(state, 1))
    # Java's two hull hits are blue's two points and red's loss alike; only each side's wish to seek
    # action and its dislike of a draw (a likely draw costs both) are not one side's gain.
    blue, red = evaluate_all(hurt)
    gained, lost = blue - evaluate(state, 0), -(red - evaluate(state, 1))
    assert gained > 2 and lost > 2
    assert abs(gained - lost) <= 2 * CONTEMPT


def _guerriere(lead: int, hex_: str, turns: int):
    """Constitution (44) and Guerriere (38) at Declaration, Guerriere `lead` points ahead (one hull
    hit on the ship behind)."""
    state = battle(ship("Constitution", "blue", 44, "1010", "N", 4, **FRIGATE),
                   ship("Guerriere", "red", 38, hex_, "N", 4, **FRIGATE), turns=turns)
    if lead:
        state.ships["Constitution" if lead > 0 else "Guerriere"].hull = 1
    return state


def test_the_weaker_ship_ahead_keeps_off_and_behind_seeks_the_fight():
    # Two hexes abeam Guerriere reads 1-2 on Constitution and Constitution 1-1 on her; ten hexes
    # off, 1-4 and nothing. Who wins counts, not by how much.
    def keeping_off(lead: int, turns: int) -> float:
        return evaluate(_guerriere(lead, "1905", turns), 1) - evaluate(_guerriere(lead, "1209", turns), 1)

    for turns in (1, 4, 12):
        assert keeping_off(1, turns) > 0  # a point ahead she stays out of a fight she would lose on the odds
        assert keeping_off(-1, turns) < 0  # a point behind, only the fight can win or save the game
    assert keeping_off(0, 4) < 0 and keeping_off(0, 12) < 0  # level with turns to come: play to win
    assert keeping_off(0, 1) > 0  # level in the last turn: the likelier loss is not worth the win


def test_equal_ships_level_on_points_close_to_full_strength_range():
    # Between 38s of one quality a broadside beyond two hexes is halved or quartered: trading fire at
    # four or five hexes rarely decides anything, so each captain wants to close, every hex nearer.
    def values(hex_: str) -> tuple[float, float]:
        return evaluate_all(battle(ship("Amethyst", "blue", 38, "1010", "N", 4, **FRIGATE),
                                   ship("Thetis", "red", 38, hex_, "N", 4, **FRIGATE), turns=12))

    by_range = [values(hex_) for hex_ in ("1209", "1309", "1409", "1509", "1609")]  # 2 to 6 hexes off
    for nearer, further in itertools.pairwise(by_range):
        assert nearer[0] > further[0] and nearer[1] > further[1]


def test_in_an_even_fight_the_playouts_close_to_two_hexes_even_a_point_ahead():
    # Thetis, a 38 like Amethyst, six hexes off her starboard bow, a hull hit down. Trading
    # broadsides at five hexes (1-3) would not decide the game, so the point-by-point policy keeps
    # heading for her beyond two hexes (1-1), whoever leads (a weaker ship ahead keeps off instead).
    for lead in (0, 1):
        state = battle(ship("Amethyst", "blue", 38, "1010", "N", 4, **FRIGATE),
                       ship("Thetis", "red", 38, "1306", "N", 0, **FRIGATE), wind=(3, "moderate"))
        state.ships["Thetis"].hull = lead
        to_movement(state, Amethyst=4, Thetis=0)
        assert distance(state.ships["Amethyst"].hex, state.ships["Thetis"].hex) == 6
        assert candidates(state, 0, state.legal_actions(0))[0] == Move("Amethyst")


def test_a_ship_far_from_the_enemy_is_worth_more_heading_for_him_with_way_on():
    # Wind from the north; Thetis ten hexes north-east. Head to wind with no way on, Amethyst's next
    # turn is one free hexside and no more (seed, Movement 3); heading north-east she may declare
    # up to two more than last turn (Movement 1) and close on him; heading away she opens the range.
    def value(facing: str, ma: int = 0) -> float:
        return evaluate(battle(ship("Amethyst", "blue", 38, "1010", facing, ma, **FRIGATE),
                               ship("Thetis", "red", 38, "2005", "N", 4, **FRIGATE), turns=12), 0)

    assert value("NE") > value("N")
    assert value("NE") > value("SW")
    assert value("NE", ma=2) > value("NE")


def test_the_captain_melees_when_the_crews_favour_her_and_passes_when_they_do_not():
    def at_the_end_round(essex_crew_hits: int, guerriere_crew_hits: int, segment: int = 1):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0)
        state.ships["Essex"].crew = essex_crew_hits
        state.ships["Guerriere"].crew = guerriere_crew_hits
        state.apply(Move("Essex"), 0)  # afoul of Guerriere from astern
        play_quietly(state, lambda s: s.windows[:1] == ["Essex"] and s.end_round and s.segment == segment)
        return state

    # Crew points round(rating / 10) less a third for each crew hit: Essex 4 against Guerriere's 3.
    # Her broadside first (firing leaves the melee open), then the melee before holding or passing.
    favoured = at_the_end_round(0, 1)
    ordered = candidates(favoured, 0, favoured.legal_actions(0))
    assert ordered[0] == Fire("Essex", "port", "Guerriere", "hull") and ordered[1:] == [Melee("Essex"), Hold("Essex")]
    # Even (4 against 4) a melee is a coin's toss for a prize: a side level on points does not toss
    # it (it stays legal); a side behind tries it after holding.
    even = at_the_end_round(0, 0)
    assert Melee("Essex") in even.legal_actions(0) and Melee("Essex") not in candidates(even, 0, even.legal_actions(0))
    even.ships["Essex"].hull = 1  # a hull hit: Guerriere's side leads by a point
    assert candidates(even, 0, even.legal_actions(0))[-2:] == [Hold("Essex"), Melee("Essex")]
    # With two crew hits Essex has 1 against 4: holding is never worse (Guerriere may melee the same
    # round anyway, and spares her if she does not), so the search never tries it; it stays legal.
    weakened = at_the_end_round(2, 0)
    assert Melee("Essex") in weakened.legal_actions(0)
    ordered = candidates(weakened, 0, weakened.legal_actions(0))
    assert Melee("Essex") not in ordered and Hold("Essex") in ordered
    # A melee whose dice are rolling is still the segment's round to be fought, so in the last
    # segment, with one round fewer left to count, meleeing is worth what holding is (the side the
    # crews favour melees anyway): neither a way out of a losing fight nor a loss for the winner.
    knowledge = Knowledge.of(GAME)
    for crew_hits in ((1, 0), (0, 0), (0, 1)):
        last = at_the_end_round(*crew_hits, segment=4)
        melee, hold = (knowledge.value_after(last, 0, action) for action in (Melee("Essex"), Hold("Essex")))
        assert abs(melee - hold) < 1e-9


def test_a_captain_level_or_ahead_cuts_loose_from_an_enemy_she_is_not_favoured_to_out_fight():
    """Afoul at the Declaration, staying (speed 0) means a melee every segment, a coin's toss for a
    prize at even crews: a side level or ahead only tries cutting loose (free at once when the enemy
    asks too); a side behind, or a crew that outmatches his, may stay."""
    def declaring(essex_crew_hits: int, guerriere_crew_hits: int, essex_hull_hits: int = 0):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0)
        state.ships["Essex"].crew, state.ships["Guerriere"].crew = essex_crew_hits, guerriere_crew_hits
        state.ships["Essex"].hull = essex_hull_hits
        state.apply(Move("Essex"), 0)  # afoul of Guerriere from astern
        play_quietly(state, lambda s: s.phase == "declare" and 0 in s.acting_players())
        assert state.ships["Essex"].afoul == "Guerriere"
        return state, candidates(state, 0, state.legal_actions(0))

    state, level = declaring(0, 0)
    assert Declare("Essex", 0) in state.legal_actions(0) and Declare("Essex", 0) not in level
    assert level and all(isinstance(a, Cut) for a in level if getattr(a, "ship", "") == "Essex")
    assert Declare("Essex", 0) in declaring(0, 0, essex_hull_hits=1)[1]  # behind on points: may stay
    assert Declare("Essex", 0) in declaring(0, 1)[1]  # her crew 4 against his 3: stays to board


def test_the_playouts_board_where_the_crews_favour_her_keep_off_where_they_do_not_and_take_prizes():
    # Essex (44, crew points 4) a hex astern of Guerriere (38, 4), heading for her. Running afoul
    # means a melee every segment, won by the better crew (reconstructed melee): with Guerriere a
    # crew hit down (3) Essex boards her; with two crew hits herself (1) she keeps off, turning
    # away before she runs aboard; with Guerriere crippled (3 crew hits) the point into her hex takes
    # her as a prize (seed, Prizes 1).
    def first_choice(essex_crew_hits: int, guerriere_crew_hits: int):
        state = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Guerriere", "red", 38, "1009", "N", 0, **FRIGATE), wind=(3, "moderate"))
        to_movement(state, Essex=4, Guerriere=0)
        state.ships["Essex"].crew = essex_crew_hits
        state.ships["Guerriere"].crew = guerriere_crew_hits
        ordered = candidates(state, 0, state.legal_actions(0))
        return ordered, rollout_policy(state, 0, random.Random(1))

    for hits in ((0, 1), (0, 3)):
        ordered, played = first_choice(*hits)
        assert ordered[0] == played == Move("Essex")
    ordered, played = first_choice(2, 0)
    assert ordered[-1] == Move("Essex") and played != Move("Essex")


def test_a_lead_counts_for_more_as_the_game_runs_out():
    late = evaluate(_guerriere(1, "1905", 1), 1)
    early = evaluate(_guerriere(1, "1905", 12), 1)
    assert late > early > 0
    assert chances(0.0, 1.0)[0] == 0.0
    assert chances(2.0, 1.0)[0] == -chances(-2.0, 1.0)[0] > chances(1.0, 1.0)[0] > 0
    assert chances(-1.0, 4.0)[0] > chances(-1.0, 1.0)[0]  # behind, a wider spread is a better chance
    assert chances(0.0, 0.25)[1] > chances(0.0, 4.0)[1] > chances(3.0, 4.0)[1]  # the closer, the likelier a draw
    assert abs(chances(0.0, 0.25)[1] - 0.6827) < 1e-4  # within one standard deviation of level


def test_the_playout_policy_fires_when_a_broadside_bears_and_stops_at_the_next_declaration():
    state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                              ship("Java", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Java=0)
    assert isinstance(rollout_policy(state, 0, random.Random(1)), Fire)
    declaring = battle(ship("Essex", "blue", 44, "1010", "N", 4, **FRIGATE),
                       ship("Java", "red", 38, "2209", "N", 4, **FRIGATE))
    assert declaring.phase == "declare" and rollout_policy(declaring, 0, random.Random(1)) is None
    # Once a captain has declared, the playout goes on: a speed shows only where it takes the ship.
    seat = declaring.current_player()
    declaring.apply(next(a for a in declaring.legal_actions(seat) if isinstance(a, Declare)), seat)
    assert declaring.phase == "declare" and rollout_policy(declaring, declaring.current_player(),
                                                           random.Random(1)) is not None


def test_the_playout_policy_keeps_a_broadside_for_closer_range_until_its_last_chance():
    # One attack a side a game-turn (seed 001, Combat 1): at three hexes Essex's guns read 1-3, at
    # two 1-1, so a captain holds her starboard broadside while the turn may yet bring Java closer,
    # and fires it in the fourth segment's last fire round rather than lose it.
    state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                              ship("Java", "red", 38, "1309", "N", 0, **FRIGATE)), Essex=0, Java=0)
    assert distance(state.ships["Essex"].hex, state.ships["Java"].hex) == 3
    assert any(isinstance(a, Fire) for a in state.legal_actions(0))
    seen = []
    while True:
        play_quietly(state, lambda s: s.windows[:1] == ["Essex"])  # every other window holds
        if state.segment == 4 and state.end_round:
            break
        seen.append(rollout_policy(state, 0, random.Random(1)))
        assert candidates(state, 0, state.legal_actions(0))[0] == Hold("Essex")
        state.apply(Hold("Essex"), 0)
    assert len(seen) == 7 and set(seen) == {Hold("Essex")}  # every earlier window of the turn
    assert rollout_policy(state, 0, random.Random(1)) == Fire("Essex", "starboard", "Java", "hull")


def test_the_search_plays_each_leaf_out_to_the_game_turns_end_even_in_the_largest_battle():
    # A declared speed or a drift at MA 0 shows only at the turn's end: each playout of the search
    # (chance drawn, every decision counted, as the search counts them) must get there, from the
    # first captain's declaration on.
    settings = Settings.resolve(GAME.hook("search_settings"), {})
    state = GAME.new_initial_state(scenario="fleet-battle", seed=1)
    rng = random.Random(1)
    while state.phase != "declare":  # fighting sail or not, the wind
        advance(state)
    advance(state)  # one captain declares; the playout plays out the others' declarations and the turn
    assert state.phase == "declare"
    turn, decisions = state.turn, 0
    while rollout_policy_or_chance(state, rng):
        decisions += 1
        assert decisions <= settings.rollout_depth
    assert state.phase == "declare" and state.turn == turn + 1


def advance(state) -> None:
    """One decision: the chance outcome due, or the candidates' first choice of the seat to act."""
    seat = state.current_player()
    if seat == CHANCE:
        state.apply(state.sample_chance(), CHANCE)
    else:
        seat = state.acting_players()[0]
        state.apply(candidates(state, seat, state.legal_actions(seat))[0], seat)


def rollout_policy_or_chance(state, rng) -> bool:
    """One decision of a playout; False where the rollout policy hands over to the evaluation."""
    seat = state.current_player()
    if seat == CHANCE:
        state.apply(state.sample_chance(), CHANCE)
        return True
    action = rollout_policy(state, seat, rng)
    if action is None:
        return False
    state.apply(action, seat)
    return True


def test_greedy_fires_when_it_can():
    state = to_windows(battle(ship("Essex", "blue", 44, "1010", "N", 0, **FRIGATE),
                              ship("Java", "red", 38, "1209", "N", 0, **FRIGATE)), Essex=0, Java=0)
    assert isinstance(make_agent("greedy", seed=1).act(state, 0), Fire)


def test_play_takes_a_tables_file(tmp_path):
    bad = tmp_path / "t.toml"
    bad.write_text("[map]\ncolumns = 2\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["play", "frigate", "--tables", str(bad)], input="quit\n")
    assert result.exit_code == 2 and "error: quarterly: missing" in result.output


def test_a_person_plays_a_duel_to_its_end_in_the_terminal_with_and_without_simove():
    import io
    import itertools

    from quarterdeck.cli.terminal import TerminalGame
    from quarterdeck.core.session import Match

    for options in ({}, {"simove": True}):
        match = Match(GAME, "frigate-duel", options, 7)
        answers = itertools.cycle(["list", "1"])  # the person lists the legal actions and takes the first
        console = Console(file=io.StringIO(), width=140)
        person = lambda prompt, answers=answers: next(answers)  # noqa: E731
        TerminalGame(match, {1: make_agent("greedy", 1)}, console, ask=person).run()
        assert match.state.is_terminal()
        assert "Game over" in console.file.getvalue()
