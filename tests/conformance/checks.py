"""The promises of the game protocol (src/quarterdeck/core/protocol.py), as checks on any game.

Each check raises AssertionError naming the position, the seat and the action at fault. They know
nothing of any particular game: the test modules run them on every registered game and scenario,
and test_checks.py runs them on small broken games to show that each one can fail.
"""

from __future__ import annotations

import copy
import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from quarterdeck.core.errors import IllegalAction, NotationError, QuarterdeckError, RecordError, ScenarioError
from quarterdeck.core.events import Event
from quarterdeck.core.protocol import CHANCE, TERMINAL, Action, Game, Resign, State
from quarterdeck.core.record import Record
from quarterdeck.core.session import Match

from .playout import Playout, Position, is_offered, label, notation_problem, offered, offered_by_piece, play

ACTIONS_TRIED = 12  # offered actions applied to a clone at each kept position


def seats_to_act(state: State) -> list[int]:
    """The acting seats, or CHANCE at a chance node."""
    return [CHANCE] if state.current_player() == CHANCE else state.acting_players()


def where(position: Position) -> str:
    return f"before move {position.step + 1} ({position.state.describe()})"


# --- play to the end -------------------------------------------------------------------------
def check_problems(playout: Playout, check: str) -> None:
    found = playout.problems_of(check)
    assert not found, f"{check}:\n  " + "\n  ".join(found)


def check_play_and_end(playout: Playout) -> None:
    """Play went by the protocol (playout.py, ``play``), and the final position is over and says so
    everywhere: no one acts, no one is offered anything, the returns agree within each side."""
    check_problems(playout, "play")
    state = playout.final
    assert state.is_terminal() and state.outcome is not None
    assert state.current_player() == TERMINAL, f"current_player() is {state.current_player()} at the end"
    assert state.acting_players() == [], f"acting_players() is {state.acting_players()} at the end"
    for seat in range(len(state.players)):
        assert state.legal_actions(seat) == [], f"{state.players[seat]} is offered actions after the end"
    returns = state.outcome.returns
    assert len(returns) == len(state.players), f"returns {returns} for {len(state.players)} seats"
    assert all(-1.0 <= r <= 1.0 for r in returns), f"returns {returns} outside [-1, 1]"
    assert list(returns) == state.returns()
    by_team: dict[str, set[float]] = {}
    for seat, value in enumerate(returns):
        by_team.setdefault(state.team_of(seat), set()).add(value)
    assert all(len(values) == 1 for values in by_team.values()), f"seats of one side differ: {by_team}"


def check_secrets(playout: Playout) -> None:
    """No simultaneous decision showed to another seat before the reveal (playout.py, ``secrecy``)."""
    if not playout.secret_submissions:
        pytest.skip("no simultaneous decision was made in this game")
    check_problems(playout, "secrecy")


def check_views_hide_the_dice(playout: Playout) -> None:
    """No seat's view carries the dice: the same position with other rolls to come looks the same to
    every seat (and to a spectator, the seat nobody holds), so no one can read the next throw."""
    for position in playout.positions:
        state = position.state
        if getattr(state, "dice", None) is None:
            continue
        views = [state.to_json(viewer=seat) for seat in range(len(state.players) + 1)]
        rerolled = state.clone()
        assert rerolled.dice is not state.dice, f"{where(position)}: a clone shares the dice"
        rerolled.dice.next_u64()
        for seat, view in enumerate(views):
            name = state.players[seat] if seat < len(state.players) else "a spectator"
            assert rerolled.to_json(viewer=seat) == view, f"{where(position)}: {name}'s view shows the dice to come"


# --- offered actions, clones and saved states --------------------------------------------------
def check_offered_actions_are_accepted(playout: Playout) -> None:
    """Every action chosen in play was accepted, and at every kept position offered actions apply
    to a clone and leave the original as it was."""
    check_problems(playout, "accepted")
    rng = random.Random(playout.seed)
    for position in playout.positions:
        state = position.state
        for player in seats_to_act(state):
            actions = offered_by_piece(state, player)
            for action in actions if len(actions) <= ACTIONS_TRIED else rng.sample(actions, ACTIONS_TRIED):
                trial = state.clone()
                assert trial.to_json() == position.data, f"{where(position)}: the clone differs from the original"
                try:
                    trial.apply(action, None if player == CHANCE else player)
                except QuarterdeckError as exc:
                    text = state.action_to_text(action)
                    raise AssertionError(
                        f"{where(position)}: offered {label(state, player)} {text!r}, refused: {exc}"
                    ) from None
                assert state.to_json() == position.data, (
                    f"{where(position)}: applying {state.action_to_text(action)!r} to a clone changed the original"
                )


