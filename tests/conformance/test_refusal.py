"""Whatever is not offered is refused with the core errors and changes nothing, fuzzed with
hypothesis: mutated notation, actions of other seats and other positions, finished games, corrupt
saved states (protocol.py: `apply`, `parse_action`, `state_from_json`)."""

from __future__ import annotations

import copy
import re
import sys
from importlib import resources

from hypothesis import given
from hypothesis import strategies as st

from quarterdeck import games
from quarterdeck.core.protocol import CHANCE, Resign

from . import checks, options
from .playout import offered

JUNK = [None, -1, 0, 10**9, 1.5, True, "", "x", [], {}]
# TOML values of every kind, for a scenario file's `key = value` lines
TOML_JUNK = ['"x"', '""', "-1", "0", "1e9", "3.5", "true", "[]", "[1, 2]", '["a"]', "{}", "{ a = 1 }"]
VALUE_LINE = re.compile(r"^\s*[\w.\"'-]+\s*=\s*(?!\"{3})\S")  # a key and its value on one line


def open_positions(playout):
    return [p for p in playout.positions if not p.state.is_terminal()]


def some_action(data, playout, here=None):
    """An action offered to some seat (or a chance outcome) at some kept position, as often as not
    at `here` itself (then applied as another seat, it must be refused)."""
    sources = open_positions(playout)
    if here is not None and data.draw(st.booleans(), label="offered here"):
        sources = [here]
    source = data.draw(st.sampled_from(sources), label="from position")
    player = data.draw(st.sampled_from(checks.seats_to_act(source.state)), label="offered to")
    return data.draw(st.sampled_from(offered(source.state, player)), label="action")


def any_player(data, state):
    seats = [None, CHANCE, *range(len(state.players)), len(state.players)]
    return data.draw(st.sampled_from(seats), label="applied as")


def texts(playout, position) -> list[str]:
    """The notation of everything offered at `position` (worked out once per position)."""
    found = playout.memo.setdefault("texts", {})
    if position.step not in found:
        state = position.state
        found[position.step] = [
            state.action_to_text(a) for player in checks.seats_to_act(state) for a in offered(state, player)
        ]
    return found[position.step]


def vocabulary(playout) -> list[str]:
    """The words of every offered action's notation, for swapping into another action's."""
    if "words" not in playout.memo:
        words = {word for p in open_positions(playout) for text in texts(playout, p) for word in text.split()}
        playout.memo["words"] = sorted(words)[:400]
    return playout.memo["words"]


