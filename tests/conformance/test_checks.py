"""The suite's checks catch what they are meant to catch: each runs on a small sound game and
passes, and on the same game with one deliberate defect and fails, naming it."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest

from quarterdeck.core.errors import IllegalAction, RecordError, ScenarioError, unknown_option, unknown_scenario
from quarterdeck.core.events import Revealed
from quarterdeck.core.files import is_file_name, read_toml
from quarterdeck.core.protocol import Resign, ScenarioInfo
from tests.ai.toy_games import Goofspiel, GoofspielState, Nim, NimState, Pig, PigState, ToyState

from . import checks
from .playout import play


class RevealingGoofspielState(GoofspielState):
    """Goofspiel's rounds follow one another at once, so each reveal says so (protocol.py)."""

    def _apply(self, action, player):
        events = super()._apply(action, player)
        return [*events, Revealed(self.players)] if self.data["secret"] == [None, None] else events


class RevealingGoofspiel(Goofspiel):
    state_class = RevealingGoofspielState


def toy(base, name: str, **methods):
    """`base` game with its state class changed by `methods`: one deliberate defect."""
    state_class = type(name, (base.state_class,), methods)
    return type(name.replace("State", ""), (base,), {"state_class": state_class})()


SOUND = [Nim(), Pig(), RevealingGoofspiel()]
TICKS = itertools.count()


def run_all(game, seed: int = 1):
    out = play(game, None, seed, 200)
    checks.check_play_and_end(out)
    checks.check_offered_actions_are_accepted(out)
    checks.check_notation_round_trips(out)
    checks.check_saved_states_round_trip(out)
    checks.check_record_replays(out)
    checks.check_actions_by_piece(out)
    checks.check_events(out)
    checks.check_problems(out, "secrecy")
    return out


@pytest.mark.parametrize("game", SOUND, ids=lambda game: game.name)
def test_sound_games_pass_every_check(game):
    out = run_all(game)
    assert out.reached_end
    for position in out.positions:
        if position.state.is_terminal():
            continue
        state = position.state
        player = checks.seats_to_act(state)[0]
        seat = None if player < 0 else player
        for action in checks.offered(state, player)[:3]:
            checks.check_action(state, seat, action)
            checks.check_text(state, seat, state.action_to_text(action) + " x")
            checks.check_finished(out.final, seat, action)
    checks.check_finished(out.final, None, Resign(1))


def test_chance_and_secrets_are_exercised_by_the_sound_games():
    assert play(Pig(), None, 1, 200).chance_nodes > 0
    assert play(RevealingGoofspiel(), None, 1, 200).secret_submissions > 0


def test_a_view_that_shows_the_other_seats_card_is_caught():
    leaky = toy(RevealingGoofspiel, "LeakyState", to_json=ToyState.to_json)
    with pytest.raises(AssertionError, match=r"red's to_json\(viewer\)"):
        checks.check_problems(play(leaky, None, 1, 200), "secrecy")


def test_legal_actions_that_betray_the_other_seats_card_are_caught():
    def _legal(self, player):  # a card the other side has secretly played is refused
        taken = [card for seat, card in enumerate(self.data["secret"]) if seat != player]
        return [card for card in GoofspielState._legal(self, player) if card not in taken]

    peeking = toy(RevealingGoofspiel, "PeekingState", _legal=_legal)
    with pytest.raises(AssertionError, match="legal_actions"):
        checks.check_problems(play(peeking, None, 2, 200), "secrecy")


def test_a_secret_phase_without_a_revealed_event_is_caught():
    with pytest.raises(AssertionError, match="Revealed"):
        checks.check_problems(play(Goofspiel(), None, 1, 200), "secrecy")


def test_a_clone_that_shares_its_data_is_caught():
    def clone(self):
        return type(self)(self.game, self.data, self.dice.clone())

    shared = toy(Nim, "SharedCloneState", clone=clone)
    out = play(shared, None, 1, 200)
    with pytest.raises(AssertionError, match="changed while the original played on"):
        checks.check_problems(out, "clone")


def test_a_refusal_that_changes_the_state_is_caught():
    def _validate(self, action, player):
        self.data["attempts"] = self.data.get("attempts", 0) + 1
        NimState._validate(self, action, player)

    careless = toy(Nim, "CarelessState", _validate=_validate).new_initial_state()
    with pytest.raises(AssertionError, match="changed the state"):
        checks.check_action(careless, 0, ("take", 0, 3 + 1))


def test_an_action_accepted_though_not_offered_is_caught():
    lax = toy(Nim, "LaxState", _validate=lambda self, action, player: None).new_initial_state()
    with pytest.raises(AssertionError, match="not offered"):
        checks.check_action(lax, 0, ("take", 0, 9))