def check_actions_by_piece(playout: Playout) -> None:
    """`legal_actions(player, piece)` holds every action of the full list that `action_piece` gives
    to that piece, and only actions of that piece; and a piece with an action has no `idle_reason`
    (the reason would be told to a player who named a piece that can act)."""
    for position in playout.positions:
        state = position.state
        for player in state.acting_players():
            shares: dict[str, set[str]] = {}
            for action in state.legal_actions(player):
                piece = state.action_piece(action)
                if piece is not None:
                    shares.setdefault(piece, set()).add(state.action_to_text(action))
            for piece, share in shares.items():
                listed = state.legal_actions(player, piece=piece)
                missing = share - {state.action_to_text(a) for a in listed}
                assert not missing, f"{where(position)}: legal_actions(piece={piece!r}) lacks {sorted(missing)[:4]}"
                strays = [state.action_to_text(a) for a in listed if state.action_piece(a) != piece]
                assert not strays, f"{where(position)}: legal_actions(piece={piece!r}) lists {strays[:4]}"
                idle = state.idle_reason(piece, player)
                assert idle is None, f"{where(position)}: {piece!r} has actions, yet idle_reason says {idle}"


def check_notation_round_trips(playout: Playout) -> None:
    """Every action chosen in play, and every offered action (and chance outcome) of every kept
    position, reads back from its notation."""
    check_problems(playout, "notation")
    for position in playout.positions:
        state = position.state
        for player in seats_to_act(state):
            texts: dict[str, Action] = {}
            for action in offered_by_piece(state, player):
                problem = notation_problem(state, player, action)
                assert problem is None, f"{where(position)}, {label(state, player)}: {problem}"
                text = state.action_to_text(action)
                assert texts.setdefault(text, action) == action, f"{where(position)}: two actions read {text!r}"
        assert state.to_json() == position.data, f"{where(position)}: writing or reading notation changed the state"


def check_saved_states_round_trip(playout: Playout) -> None:
    """Kept clones never followed the original, and state_from_json(to_json()) is the same position:
    same JSON, same seats to act, same actions; to_json() hands out data of its own."""
    check_problems(playout, "clone")
    game = playout.game
    for position in playout.positions:
        state = position.state
        restored = game.state_from_json(state.to_json())
        assert restored.to_json() == position.data, (
            f"{where(position)}: to_json -> state_from_json -> to_json differs, "
            f"{difference(position.data, restored.to_json())}"
        )
        assert restored.current_player() == state.current_player(), f"{where(position)}: another decider"
        assert restored.acting_players() == state.acting_players(), f"{where(position)}: other seats to act"
        for player in seats_to_act(state):
            mine = [state.action_to_text(a) for a in offered(state, player)]
            theirs = [restored.action_to_text(a) for a in offered(restored, player)]
            assert mine == theirs, f"{where(position)}: the saved state offers {label(state, player)} other actions"
        assert state.clone().to_json() == position.data, f"{where(position)}: clone().to_json() differs"
        loose = game.state_from_json(copy.deepcopy(position.data))  # scribbled on, so never the kept one
        _scribble(loose.to_json())
        assert loose.to_json() == position.data, (
            f"{where(position)}: to_json() hands out the state's own data, {difference(position.data, loose.to_json())}"
        )
        for seat in range(len(state.players)):
            assert state.observe(seat).to_json(viewer=seat) == state.to_json(viewer=seat), (
                f"{where(position)}: observe({seat}) shows {state.players[seat]} other than to_json(viewer={seat})"
            )


def difference(expected: Any, found: Any, path: str = "") -> str | None:
    """Where JSON `found` first departs from `expected` (at a path such as ``/ships/0/square``), or None."""
    if type(expected) is not type(found):
        return f"at {path or '/'} {_short(found)} where {_short(expected)} was expected"
    if isinstance(expected, dict):
        for key in sorted(set(expected) | set(found), key=str):
            if key not in found or key not in expected:
                return f"at {path}/{key}: {'missing' if key in expected else 'not expected'}"
            departure = difference(expected[key], found[key], f"{path}/{key}")
            if departure:
                return departure
        return None
    if isinstance(expected, list):
        for index, (a, b) in enumerate(zip(expected, found, strict=False)):
            departure = difference(a, b, f"{path}/{index}")
            if departure:
                return departure
        if len(expected) != len(found):
            return f"at {path or '/'} {len(found)} items where {len(expected)} were expected"
        return None
    return None if expected == found else f"at {path or '/'} {_short(found)} where {_short(expected)} was expected"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _scribble(data: Any) -> None:
    """Change every container in `data` in place, as a caller that keeps and edits its JSON would."""
    if isinstance(data, dict):
        for value in data.values():
            _scribble(value)
        data["scribbled"] = True
    elif isinstance(data, list):
        for value in data:
            _scribble(value)
        data.append("scribbled")