@st.composite
def mutated(draw, texts: list[str], words: list[str]) -> str:
    """An offered action's notation with one to three small mistakes of the kind people type."""
    text = draw(st.sampled_from(texts))
    numbers = st.integers(-3, 99).map(str) | st.floats(-5, 50, allow_nan=False).map(lambda x: f"{x:+.2f}")
    word = st.sampled_from(words) | numbers | st.text(min_size=1, max_size=4)
    for _ in range(draw(st.integers(1, 3))):
        parts = text.split()
        edit = draw(st.sampled_from(["delete", "insert", "replace", "drop", "swap", "word", "reword", "case", "cut"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if edit == "delete":
            text = text[:at] + text[at + 1 :]
        elif edit == "insert":
            text = text[:at] + draw(st.characters()) + text[at:]
        elif edit == "replace":
            text = text[:at] + draw(st.characters()) + text[at + 1 :]
        elif edit == "drop" and parts:
            del parts[draw(st.integers(0, len(parts) - 1))]
            text = " ".join(parts)
        elif edit == "swap" and len(parts) > 1:
            i, j = draw(st.integers(0, len(parts) - 1)), draw(st.integers(0, len(parts) - 1))
            parts[i], parts[j] = parts[j], parts[i]
            text = " ".join(parts)
        elif edit == "word":
            parts.insert(draw(st.integers(0, len(parts))), draw(word))
            text = " ".join(parts)
        elif edit == "reword" and parts:
            parts[draw(st.integers(0, len(parts) - 1))] = draw(word)
            text = " ".join(parts)
        elif edit == "case":
            text = text.upper()
        elif edit == "cut":
            text = text[:at]
    return text


@options.fuzz()
@given(data=st.data())
def test_mutated_notation_is_refused_or_read_as_a_legal_action(playout, data):
    position = data.draw(st.sampled_from(open_positions(playout)), label="position")
    offered_texts = texts(playout, position)
    text = data.draw(mutated(offered_texts, vocabulary(playout) or offered_texts), label="text")
    checks.check_text(position.state, any_player(data, position.state), text)


@options.fuzz()
@given(data=st.data())
def test_actions_of_other_seats_and_positions_are_refused(playout, data):
    position = data.draw(st.sampled_from(open_positions(playout)), label="position")
    action = some_action(data, playout, here=position)
    checks.check_action(position.state, any_player(data, position.state), action)


@options.fuzz()
@given(data=st.data())
def test_a_finished_game_refuses_every_action(playout, data):
    position = data.draw(st.sampled_from(playout.positions), label="position")
    finished = position.state.clone()
    if not finished.is_terminal():
        finished.apply(Resign(data.draw(st.sampled_from(range(len(finished.players))), label="resigns")))
    action = data.draw(st.sampled_from(["offered", "resign"]), label="kind")
    if action == "resign":
        action = Resign(data.draw(st.sampled_from(range(len(finished.players)))))
    else:
        action = some_action(data, playout)
    checks.check_finished(finished, any_player(data, finished), action)


@options.fuzz()
@given(data=st.data())
def test_a_corrupt_saved_state_is_a_record_error(playout, data):
    position = data.draw(st.sampled_from(playout.positions), label="position")
    saved = copy.deepcopy(position.data)
    parent, key = _somewhere(data, saved)
    if isinstance(parent, dict) and data.draw(st.booleans(), label="delete"):
        del parent[key]
    else:
        parent[key] = data.draw(st.sampled_from(JUNK), label="junk")
    checks.check_bad_saved_state(playout.game, saved)


def test_junk_in_any_field_of_a_saved_state_is_a_record_error(playout):
    """Each top-level field of a mid-game position, deleted or replaced by each kind of junk in
    turn: a deterministic sweep beside the fuzzing above."""
    position = playout.positions[len(playout.positions) // 2]
    for key in position.data if isinstance(position.data, dict) else ():
        for junk in ["delete", *JUNK]:
            saved = dict(position.data)  # the fields left alone are shared: reading must not change them
            if junk == "delete":
                del saved[key]
            else:
                saved[key] = copy.deepcopy(junk)
            checks.check_bad_saved_state(playout.game, saved)
    assert position.state.to_json() == position.data, "reading a saved state changed the data it was given"


def _somewhere(data, value):
    """A (container, key) pair somewhere inside the saved JSON, top level more often than deep."""
    parent, key = None, None
    while isinstance(value, dict | list) and value:
        keys = list(value) if isinstance(value, dict) else list(range(len(value)))
        parent, key = value, data.draw(st.sampled_from(keys))
        value = parent[key]
        if not data.draw(st.booleans(), label="deeper"):
            break
    return parent, key


def test_setup_errors_name_the_scenario_or_option(game_name):
    checks.check_setup_errors(games.get(game_name))


def test_every_scenario_option_says_what_it_does_and_its_sides_are_its_seats(game_name):
    checks.check_scenario_options(games.get(game_name))


def shipped_scenario_text(game, scenario: str) -> str:
    """The text of a scenario as its package ships it (`scenarios/<name>.toml`, docs/architecture.md)."""
    package = sys.modules[type(game).__module__].__package__
    return resources.files(package).joinpath("scenarios", f"{scenario}.toml").read_text(encoding="utf-8")


@options.fuzz()
@given(data=st.data())
def test_a_scenario_file_with_a_wrong_value_is_refused_by_name_or_plays(playout, data, tmp_path_factory):
    """A player's copy of a shipped scenario with a value or two typed wrong (a list where a name
    belongs, text where a number does): refused naming the field, or a game that plays."""
    lines = shipped_scenario_text(playout.game, playout.scenario).splitlines()
    values = [i for i, line in enumerate(lines) if VALUE_LINE.match(line)]
    for _ in range(data.draw(st.integers(1, 2), label="values changed")):
        i = data.draw(st.sampled_from(values), label="line")
        lines[i] = lines[i].split("=", 1)[0] + "= " + data.draw(st.sampled_from(TOML_JUNK), label="value")
    path = tmp_path_factory.mktemp("scenario") / f"{playout.scenario}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    checks.check_scenario_file(playout.game, path)
