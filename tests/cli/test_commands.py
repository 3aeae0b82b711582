"""What a person types at the prompt (issue 12, points 17, 18, 20, 21 and 22): commands before
squares, `end` that says why it cannot, piece names in any case, help for the game and the phase,
whole-ship commands, `same` and the automatic defence."""

from __future__ import annotations

from quarterdeck import games
from quarterdeck.core.session import Match

from ..napoleonic_chess.helpers import GUARDS, battle
from ..napoleonic_chess.helpers import play as apply_texts
from ..naval_warfare.helpers import boarded
from .helpers import flat, play


def square_rigger_position(ships: list[tuple]) -> Match:
    """A Square Rigger match on an open 10x10 sea (seed 000) with the given ships, blue to move."""
    game = games.get("square-rigger")
    match = Match(game, "duel")
    data = {"name": "test", "title": "test position", "briefing": "a position", "board": "\n".join(["." * 10] * 10),
            "wind": {"from": "N", "strength": "moderate"},
            "ships": [{"name": n, "side": s, "class": c, "at": at, "heading": h} for n, s, c, at, h in ships]}
    match.state = game.state_from_setup(data)
    return match


def test_resign_with_a_ship_selected_resigns_rather_than_looking_for_a_square():
    screen, match, _ = play("square-rigger", ["Bellona", "resign"], scenario="duel")
    assert "no legal action ending on resign" not in screen
    assert match.state.outcome.result == "red" and match.state.outcome.reason == "blue resigned"


def test_end_names_the_non_adjacency_rule_and_both_ships_in_the_blockade():
    # Blue lets the turn pass; Duguay sails out of harbour to h9, beside Cornelie still moored on i10.
    screen, match, _ = play("square-rigger", ["end", "move Duguay h9 S", "end"], scenario="blockade")
    assert "Duguay (h9) and Cornelie (i10) would end the move on touching squares [rule: non-adjacency]" in screen
    assert "nothing to end" not in screen
    assert match.moves[-1] == ("red", "move Duguay h9 S")  # the refused end changed nothing


def test_a_number_before_any_list_says_how_to_get_one():
    screen, match, _ = play("square-rigger", ["6", "list", "99"], scenario="duel")
    text = flat(screen)
    assert "no list of actions is shown yet: name a piece, or type `list` in '6' [field: number]" in text
    assert "choose 1 to 0" not in text and "choose 1 to " in text  # once listed, the range is the list's
    assert match.moves == []


def test_end_in_a_phase_no_action_ends_names_the_ships_still_to_act_and_what_the_phase_asks():
    # Naval Warfare: each ship moves once and the phase ends by itself; nine British ships, six named
    screen, match, _ = play("naval-warfare", ["end", "move Venerable turn 0 run 6 turn 0", "end"],
                            scenario="line-of-battle", agents={1: "random"})
    text = flat(screen)
    assert ("there is nothing to end now: with an action now: Venerable, Monarch, Ardent, Bedford, Powerful, "
            "Triumph and 3 more. This phase: move each of your ships once: turn, run, turn (rules 2 and 4)") in text
    assert "with an action now: Monarch, Ardent, Bedford, Powerful, Triumph, Belliqueux and 2 more." in text
    assert [text for seat, text in match.moves if seat == "british"] == ["move Venerable turn +0 run 6.00 turn +0"]


def test_an_action_typed_without_its_verb_as_the_help_shows_it():
    # Napoleonic Chess lists `move a2-a1`: `a2-a1` alone is that move, as in the browser
    screen, match, _ = play("napoleonic-chess", ["help commands", "a2-a1", "zz-a1"], agents={1: "random"})
    text = flat(screen)
    assert "an action typed without its first word, e.g. `a2-a1` for `move a2-a1`" in text
    assert match.moves[0] == ("red", "move a2-a1")
    assert "nor is 'zz-a1' a command or a piece with a legal action now" in text


def test_ship_names_in_any_case():
    _, match, _ = play("square-rigger", ["bellona", "d4", "1", "end", "BELLONA"], scenario="duel")
    assert match.moves[0] == ("blue", "move Bellona d4 N")
    _, match, _ = play("square-rigger", ["move bellona d4 n"], scenario="duel")
    assert match.moves == [("blue", "move Bellona d4 N")]