def check_bad_saved_state(game: Game, data: Any) -> None:
    """Corrupt saved data is refused with RecordError or read as some state, never another exception."""
    try:
        game.state_from_json(data)
    except RecordError:
        pass


# --- records -------------------------------------------------------------------------------
def check_record_replays(playout: Playout) -> None:
    """The record, written and read back as text, replays through every kept position to the end."""
    match, game = playout.match, playout.game
    text = match.record().to_text()
    record = Record.parse(text)
    assert record.moves == match.moves, "the record's moves differ from the match's"
    kept = {position.step: position for position in playout.positions}
    replayed = game.new_initial_state(record.scenario, record.options, record.seed)
    if 0 in kept:
        assert replayed.to_json() == kept[0].data, "the replayed setup differs from the played one"
    for step, (replayed, _, events) in enumerate(record.replay(game), start=1):
        seat, move = record.moves[step - 1]
        assert events == match.events[step - 1], f"move {step} ({seat} {move}) reports other events in the replay"
        if step in kept:
            found = difference(kept[step].data, replayed.to_json())
            assert found is None, f"after move {step} ({seat} {move}) the replay differs, {found}"
    final = playout.final.to_json()
    assert replayed.to_json() == final, f"the replayed final position differs, {difference(final, replayed.to_json())}"
    again = Match.from_record(record, game)
    assert again.state.to_json() == playout.final.to_json(), "Match.from_record reaches another final position"
    assert again.moves == match.moves and again.record().to_text() == text


def check_events(playout: Playout) -> None:
    """Every event of the game is a typed Event that goes through JSON text and back unchanged and
    describes itself in words (core/events.py), as the browser and the logs take them."""
    for number, events in enumerate(playout.match.events, start=1):
        for event in events:
            assert isinstance(event, Event), f"move {number} reports {event!r}, not an Event"
            back = Event.from_json(json.loads(json.dumps(event.to_json())))
            assert back == event, f"move {number}: {event!r} comes back from JSON as {back!r}"
            assert isinstance(event.describe(), str) and event.describe(), f"move {number}: {event!r} has no words"


# --- refusal -------------------------------------------------------------------------------
def check_action(state: State, player: int | None, action: Action) -> None:
    """Apply `action` for `player` to a clone of `state`: an offered action must be accepted; one
    not offered must be refused with IllegalAction, leaving the state as it was. For a game with
    continuous actions a move outside the sample may be legal: then acceptance must agree with the
    game's own validation."""
    before = state.to_json()
    trial = state.clone()
    if isinstance(action, Resign):
        return  # resigning is always open before the end (protocol.py, Resign)
    seat = _resolved(state, player)
    legal = seat is not None and is_offered(state, seat, action)
    may_be_legal = legal or (seat not in (None, CHANCE) and state.game.continuous_actions)
    text = _text(state, action)
    who = "nobody" if seat is None else label(state, seat)
    try:
        trial.apply(action, player)
    except IllegalAction:
        assert not legal, f"{who} was offered {text!r} but it was refused"
        assert trial.to_json() == before, f"refusing {text!r} for {who} changed the state"
        return
    assert may_be_legal, f"{text!r} was accepted for {who} (player={player}) but it is not offered"
    if not legal:
        try:
            state.clone()._validate(action, seat)
        except IllegalAction as exc:
            raise AssertionError(
                f"{text!r} was accepted for {who}, but the game's own validation says: {exc}"
            ) from None
        problem = notation_problem(state, seat, action)  # an accepted measured move must go into a record
        assert problem is None, f"{text!r} was accepted for {who}: {problem}"


def check_finished(state: State, player: int | None, action: Action) -> None:
    """A finished game refuses every action, resignations included, and stays as it was."""
    before = state.to_json()
    trial = state.clone()
    with pytest.raises(IllegalAction):
        trial.apply(action, player)
    assert trial.to_json() == before, f"refusing {_text(state, action)!r} after the end changed the state"


