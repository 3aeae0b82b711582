"""One random legal game of a registered rule book, played through `Match` the way the CLI plays it.

The playout is the suite's shared material: it plays a scenario from a seed to the end (or to a
move cap, where the seat to act resigns so that every playout ends), checking as it goes what can
only be seen move by move, and keeps a spread of positions for the checks that come after it.

Checked during play, each under its own name in `Playout.problems`:

* ``play``: who decides is a seat, CHANCE, SIMULTANEOUS or TERMINAL; every acting seat has a legal
  action before the end (protocol.py, `legal_actions`); chance outcomes have probabilities that sum
  to 1 and `sample_chance()` draws one of them; no action is offered twice.
* ``accepted``: every action chosen from `legal_actions` is accepted by `apply` with validation.
* ``notation``: the chosen action's notation parses back to it, through `parse_action` and
  `text_to_action` alike.
* ``secrecy``: at a SIMULTANEOUS node, what another seat sees (`to_json(viewer)`, `observe(...)`,
  its legal actions and `Match.moves_for` / `Match.events_for`) is the same whichever decision a
  seat submits, and exactly what it was before while that seat still owes decisions (who still
  owes one is public through `acting_players()`), until the reveal: a `Revealed` event or the end
  of the SIMULTANEOUS node.
* ``clone``: a kept position (a clone) does not change while the original plays on.

Random choices are the test's own (`random.Random(seed)`); chance outcomes come from the state's
`sample_chance()` only.
"""

from __future__ import annotations

import copy
import random
import traceback
from dataclasses import dataclass, field
from typing import Any

from quarterdeck.core.errors import QuarterdeckError
from quarterdeck.core.events import Event, Revealed
from quarterdeck.core.protocol import CHANCE, SIMULTANEOUS, TERMINAL, Action, Game, Resign, State
from quarterdeck.core.session import Match

KEPT_POSITIONS = 12  # evenly spread positions kept for the checks after play
KEPT_SPECIAL = 3  # and this many CHANCE and SIMULTANEOUS positions each, the first ones met
PROBLEMS_KEPT = 5  # per check: enough to see a pattern, not a flood


@dataclass
class Position:
    """A clone of the state before move `step` (0-based), and its JSON when it was taken."""

    step: int
    state: State
    data: dict[str, Any]


@dataclass
class Playout:
    game: Game
    scenario: str | None
    seed: int
    match: Match
    positions: list[Position] = field(default_factory=list)
    reached_end: bool = False  # True: the rules ended the game; False: the cap did (a resignation)
    chance_nodes: int = 0
    secret_submissions: int = 0
    problems: dict[str, list[str]] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict)  # what the fuzz tests derive once per playout

    @property
    def final(self) -> State:
        return self.match.state

    def report(self, check: str, message: str) -> None:
        found = self.problems.setdefault(check, [])
        if len(found) < PROBLEMS_KEPT:
            found.append(message)

    def problems_of(self, check: str) -> list[str]:
        return self.problems.get(check, [])


def label(state: State, player: int) -> str:
    return "chance" if player == CHANCE else state.players[player]


def offered(state: State, player: int) -> list[Action]:
    """What `player` (or CHANCE) may do now: its legal actions, or the chance outcomes."""
    if player == CHANCE:
        return [outcome for outcome, _ in state.chance_outcomes()]
    return state.legal_actions(player)


def offered_by_piece(state: State, player: int) -> list[Action]:
    """`offered`, and after it whatever `legal_actions(player, piece=...)` adds for each piece: a
    game may keep its full list narrower than the per-piece lists (Square Rigger Chess offers only
    moves that keep friends apart at every step in the full list); both are offers."""
    actions = offered(state, player)
    if player == CHANCE:
        return actions
    pieces = dict.fromkeys(p for p in map(state.action_piece, actions) if p is not None)
    known = set(actions)
    for piece in pieces:
        extra = [a for a in state.legal_actions(player, piece=piece) if a not in known]
        known.update(extra)
        actions = actions + extra
    return actions


def is_offered(state: State, player: int, action: Action) -> bool:
    """Whether `action` is in the full list of `player`'s actions or in its piece's list."""
    if action in offered(state, player):
        return True
    piece = None if player == CHANCE else state.action_piece(action)
    return piece is not None and action in state.legal_actions(player, piece=piece)