def test_an_offered_action_that_is_refused_is_caught():
    def _validate(self, action, player):
        if action == ("take", 2, 1):
            raise IllegalAction("toy", "offered, then refused")
        NimState._validate(self, action, player)

    fickle = toy(Nim, "FickleState", _validate=_validate)
    with pytest.raises(AssertionError, match="refused"):
        checks.check_offered_actions_are_accepted(play(fickle, None, 1, 200))


def test_an_idle_reason_given_for_a_piece_that_can_act_is_caught():
    def idle_reason(self, piece, player):
        return IllegalAction("toy", f"{piece} may not be taken from")

    grudging = toy(Nim, "GrudgingState", idle_reason=idle_reason)
    with pytest.raises(AssertionError, match="has actions, yet idle_reason says"):
        checks.check_actions_by_piece(play(grudging, None, 1, 200))


def test_notation_that_reads_back_as_another_action_is_caught():
    def parse_action(self, text, player=None):
        action = NimState.parse_action(self, text, player)
        return ("take", action[1], 1) if isinstance(action, tuple) else action

    misread = toy(Nim, "MisreadState", parse_action=parse_action)
    with pytest.raises(AssertionError, match="gave"):
        checks.check_notation_round_trips(play(misread, None, 1, 200))


def test_a_seat_left_without_legal_actions_is_caught():
    def _legal(self, player):
        return [] if sum(self.data["piles"]) < 6 else NimState._legal(self, player)

    stuck = toy(Nim, "StuckState", _legal=_legal)
    with pytest.raises(AssertionError, match="no legal action"):
        checks.check_problems(play(stuck, None, 1, 200), "play")


def test_a_game_that_depends_on_more_than_its_record_is_caught():
    def _apply(self, action, player):
        self.data["tick"] = next(TICKS)  # a counter outside the state: replays differ
        return PigState._apply(self, action, player)

    forgetful = toy(Pig, "TickingState", _apply=_apply)
    with pytest.raises(AssertionError, match="replay differs"):
        checks.check_record_replays(play(forgetful, None, 1, 200))


def test_actions_offered_after_the_end_are_caught():
    def legal_actions(self, player=None, piece=None):
        return self._legal(0) or ["end"]

    endless = toy(Nim, "EndlessState", legal_actions=legal_actions)
    out = play(Nim(), None, 1, 200)
    out.match.state = endless.state_from_json(out.final.to_json())
    with pytest.raises(AssertionError, match="after the end"):
        checks.check_play_and_end(out)


def test_a_saved_state_read_without_care_is_caught():
    with pytest.raises(KeyError):
        checks.check_bad_saved_state(Nim(), {"dice": 0})


def test_a_rules_reference_must_name_and_quote_its_seed(tmp_path: Path):
    (tmp_path / "007_0000.txt").write_text("Ships move one square.\nA ship fires at the nearest enemy ship.\n")
    sections = "".join(f"## {n}. Part\n" for n in range(1, 4))
    quotes = '"Ships move one square." "A ship fires at the nearest enemy ship." ' * 3
    checks.check_rules_reference("toy", f"From seed 007.\n{sections}{quotes}", tmp_path)
    with pytest.raises(AssertionError, match="names no seed"):
        checks.check_rules_reference("toy", f"{sections}{quotes}", tmp_path)
    invented = '"Ships may fly over the land at will." ' * 6
    checks.check_rules_reference("toy", f"seed 007\n{sections}{invented}", None)  # no books at hand
    with pytest.raises(AssertionError, match="stand in seed 007"):
        checks.check_rules_reference("toy", f"seed 007\n{sections}{invented}", tmp_path)


def test_an_event_that_is_not_typed_is_caught():
    def _apply(self, action, player):
        return [*NimState._apply(self, action, player), f"took {action}"]

    chatty = toy(Nim, "ChattyState", _apply=_apply)
    with pytest.raises(AssertionError, match="not an Event"):
        checks.check_events(play(chatty, None, 1, 200))


def offering(options: dict, notes: dict, sides: dict | None = None):
    """Pig whose one scenario offers `options`, says `notes` of them and describes `sides`."""
    info = ScenarioInfo("standard", "Pig", "Roll or hold.", options, notes, sides=sides or {})
    return type("OfferingPig", (Pig,), {"scenarios": lambda self: [info]})()


def test_a_scenario_option_that_does_not_say_what_it_does_or_misstates_its_default_or_a_strange_side_is_caught():
    checks.check_scenario_options(offering({"target": 20}, {"target": "points to win"}))
    with pytest.raises(AssertionError, match="'target' does not say what it does"):
        checks.check_scenario_options(offering({"target": 20}, {}))
    with pytest.raises(AssertionError, match="defaults as offered start another game"):
        checks.check_scenario_options(offering({"target": 30}, {"target": "points to win"}))
    with pytest.raises(AssertionError, match="not among seats"):
        checks.check_scenario_options(offering({}, {}, {"green": "a seat the game does not have"}))