def test_help_gives_the_games_commands_and_the_phases_choices():
    screen = flat(play("square-rigger", ["help"], scenario="duel")[0])
    assert "Square Rigger Chess: blue to decide; move any of your ships (each once), then `end`" in screen
    assert "Choices now: move (" in screen and "e.g. `move Bellona" in screen
    assert "Victory d5 NE" in screen and "auto defence off" in screen
    pirate = flat(play("pirate-chess", ["help"])[0])
    assert "place a ship (it anchors at once unless it is a Pirate)" in pirate and "Junk a3" in pirate
    assert "Victory d5 NE" not in pirate
    dawn = flat(play("napoleonic-chess", ["place guards e2", "help"], scenario="attack-at-dawn",
                     agents={1: "random"})[0])
    assert "nobody sees them until every army has placed" in dawn
    assert "`guards e2` (to place: 8 infantry, 4 cavalry, 2 artillery)" in dawn
    every = flat(play("square-rigger", ["help commands"], scenario="duel")[0])
    assert "takeback <piece>" in every and "save! <file>" in every
    # the piece shorthand is shown with a ship of this game and an action she has now
    assert "without its first word, e.g. `Bellona " in every and "for `move Bellona " in every
    placing = flat(play("pirate-chess", ["help commands"])[0])
    assert "e.g. `Frigate a1` for `place Frigate a1`" in placing and "Victory" not in placing


def test_a_ship_moves_in_one_command():
    screen, match, _ = play("square-rigger", ["Bellona j10 N", "bellona d4 n", "Bellona d5 N"], scenario="duel")
    assert match.moves == [("blue", "move Bellona d4 N")]
    assert "cannot reach j10" in screen  # the rule that forbids it, as for the move written in full
    assert "Bellona has already moved this turn [rule: one-move-per-turn]" in screen


def test_same_repeats_last_turns_fire_plan():
    # Bellona and Achille lie beam to beam two squares apart; nobody moves.
    match = square_rigger_position([("Bellona", "blue", "third", "c3", "N"), ("Achille", "red", "third", "e3", "N")])
    turn = ["end", "Bellona stbd-beam 2", "end",  # blue: no move, fires, ends
            "end", "end"]  # red: defends by itself, then neither moves nor fires
    _, match, _ = play("square-rigger", [*turn, "end", "same"], match=match)
    fired = [text for seat, text in match.moves if seat == "blue" and text.startswith("fire")]
    assert fired == ["fire Bellona stbd-beam 2 at Achille"] * 2


def test_the_defence_is_made_for_a_person_unless_switched_off():
    match = square_rigger_position([("Bellona", "blue", "third", "c3", "N"), ("Achille", "red", "third", "e3", "N")])
    screen, match, person = play("square-rigger", ["end", "Bellona stbd-beam 2", "end"], match=match)
    assert "auto defence" in screen
    assert ("red", "defend Achille port-beam 1") in match.moves and ("red", "end-defence") in match.moves
    assert match.state.phase == "move" and match.state.players[match.state.seat] == "red"

    match = square_rigger_position([("Bellona", "blue", "third", "c3", "N"), ("Achille", "red", "third", "e3", "N")])
    _, match, person = play("square-rigger", ["auto defence off", "end", "Bellona stbd-beam 2", "end"],
                            match=match)
    assert match.state.phase == "defence" and person.prompts[-1].startswith("[bold]red")  # red decides


def test_a_napoleonic_unit_acts_by_its_square_and_the_target_square():
    screen, match, _ = play("napoleonic-chess", ["d2 d4", "b3 b5", "b3 b4"])
    flat_screen = flat(screen)
    assert "nor is 'd2' a command or a piece with a legal action now" in flat_screen  # boxed in behind d3
    assert "b3 has no legal action ending on b5 [rule: legal-moves]" in flat_screen  # infantry: one square
    assert match.moves == [("red", "move b3-b4")]


def test_a_shortcut_that_leaves_the_phase_open_shows_the_odds_it_changed():
    # Red's artillery attacks d5, which falls unless supported; two neighbours could support it.
    # `best-defence` commits one; the phase stays open for the other, and the line on d5 now reads holds.
    state = battle({**GUARDS, "d4": "red artillery", "d5": "black infantry", "d6": "black infantry",
                    "c5": "black infantry"})
    apply_texts(state, "end-move", "attack d4xd5")
    match = Match(games.get("napoleonic-chess"), None, {}, 0)
    match.state = state
    screen, _, _ = play("napoleonic-chess", ["best-defence"], match=match)
    after = flat(screen.split("black> best-defence")[1])
    assert "d5 black-infantry-1: attack 2 against defence 2 (1 + support 1): holds" in after
    assert "black to support" in after