def view(match: Match, seat: int) -> dict[str, Any]:
    """Everything `seat` is shown of the game: the state as it sees it and the history."""
    state = match.state
    observed = state.observe(seat)
    acting = seat in state.acting_players()
    return copy.deepcopy(  # a copy, so a view that aliases the state cannot follow it unseen
        {
            "to_json(viewer)": state.to_json(viewer=seat),
            "observe().to_json()": observed.to_json(),
            "observe().to_json(viewer)": observed.to_json(viewer=seat),
            "legal_actions": [state.action_to_text(a) for a in state.legal_actions(seat)] if acting else None,
            "Match.moves_for": match.moves_for(seat),
            "Match.events_for": match.events_for(seat),
        }
    )


def view_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [part for part in before if before[part] != after[part]]


class Player:
    """Plays one playout; split from `play` so each kind of check reads on its own."""

    def __init__(self, game: Game, scenario: str | None, seed: int, cap: int):
        self.rng = random.Random(seed)
        self.cap = cap
        self.out = Playout(game, scenario, seed, Match(game, scenario, None, seed))
        self.stride = 1
        self.spread: list[Position] = []
        self.extra: list[Position] = []
        self.special = {CHANCE: 0, SIMULTANEOUS: 0}

    def run(self) -> Playout:
        out = self.out
        step = 0
        while not out.final.is_terminal() and step < self.cap:
            try:
                if not self.move(step):
                    break
            except Exception as exc:  # noqa: BLE001 - a crash in the rules is the finding; play stops there
                out.report("play", f"move {step + 1}: {type(exc).__name__}: {exc}\n{_where_raised(exc)}")
                break
            step += 1
        out.reached_end = out.final.is_terminal()
        if not out.reached_end:
            self.keep(step, force=True)  # the position at the cap, not yet over
            self.resign()
            step += 1
        self.keep(step, force=True)
        out.positions = sorted(self.spread + self.extra, key=lambda p: p.step)
        self.check_kept()
        return out

    # --- one move -------------------------------------------------------------------------
    def move(self, step: int) -> bool:
        out, state = self.out, self.out.final
        to_act = state.current_player()
        where = f"move {step + 1} ({state.describe()})"
        if to_act not in (CHANCE, SIMULTANEOUS) and not 0 <= to_act < len(state.players):
            out.report("play", f"{where}: current_player() is {to_act}, not a seat, CHANCE or SIMULTANEOUS")
            return False
        self.keep(step)
        if to_act == CHANCE:
            out.chance_nodes += 1
            player, action = CHANCE, self.draw_chance(state, where)
        else:
            player, action = self.choose(state, to_act, where)
        if action is None:
            return False
        self.check_notation(state, player, action, where)
        if to_act == SIMULTANEOUS:
            return self.submit_secret(player, action, where)
        return self.play(player, action, where) is not None

    def draw_chance(self, state: State, where: str) -> Action | None:
        outcomes = state.chance_outcomes()
        if not outcomes:
            self.out.report("play", f"{where}: a CHANCE node lists no chance outcomes")
            return None
        total = sum(p for _, p in outcomes)
        if abs(total - 1.0) > 1e-9 or any(p <= 0 for _, p in outcomes):
            self.out.report("play", f"{where}: chance probabilities {[p for _, p in outcomes]} (sum {total})")
        action = state.sample_chance()
        if action not in [outcome for outcome, _ in outcomes]:
            self.out.report("play", f"{where}: sample_chance() drew {action!r}, not a listed outcome")
            return None
        return action

    def choose(self, state: State, to_act: int, where: str) -> tuple[int, Action | None]:
        acting = state.acting_players()
        if not acting or (to_act >= 0 and acting != [to_act]):
            self.out.report("play", f"{where}: acting_players() is {acting} with current_player() {to_act}")
            return to_act, None
        for seat in acting:
            if not state.legal_actions(seat):
                self.out.report("play", f"{where}: {state.players[seat]} must act but has no legal action")
                return seat, None
        player = self.rng.choice(acting)
        actions = state.legal_actions(player)
        if len(set(actions)) != len(actions):
            twice = sorted({state.action_to_text(a) for a in actions if actions.count(a) > 1})
            self.out.report("play", f"{where}: actions offered twice: {twice[:5]}")
        return player, self.rng.choice(actions)

    def play(self, player: int, action: Action, where: str) -> list[Event] | None:
        try:
            return self.out.match.play(action, player)
        except QuarterdeckError as exc:
            text = self.out.final.action_to_text(action)
            self.out.report("accepted", f"{where}: offered {label(self.out.final, player)} {text!r}, refused: {exc}")
            return None

    def resign(self) -> None:
        """At the cap the seat to act (or the first seat at a chance node) resigns, through the record."""
        seat = (self.out.final.acting_players() or [0])[0]
        self.out.match.play(Resign(seat))

    # --- notation ---------------------------------------------------------------------------
    def check_notation(self, state: State, player: int, action: Action, where: str) -> None:
        problem = notation_problem(state, player, action)
        if problem:
            self.out.report("notation", f"{where}: {problem}")

    # --- secrets ----------------------------------------------------------------------------
    def submit_secret(self, player: int, action: Action, where: str) -> bool:
        """Submit `player`'s secret decision and check what the other seats see.

        Who still owes a decision is public (`acting_players()`), so while `player` still owes one,
        the others' views must not change at all; and in any case they must not tell its decision
        from another one it could have made, until the reveal.
        """
        match = self.out.match
        state = match.state
        others = [seat for seat in range(len(state.players)) if seat != player]
        before = {seat: view(match, seat) for seat in others}
        owing = set(state.acting_players())
        tried = []
        other_choices = [a for a in state.legal_actions(player) if a != action]
        if other_choices:
            alternative = match.clone()
            tried.append(("another decision", alternative, alternative.play(self.rng.choice(other_choices), player)))
        events = self.play(player, action, where)
        if events is None:
            return False
        self.out.secret_submissions += 1
        tried.insert(0, ("its decision", match, events))
        seen = []
        for what, after, events in tried:
            if after.state.current_player() != SIMULTANEOUS or any(isinstance(e, Revealed) for e in events):
                continue  # the last decision reveals them all
            views = {seat: view(after, seat) for seat in others}
            still_owing = set(after.state.acting_players())
            if still_owing == owing:
                self.compare_views(before, views, f"{where}: after {state.players[player]} submitted {what}")
            seen.append((still_owing, views))
        if len(seen) == 2 and seen[0][0] == seen[1][0]:
            self.compare_views(
                seen[0][1], seen[1][1], f"{where}: between two different decisions of {state.players[player]}"
            )
        return True

    def compare_views(self, first: dict[int, dict], second: dict[int, dict], what: str) -> None:
        for seat, seen in first.items():
            changed = view_changes(seen, second[seat])
            if changed:
                name = self.out.final.players[seat]
                self.out.report(
                    "secrecy", f"{what}: {name}'s {', '.join(changed)} differ before any reveal (Revealed event)"
                )

    # --- kept positions -----------------------------------------------------------------------
    def keep(self, step: int, force: bool = False) -> None:
        """Keep every stride-th position (the stride doubles as the game goes on), the first CHANCE
        and SIMULTANEOUS ones, and those `force`d (the cap, the end)."""
        state = self.out.final
        if any(p.step == step for p in self.spread + self.extra):
            return
        to_act = state.current_player()
        if step % self.stride == 0:
            self.spread.append(Position(step, state.clone(), copy.deepcopy(state.to_json())))
            if len(self.spread) > 2 * KEPT_POSITIONS:
                self.stride *= 2
                self.spread = [p for p in self.spread if p.step % self.stride == 0]
        elif force or self.special.get(to_act, KEPT_SPECIAL) < KEPT_SPECIAL:
            self.extra.append(Position(step, state.clone(), copy.deepcopy(state.to_json())))
        if to_act in self.special:
            self.special[to_act] += 1

    def check_kept(self) -> None:
        for position in self.out.positions:
            if position.state.to_json() != position.data:
                self.out.report(
                    "clone",
                    f"the clone taken before move {position.step + 1} changed while the original played on",
                )


def notation_problem(state: State, player: int, action: Action) -> str | None:
    """Why `action`'s notation does not read back as `action` for `player` at `state`, or None."""
    seat = None if player == CHANCE else player
    try:
        text = state.action_to_text(action)
    except Exception as exc:  # noqa: BLE001 - any failure to write an offered action is the finding
        return f"action_to_text({action!r}) raised {type(exc).__name__}: {exc}"
    for reader in ("parse_action", "text_to_action"):
        try:
            back = getattr(state, reader)(text, seat)
        except Exception as exc:  # noqa: BLE001 - the text of an offered action must read back
            return f"{reader}({text!r}) raised {type(exc).__name__}: {exc}"
        if back != action:
            return f"{reader}({text!r}) gave {back!r}, not {action!r}"
    return None


def _where_raised(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    return f"    raised at {frame.filename}:{frame.lineno} in {frame.name}"


def play(game: Game, scenario: str | None, seed: int, cap: int) -> Playout:
    """Play `scenario` from `seed` with random legal choices until the end or `cap` moves."""
    return Player(game, scenario, seed, cap).run()


__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Playout",
    "Position",
    "is_offered",
    "notation_problem",
    "offered",
    "offered_by_piece",
    "play",
]