class CheckedPig(Pig):
    """Pig that refuses an unknown scenario and option, and a saved state that is no state, the way
    every game does."""

    def scenarios(self):
        return [ScenarioInfo("standard", "Pig", "Roll or hold.", {"target": 20}, {"target": "points to win"})]

    def new_initial_state(self, scenario=None, options=None, seed: int = 0):
        if scenario not in (None, "standard"):
            raise self.no_scenario(scenario)
        unknown = sorted(set(options or {}) - {"target"})
        if unknown:
            raise self.no_option(unknown[0])
        return super().new_initial_state(scenario, options, seed)

    def state_from_json(self, data):
        if not isinstance(data, dict) or "data" not in data:
            raise RecordError("a saved Pig is a table with its data")
        return super().state_from_json(data)

    def no_scenario(self, name):
        return unknown_scenario(name, ["standard"])

    def no_option(self, key):
        return unknown_option(key, ["target"])


class FilePig(CheckedPig):
    """CheckedPig that also starts from a player's scenario file, `target = N`."""

    def new_initial_state(self, scenario=None, options=None, seed: int = 0):
        if scenario is not None and is_file_name(scenario):
            return super().new_initial_state(None, {"target": self.target(self.read(scenario))}, seed)
        return super().new_initial_state(scenario, options, seed)

    def scenario_info(self, scenario):
        if is_file_name(scenario):
            target = self.target(self.read(scenario))
            return ScenarioInfo(scenario, f"Pig to {target}", f"The first to {target} points wins.")
        return super().scenario_info(scenario)

    def read(self, path):
        return read_toml(path)

    def target(self, data):
        target = data.get("target", 20)
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise ScenarioError("target", f"points to win, a whole number, not {target!r}")
        return target


class CrashingFilePig(FilePig):
    def target(self, data):
        return int(data["target"])  # a list there is a TypeError, not a refusal naming the field


class CarelessFilePig(FilePig):
    def read(self, path):
        try:
            return tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:  # a file that is not UTF-8 text escapes as a UnicodeDecodeError
            raise ScenarioError("scenario", f"cannot read {path}: {exc}") from None


class DeepFilePig(FilePig):
    def read(self, path):
        try:
            return tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:  # not the reader's RecursionError
            raise ScenarioError("scenario", f"cannot read {path}: {exc}") from None


def refusing(**refusals):
    """CheckedPig with one of its refusals worded its own way."""
    return type("RefusingPig", (CheckedPig,), {name: lambda self, what, made=made: made(what)
                                               for name, made in refusals.items()})()


def test_an_unknown_scenario_or_option_refused_in_other_words_or_without_the_list_is_caught():
    checks.check_setup_errors(CheckedPig())
    with pytest.raises(AssertionError, match="not the one refusal"):
        checks.check_setup_errors(refusing(no_option=lambda key: ScenarioError(f"options.{key}", "unknown option")))
    with pytest.raises(AssertionError, match="does not list the options there are"):
        checks.check_setup_errors(refusing(no_option=lambda key: unknown_option(key, [])))
    with pytest.raises(AssertionError, match="does not name the option"):
        checks.check_setup_errors(refusing(no_option=lambda key: unknown_option("options", ["target"])))
    with pytest.raises(AssertionError, match="does not list the scenarios there are"):
        checks.check_setup_errors(refusing(no_scenario=lambda name: unknown_scenario(name, [])))
    with pytest.raises(AssertionError, match="not the one refusal"):
        checks.check_setup_errors(refusing(no_scenario=lambda name: ScenarioError("scenario", f"unknown {name}")))


def test_a_scenario_file_not_in_utf8_or_nested_too_deep_escaping_as_another_error_is_caught():
    checks.check_setup_errors(FilePig())
    with pytest.raises(AssertionError, match="not UTF-8 text given as the scenario raised UnicodeDecodeError"):
        checks.check_setup_errors(CarelessFilePig())
    with pytest.raises(AssertionError, match="5000 deep given as the scenario raised RecursionError"):
        checks.check_setup_errors(DeepFilePig())


def test_a_scenario_file_that_breaks_the_game_instead_of_being_refused_is_caught(tmp_path):
    path = tmp_path / "pig.toml"
    path.write_text("target = 5\n")
    checks.check_scenario_file(FilePig(), path)  # starts and plays
    path.write_text("target = [20]\n")
    checks.check_scenario_file(FilePig(), path)  # refused, naming `target`
    with pytest.raises(AssertionError, match="pig.toml raised TypeError"):
        checks.check_scenario_file(CrashingFilePig(), path)