def check_text(state: State, player: int | None, text: str) -> None:
    """Typed text is refused with NotationError or IllegalAction, or reads as an action that is
    then accepted or refused by `check_action`; nothing else is raised and nothing changes."""
    before = state.to_json()
    try:
        action = state.text_to_action(text, player)
    except (NotationError, IllegalAction):
        assert state.to_json() == before, f"refusing the text {text!r} changed the state"
        return
    assert state.to_json() == before, f"reading the text {text!r} changed the state"
    check_action(state, player, action)


def _resolved(state: State, player: int | None) -> int | None:
    """Who `apply(action, player)` acts for, or None where it must refuse for turn order."""
    to_act = state.current_player()
    if to_act == CHANCE:
        return CHANCE if player in (None, CHANCE) else None
    acting = state.acting_players()
    if player is None:
        return acting[0] if len(acting) == 1 else None
    return player if player in acting else None


def _text(state: State, action: Action) -> str:
    try:
        return state.text_of(action)
    except Exception:  # noqa: BLE001 - an action of another position may not be writable here
        return repr(action)


# --- setup ----------------------------------------------------------------------------------
def check_setup_errors(game: Game) -> None:
    """The default scenario is shipped; an unknown scenario or option is a ScenarioError naming it."""
    names = [info.name for info in game.scenarios()]
    assert names, "the game ships no scenario"
    assert len(set(names)) == len(names), f"scenario names repeat: {names}"
    assert game.default_scenario in names, f"default scenario {game.default_scenario!r} is not among {names}"
    assert game.new_initial_state(None).to_json() == game.new_initial_state(game.default_scenario).to_json()
    with pytest.raises(ScenarioError) as error:
        game.new_initial_state("no-such-scenario")
    assert error.value.field == "scenario", f"the error does not name the scenario: {error.value}"
    refusal = "no scenario 'no-such-scenario'; scenarios are "
    assert error.value.message.startswith(refusal), f"not the one refusal: {error.value}"
    missing = [name for name in names if name not in error.value.message]
    assert not missing, f"refusing an unknown scenario, the error does not list the scenarios there are: {missing}"
    with pytest.raises(ScenarioError) as error:
        game.new_initial_state(None, {"no-such-option": 1})
    assert error.value.field == "options.no-such-option", f"the error does not name the option: {error.value}"
    assert error.value.message.startswith("no such option; options are "), f"not the one refusal: {error.value}"
    offered = next(info for info in game.scenarios() if info.name == game.default_scenario).options
    missing = [option for option in offered if option not in error.value.message]
    assert not missing, f"refusing an unknown option, the error does not list the options there are: {missing}"
    for info in game.scenarios():
        assert game.scenario_info(info.name) == info, f"scenario_info({info.name!r}) is not the scenario as listed"
    with pytest.raises(ScenarioError) as error:
        game.scenario_info("no-such-scenario")
    assert error.value.message.startswith(refusal), f"scenario_info refuses an unknown name otherwise: {error.value}"
    with pytest.raises(ScenarioError) as error:
        game.new_initial_state(str(Path("no-such-folder") / "no-such-scenario.toml"))
    assert error.value.field == "scenario", f"a scenario file that is not there is not refused by name: {error.value}"
    with tempfile.TemporaryDirectory() as folder:
        not_text = Path(folder) / "latin-1.toml"
        not_text.write_bytes('title = "Trafalgar, Cape Finist\u00e8re"\n'.encode("latin-1"))
        a_folder = Path(folder) / "a-folder.toml"
        a_folder.mkdir()
        deep = Path(folder) / "deep.toml"
        deep.write_text("title = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
        for path, what in (
            (not_text, "a scenario file that is not UTF-8 text"),
            (a_folder, "a folder"),
            (deep, "a scenario file nesting arrays 5000 deep"),
        ):
            _refused_as_the_scenario(game, path, what)
    for data in ({}, [], None, "text"):
        with pytest.raises(RecordError):
            game.state_from_json(data)


def _refused_as_the_scenario(game: Game, path: Path, what: str) -> None:
    try:
        game.new_initial_state(str(path))
    except ScenarioError as error:
        assert error.field == "scenario", f"{what} is refused naming {error.field!r}, not the scenario: {error}"
    except Exception as error:  # noqa: BLE001 - any other error is the finding
        raise AssertionError(
            f"{what} given as the scenario raised {type(error).__name__}: {error}, not a ScenarioError"
        ) from error
    else:
        raise AssertionError(f"{what} given as the scenario started a game")


def check_scenario_file(game: Game, path: Path, moves: int = 8) -> None:
    """A scenario file given by its path (a player's own, typed by hand) starts a game that plays by
    the protocol, or is refused with a ScenarioError naming the field at fault: whatever the file
    holds, no other error escapes."""
    text = path.read_text(encoding="utf-8")
    try:
        playout = play(game, str(path), 0, moves)
    except ScenarioError as error:
        assert error.field, f"refusing {path.name}, the error names no field: {error}\n--- the file:\n{text}"
        with pytest.raises(ScenarioError):  # nor is its briefing shown, as if it could be played
            game.scenario_info(str(path))
        return
    except Exception as error:  # noqa: BLE001 - any other error is the finding
        raise AssertionError(
            f"{path.name} raised {type(error).__name__}: {error}, not a ScenarioError naming the field at fault"
            f"\n--- the file:\n{text}"
        ) from error
    found = playout.problems_of("play")
    listed = "\n  ".join(found)
    assert not found, f"the game {path.name} starts does not play:\n  {listed}\n--- the file:\n{text}"
    info = game.scenario_info(str(path))
    assert info.name == str(path) and info.title.strip(), f"{path.name} plays, but scenario_info gives {info}"


def check_scenario_options(game: Game) -> None:
    """Every option a scenario offers says what it does; an option of a few names offers its default
    among them and each name starts the scenario; the defaults as offered start the same game as none;
    the seats it describes are its own."""
    for info in game.scenarios():
        for option in info.options:
            assert info.notes.get(option, "").strip(), f"{info.name}: option {option!r} does not say what it does"
        for option, names in info.choices.items():
            assert option in info.options, f"{info.name}: choices for {option!r}, which it does not offer"
            default = info.options[option]
            assert default in names, f"{info.name}: {option!r} defaults to {default!r}, not one of {names}"
            for name in names:
                game.new_initial_state(info.name, {option: name})
        seats = game.scenario_seats(info.name)
        assert set(info.sides) <= set(seats), f"{info.name}: sides {sorted(info.sides)} not among seats {seats}"
        # a state may keep the options as they were given: everything else must be the same
        as_offered = {**game.new_initial_state(info.name, dict(info.options)).to_json(), "options": None}
        as_shipped = {**game.new_initial_state(info.name).to_json(), "options": None}
        assert as_offered == as_shipped, f"{info.name}: its defaults as offered start another game"


# --- the rules reference ----------------------------------------------------------------------
SEED_NAME = re.compile(r"\b(?:seed\s+|seeds/)(\d{3})(?!\d)")  # three digits: "seed 2027" is an arena's seed, not a book
QUOTE = re.compile(r"[\"“]([^\"“”\n]{12,}?)[\"”]")
QUOTES_NEEDED = 5


def check_rules_reference(name: str, text: str, seeds: Path | None) -> None:
    """docs/rules/<name>.md names its seed and quotes the book's words, which (where the seeds are
    at hand) really stand in that seed; and it is laid out in sections."""
    numbers = sorted(set(SEED_NAME.findall(text)))
    assert numbers, f"docs/rules/{name}.md names no seed ('seed NNN' or 'seeds/NNN...')"
    assert len(re.findall(r"^#{2,3} ", text, re.MULTILINE)) >= 3, f"docs/rules/{name}.md has no sections"
    quotes = [part for quote in QUOTE.findall(text) for part in _fragments(quote)]
    assert len(quotes) >= QUOTES_NEEDED, f"docs/rules/{name}.md quotes the book {len(quotes)} times"
    if seeds is None:
        return
    books = {number: _plain(_seed_text(seeds, number)) for number in numbers}
    found = [quote for quote in quotes if any(quote in book for book in books.values())]
    assert len(found) >= QUOTES_NEEDED, (
        f"docs/rules/{name}.md: only {len(found)} of its {len(quotes)} quotations stand in seed {', '.join(numbers)}"
    )


def _seed_text(seeds: Path, number: str) -> str:
    files = sorted(seeds.glob(f"{number}_*.txt"))
    assert files, f"seed {number} is not in {seeds}"
    return files[0].read_text(encoding="utf-8")


def _plain(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).lower()


def _fragments(quote: str) -> list[str]:
    """A quotation's parts between ellipses, long enough to be the book's and not a word of ours."""
    parts = re.split(r"\s*(?:\.\.\.|…)\s*", _plain(quote))
    return [part.strip(" .,;:") for part in parts if len(part.strip(" .,;:")) >= 12]