def test_naval_warfare_range_and_bearing_queries_at_the_prompt():
    # issue 14 item 6: the ruler between two ships, asked at the prompt; it decides nothing
    screen, match, person = play("naval-warfare", ["range revenge san martin", "help", "RANGE Hope"],
                                 scenario="armada")
    text = flat(screen)
    assert "Revenge to San Martin: 30.59 in, mainmast to mainmast" in text
    assert ("from San Martin (heading 0): Revenge bears 281, 79° to port of the bow, in her port broadside fan; "
            "port: 4 short out of range, 4 medium out of range, 1 long out of range") in text
    assert "line of fire: clear" in text and "Hope to San Cristobal: 36.06 in" in text
    assert "`range <ship> <ship>` measures between two ships" in text
    assert "range <ship> [<ship>]" in text and "gunners <ship> <men>" in text
    assert match.moves == [] or all(seat == "chance" for seat, _ in match.moves)
    assert len(person.prompts) == 4 and len(set(person.prompts)) == 1  # still Spain's move after each query
    other = flat(play("square-rigger", ["range Bellona"], scenario="duel")[0])
    assert "nor is 'range' a command" in other  # other games' commands are unchanged


def test_naval_warfare_men_kept_at_the_guns_are_offered_at_the_prompt():
    # optional rule 5: when a boarding fight opens the person says how many men stay at the guns
    match = Match(games.get("naval-warfare"), "armada")
    match.state = boarded({"crews": True})
    screen, match, _ = play("naval-warfare", ["help", "revenge", "Revenge 3"], match=match, agents={1: "greedy"})
    text = flat(screen)
    assert "how many of Revenge's men stay at her guns (0 to 10, `gunners Revenge <men>`)" in text
    assert "1. gunners Revenge 0" in text and "11. gunners Revenge 10" in text
    assert match.moves[0] == ("english", "gunners Revenge 3")


def test_a_mistyped_action_shows_how_its_verb_is_written_and_what_is_legal_now():
    # Frigate's initiative winner types `order blue` (four sides wanted) and then a declaration out of
    # its phase, short of its allowance.
    lines = ["sail Amethyst full", "declare Amethyst 10", "order blue", "declare Amethyst"]
    text = flat(play("frigate", lines, scenario="the-chase", agents={1: "ai:1"})[0])
    mistyped = text.split("blue> order blue")[1]
    assert "order takes 4 words after it (1 given) in 'order blue' [field: arguments]" in mistyped
    assert "order <side> <side> <side> <side> the initiative winner" in mistyped
    assert "order now: e.g. `order blue blue blue blue` (16 in all: `list` shows them)" in mistyped
    out_of_turn = mistyped.split("blue> declare Amethyst")[1]
    assert "declare <ship> 0 port|starboard" in out_of_turn
    assert "no declare is legal now (turn 1, order: blue to decide)" in out_of_turn


def test_the_example_after_a_mistyped_action_follows_what_was_typed():
    text = flat(play("pirate-chess", ["place Junk"])[0])
    assert "place now: e.g. `place Junk a1` (512 in all: `list` shows them)" in text


def test_a_ship_named_while_she_cannot_act_is_told_why_by_her_rule():
    # Galleys off Cape Passaro (seed 0): Bull and Moon are caught in irons by the first move's wind,
    # Tiger comes on later, Zuniga is the enemy's; naming them says so rather than "unknown action"
    screen, match, _ = play("naval-warfare", ["bull", "TIGER", "Zuniga", "bull turn 0 run 0 turn 0"],
                            scenario="mediterranean", agents={1: "random"})
    text = flat(screen)
    assert text.count("Bull is in irons and drifts [rule: rule 7]") == 2
    assert "Tiger arrives on move 3 at the west edge [rule: reinforcements]" in text
    assert "Zuniga is not english's to command" in text
    assert "unknown action" not in text
    assert all(seat != "english" for seat, _ in match.moves)


def test_a_frigate_named_in_a_step_she_has_no_part_in_says_which_step_it_is():
    # blue wins the initiative (seed 0) and orders the segments: Amethyst has no action of her own then
    screen, match, _ = play("frigate", ["sail Amethyst full", "declare Amethyst 2", "AMETHYST"],
                            scenario="sister-frigates", agents={1: "random"})
    assert ("Amethyst has no action in this step (turn 1, order: blue to decide) [rule: sequence-of-play]"
            in flat(screen))
