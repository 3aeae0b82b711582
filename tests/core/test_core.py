"""The game-agnostic core: dice, geometry, events, records, matches, with a toy game that has chance
and a simultaneous hidden decision."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any

import pytest

from quarterdeck import games
from quarterdeck.core.dice import Dice
from quarterdeck.core.errors import IllegalAction, NotationError, RecordError
from quarterdeck.core.events import Drifted, Event, Fired, Hit, Revealed, Struck, Submitted, Turned
from quarterdeck.core.geometry import Compass, SquareGrid, TorusGrid
from quarterdeck.core.protocol import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Game,
    Outcome,
    ScenarioInfo,
    State,
    points_phrase,
)
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match
from quarterdeck.core.words import counted, hits_phrase


def test_dice_are_reproducible_and_fair_enough():
    a, b = Dice(42), Dice(42)
    rolls = [a.roll() for _ in range(6000)]
    assert rolls == [b.roll() for _ in range(6000)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(800 < rolls.count(face) < 1200 for face in range(1, 7))
    c = Dice.from_json(a.to_json())
    assert c.roll(20) == a.roll(20)


def test_compass_turns_and_deltas():
    assert Compass.N.turned(1) is Compass.NE and Compass.N.turned(-1) is Compass.NW
    assert Compass.SW.opposite() is Compass.NE and Compass.E.delta == (1, 0)
    with pytest.raises(NotationError):
        Compass.parse("up")


def test_square_grid_names_rays_and_edges():
    grid = SquareGrid(8, 8)
    assert grid.name((0, 0)) == "a1" and grid.parse("h8") == (7, 7)
    assert list(grid.ray((0, 0), Compass.NE, 3)) == [(1, 1), (2, 2), (3, 3)]
    assert grid.step((0, 0), Compass.S) is None
    with pytest.raises(NotationError) as error:
        grid.parse("i1")
    assert error.value.field == "square"


def test_torus_wraps_at_every_edge_and_corner():
    grid = TorusGrid(8, 8)
    assert grid.step((7, 3), Compass.E) == (0, 3)
    assert grid.step((3, 0), Compass.S) == (3, 7)
    assert grid.step((0, 0), Compass.SW) == (7, 7)
    assert grid.step((7, 7), Compass.NE) == (0, 0)
    assert len(list(grid.ray((0, 0), Compass.E))) == 7  # stops before coming back round
    assert len(set(grid.neighbours((0, 0)))) == 8


def test_events_round_trip_through_json():
    for event in (Fired("Victory", "stbd-beam", 3, "Achille", 2), Hit("Achille", 2, "", "F1 S2 T2"),
                  Revealed(("blue", "red"))):
        assert Event.from_json(event.to_json()) == event
        assert event.describe()


def test_a_place_reads_as_a_square_or_a_point_of_the_open_table():
    assert Turned("Bellona", "d5", "NE").describe() == "Bellona turns to NE on d5"
    assert Turned("Revenge", "(23.54, 20.21)", "0").describe() == "Revenge turns to heading 0 at (23.54, 20.21)"
    assert Struck("Chesapeake", "(48.00, 23.00)").describe() == "Chesapeake strikes her colours at (48.00, 23.00)"
    assert Struck("Java", "1406").describe() == "Java strikes her colours on 1406"


def test_a_hit_reads_as_the_quarter_struck_where_it_came_from_or_what_it_struck():
    assert Hit("Bellona", 1, "fore", "F2 S2 T2").describe() == "Bellona takes 1 hit off the fore, now F2 S2 T2"
    assert Hit("Beagle", 1, "from the guns ahead").describe() == "Beagle takes 1 hit from the guns ahead"
    assert Hit("Java", 2, "to her masts and hull").describe() == "Java takes 2 hits to her masts and hull"
    assert Hit("Essex", -1, "", "crew hit repaired, 0 left").describe() == "Essex: crew hit repaired, 0 left"


def test_fire_reads_as_english_from_a_quarter_a_broadside_or_the_guns_ahead():
    """Square Rigger fires off a quarter, Frigate and Naval Warfare from a broadside, a chaser or the guns
    ahead and astern; each reads as a sentence."""
    said = {bearing: Fired("Santa Ana", bearing, 3, "Bull", 0).describe()
            for bearing in ("stbd-bow", "port", "starboard", "bow", "ahead", "astern")}
    assert said == {
        "stbd-bow": "Santa Ana fires 3 off the stbd-bow at Bull (effect 0)",
        "port": "Santa Ana fires 3 off the port side at Bull (effect 0)",
        "starboard": "Santa Ana fires 3 off the starboard side at Bull (effect 0)",
        "bow": "Santa Ana fires 3 off the bow at Bull (effect 0)",
        "ahead": "Santa Ana fires 3 ahead at Bull (effect 0)",
        "astern": "Santa Ana fires 3 astern at Bull (effect 0)",
    }
    chasers = Fired("Constitution", "bow", 0, "Guerriere", 0)  # a chaser's throw has no strength
    assert chasers.describe() == "Constitution fires off the bow at Guerriere (effect 0)"
    drifted = Drifted("Revenge", "(10.00, 10.00)", "(10.00, 9.00)", "is in irons and drifts (rule 7)")
    assert drifted.describe() == "Revenge is in irons and drifts (rule 7): (10.00, 10.00) -> (10.00, 9.00)"
    counted = Fired("Revenge", "port", 5, "San Martin", 3, "5 batteries, 3 hits")  # a game's own words
    assert counted.describe() == "Revenge fires off the port side at San Martin: 5 batteries, 3 hits"


# --- a toy game: each player secretly picks 1-3, then a die is rolled; highest total + die wins ----
@dataclass(frozen=True)
class Pick:
    value: int


@dataclass(frozen=True)
class Roll:
    value: int


class ToyState(State):
    def __init__(self, game: Game, seed: int):
        self.game = game
        self.dice = Dice(seed)
        self.outcome = None
        self.picks: dict[int, int] = {}
        self.die: int | None = None

    @property
    def players(self):
        return ("blue", "red")

    def current_player(self) -> int:
        if self.outcome:
            return TERMINAL
        return SIMULTANEOUS if len(self.picks) < 2 else CHANCE

    def acting_players(self):
        return [p for p in (0, 1) if p not in self.picks] if len(self.picks) < 2 else []

    def legal_actions(self, player=None, piece=None):
        if self.current_player() == CHANCE:
            return [Roll(v) for v in range(1, 7)]
        return [Pick(v) for v in (1, 2, 3)] if player in self.acting_players() else []

    def chance_outcomes(self):
        return [(Roll(v), 1 / 6) for v in range(1, 7)] if self.current_player() == CHANCE else []

    def _validate(self, action, player):
        if player == CHANCE:
            if not isinstance(action, Roll) or not 1 <= action.value <= 6:
                raise IllegalAction("die", "a die shows 1 to 6")
        elif not isinstance(action, Pick) or action.value not in (1, 2, 3):
            raise IllegalAction("pick", "pick 1, 2 or 3")

    def _apply(self, action, player):
        if isinstance(action, Pick):
            self.picks[player] = action.value
            if len(self.picks) == 2:
                return [Submitted(self.players[player]), Revealed(self.players)]
            return [Submitted(self.players[player])]
        self.die = action.value
        blue = self.picks[0] + self.die
        red = self.picks[1] * 2
        result = "blue" if blue > red else "red" if red > blue else "draw"
        returns = (1.0, -1.0) if result == "blue" else (-1.0, 1.0) if result == "red" else (0.0, 0.0)
        self.outcome = Outcome(returns, result, f"{blue} against {red}")
        return []

    def clone(self):
        copy = ToyState(self.game, 0)
        copy.dice, copy.picks, copy.die, copy.outcome = self.dice.clone(), dict(self.picks), self.die, self.outcome
        return copy

    def observe(self, player):
        copy = self.clone()
        if len(self.picks) < 2:
            copy.picks = {p: v for p, v in self.picks.items() if p == player}
        return copy

    def to_json(self, viewer=None) -> dict[str, Any]:
        picks = self.observe(viewer).picks if viewer is not None else self.picks
        return {"picks": {str(k): v for k, v in picks.items()}, "die": self.die}

    def action_to_text(self, action):
        return f"{'pick' if isinstance(action, Pick) else 'roll'} {action.value}"

    def parse_action(self, text, player=None):
        verb, _, value = text.partition(" ")
        if verb not in ("pick", "roll") or not value.isdigit():
            raise NotationError("action", "pick <n> or roll <n>", text)
        return (Pick if verb == "pick" else Roll)(int(value))


class ToyGame(Game):
    name = "toy"
    title = "Toy"

    def scenarios(self):
        return [ScenarioInfo("standard", "Toy", "A toy.")]

    def new_initial_state(self, scenario=None, options=None, seed=0):
        return ToyState(self, seed)

    def state_from_json(self, data):
        raise RecordError("not needed")

    def rules_summary(self):
        return "toy"


def test_simultaneous_decisions_are_hidden_until_all_are_in():
    state = ToyGame().new_initial_state(seed=1)
    assert state.current_player() == SIMULTANEOUS and state.acting_players() == [0, 1]
    with pytest.raises(IllegalAction) as error:
        state.apply(Pick(2))  # who?
    assert error.value.rule == "turn-order"
    state.apply(Pick(3), player=0)
    assert state.to_json(viewer=1)["picks"] == {}
    assert state.observe(1).picks == {}
    assert state.acting_players() == [1]
    with pytest.raises(IllegalAction):
        state.apply(Pick(1), player=0)  # blue has already decided
    events = state.apply(Pick(1), player=1)
    assert any(isinstance(e, Revealed) for e in events)
    assert state.current_player() == CHANCE


def test_chance_outcomes_come_from_the_states_dice_and_replay_exactly():
    match = Match(ToyGame(), seed=7)
    match.play("pick 2", 0)
    match.play("pick 3", 1)
    roll = match.state.sample_chance()
    match.play(roll, CHANCE)
    record = Record.parse(match.record().to_text())
    assert record.moves[-1] == ("chance", f"roll {roll.value}")
    assert record.final_state(ToyGame()).die == roll.value
    again = Match(ToyGame(), seed=7)
    again.play("pick 2", 0)
    again.play("pick 3", 1)
    assert again.state.sample_chance() == roll  # same seed, same die


def test_drawing_a_chance_outcome_changes_nothing_and_applying_it_spends_the_roll():
    state = ToyGame().new_initial_state(seed=7)
    state.apply(Pick(2), 0)
    state.apply(Pick(3), 1)
    dice = state.dice.to_json()
    roll = state.sample_chance()
    assert state.sample_chance() == roll and state.dice.to_json() == dice  # looking is free
    replayed = ToyGame().new_initial_state(seed=7)
    replayed.apply(Pick(2), 0)
    replayed.apply(Pick(3), 1)
    replayed.apply(roll, CHANCE)  # as a record replays it: the outcome, never drawn
    state.apply(roll, CHANCE)
    assert state.dice.to_json() == replayed.dice.to_json() != dice


def test_resignation_is_shared_notation():
    state = ToyGame().new_initial_state()
    action = state.text_to_action("resign red")
    state.apply(action)
    assert state.outcome.result == "blue" and state.returns() == [1.0, -1.0]


def test_the_end_of_a_game_says_who_won_or_that_it_was_drawn():
    """'game over: dutch' left a player wondering whether the dutch had won or lost."""
    state = ToyGame().new_initial_state()
    events = state.apply(state.text_to_action("resign red"))
    assert state.outcome.verdict == "blue won"
    assert events[-1].describe() == "game over: blue won (red resigned)"
    assert state.describe() == "game over: blue won (red resigned)"
    assert Outcome((0.0, 0.0), "draw", "nightfall").verdict == "a draw"


def test_record_headers_escape_quotes():
    record = Record(game="toy", termination='he said "enough"; resigned')
    assert Record.parse(record.to_text()).termination == 'he said "enough"; resigned'


def test_a_game_set_up_from_a_players_files_replays_only_with_those_files(tmp_path):
    """A record names the player's own scenario or tables file with its digest: edited or gone since,
    the record is refused naming the file, rather than replayed into a game that was never played."""
    square_rigger = games.get("square-rigger")
    shipped = resources.files("quarterdeck.games.square_rigger").joinpath("scenarios", "duel.toml").read_text()
    mine = tmp_path / "my-duel.toml"
    mine.write_text(shipped)
    match = Match(square_rigger, str(mine))
    match.play("move Bellona d4 N")
    text = match.record().to_text()
    record = Record.parse(text)
    assert list(record.files) == [str(mine)] and '[Files "' in text
    assert record.final_state(square_rigger).square == match.state.square
    mine.write_text(shipped.replace("turn_limit = 40", "turn_limit = 39"))
    with pytest.raises(RecordError, match="my-duel.toml has changed since the game was recorded"):
        record.final_state(square_rigger)
    mine.unlink()
    with pytest.raises(RecordError, match="my-duel.toml, which cannot be read now"):
        Match.from_record(record, square_rigger)
    assert Match(square_rigger, "duel").record().files == {}  # a shipped scenario is no player's file
    frigate = games.get("frigate")
    tables = tmp_path / "tables.toml"
    tables.write_text(resources.files("quarterdeck.games.frigate").joinpath("tables.toml").read_text())
    assert list(Match(frigate, "sister-frigates", {"tables": str(tables)}).record().files) == [str(tables)]
    for header in ('[Files "[1]"]', '[Files "{\\"a.toml\\": 3}"]', '[Files "nonsense"]'):
        with pytest.raises(RecordError, match="Files header"):
            Record.parse(f'[Game "square-rigger"]\n{header}\n')


def test_match_history_hides_secret_decisions_until_the_reveal():
    match = Match(ToyGame(), seed=3)
    match.play("pick 3", 0)
    assert match.moves_for(1) == [] and match.events_for(1) == []  # not even that blue has picked
    assert match.moves_for(0) == [("blue", "pick 3")]
    match.play("pick 1", 1)
    assert match.moves_for(1) == [("blue", "pick 3"), ("red", "pick 1")]
    match.undo()
    assert match.moves_for(1) == []
    reloaded = Match.from_record(Record.parse(match.record().to_text()), ToyGame())
    assert reloaded.moves_for(1) == [] and reloaded.moves_for(0) == [("blue", "pick 3")]


class RematchState(ToyState):
    """Two rounds of secret picks back to back: the first reveal leads straight into the second."""

    def __init__(self, game: Game, seed: int):
        super().__init__(game, seed)
        self.first: dict[int, int] | None = None

    def _apply(self, action, player):
        events = super()._apply(action, player)
        if self.first is None and len(self.picks) == 2:
            self.first, self.picks = self.picks, {}
        return events

    def clone(self):
        copy = RematchState(self.game, 0)
        copy.__dict__.update(super().clone().__dict__)
        copy.first = self.first
        return copy


class RematchGame(ToyGame):
    def new_initial_state(self, scenario=None, options=None, seed=0):
        return RematchState(self, seed)


def test_match_history_shows_a_revealed_phase_that_runs_straight_into_the_next():
    match = Match(RematchGame(), seed=3)
    match.play("pick 3", 0)
    match.play("pick 1", 1)  # Revealed, and at once the second round of secret picks
    assert match.state.current_player() == SIMULTANEOUS
    revealed = [("blue", "pick 3"), ("red", "pick 1")]
    assert match.moves_for(1) == revealed
    match.play("pick 2", 0)
    assert match.moves_for(1) == revealed and len(match.events_for(1)) == 2
    assert match.moves_for(0) == [*revealed, ("blue", "pick 2")]


def test_counts_read_as_english():
    assert [counted(n, "word") for n in (0, 1, 2)] == ["0 words", "1 word", "2 words"]
    assert counted(3, "battery", "batteries") == "3 batteries"
    assert [hits_phrase(n) for n in (0, 1, 4)] == ["no hit", "1 hit", "4 hits"]
    assert points_phrase(("british", "french"), (2, 82)) == "points: british 2, french 82"
    assert [points_phrase(("blue", "red"), (n, n)) for n in (0, 1)] == ["0 points each", "1 point each"]
    assert Outcome.on_points(("blue", "red"), (2, 5), "the 15 game-turns are over") == Outcome(
        (-1.0, 1.0), "red", "the 15 game-turns are over; points: blue 2, red 5")
    assert Outcome.on_points(("blue", "red"), (3, 3), "nightfall").returns == (0.0, 0.0)
