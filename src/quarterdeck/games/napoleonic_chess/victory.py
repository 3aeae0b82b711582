"""Victory and draws (seed 002, "Victory Conditions": "Elimination of the enemy Guard unit; or the
enemy surrenders", with "Larger Boards, ... Multiple Armies" for more than two armies; the draws
are rulings of shared/design/rules-decisions.md, "Napoleonic Chess").

* An army whose Guards are all eliminated is beaten: with allies still standing its remaining
  units leave the field and it takes no more turns; the battle ends when one alliance is left.
* Surrender is the protocol's `resign` (core), for the whole alliance.
* Draws: the same position at the start of a turn for the third time, or the scenario's
  `quiet_turn_limit` turns (default 50, both sides' turns counted) without an elimination.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core.events import Eliminated, Event, GameOver
from quarterdeck.core.protocol import Outcome
from quarterdeck.core.words import counted

if TYPE_CHECKING:
    from .state import NapoleonicState

REPETITION_LIMIT = 3
OVER = "over"  # the phase of a finished battle


def check_defeats(state: NapoleonicState, events: list[Event]) -> None:
    """After eliminations: an army whose Guards are all gone is beaten; the battle ends when one
    alliance is left."""
    players = state.players
    with_guards = {unit.army for unit in state.board.values() if unit.kind.guard}
    beaten = [army for army in range(len(players)) if army not in state.defeated and army not in with_guards]
    if not beaten:
        return
    state.defeated = state.defeated | set(beaten)
    standing = {state.team_of(army) for army in range(len(players)) if army not in state.defeated}
    beaten_names = ", ".join(players[army] for army in beaten)
    if len(standing) == 1:
        winner = standing.pop()
        returns = tuple(1.0 if state.team_of(p) == winner else -1.0 for p in range(len(players)))
        finish(state, Outcome(returns, winner, f"the Guards of {beaten_names} eliminated"), events)
        return
    # A beaten army routs and leaves the field while its allies fight on. It has no step left in
    # this turn (only the attacker's advance follows the resolution) and none in later turns.
    for square, unit in sorted(state.board.items()):
        if unit.army in beaten:
            del state.board[square]
            events.append(Eliminated(unit.id, state.square_name(square)))


def repetition_key(state: NapoleonicState, army: int) -> str:
    """The position for the repetition rule with `army` to play: every unit by army and type,
    redoubts and their digging (as text: the positions seen are saved with the game)."""
    return repr(repetition_parts(state, army))


def repetition_parts(state: NapoleonicState, army: int) -> tuple:
    """The repetition key's parts as a tuple, as the search's position key holds them."""
    units = tuple(sorted((square, unit.army, unit.kind.name) for square, unit in state.board.items()))
    works = tuple(sorted((square, turns) for square, (_, turns) in state.works.items()))
    return (army, units, tuple(sorted(state.redoubts)), works)


def count_position(state: NapoleonicState, events: list[Event]) -> None:
    """At the start of a turn: a position seen for the third time since the last elimination draws."""
    key = repetition_key(state, state.active)
    state.history[key] = state.history.get(key, 0) + 1
    if state.history[key] >= REPETITION_LIMIT:
        finish_drawn(state, f"the same position for the {REPETITION_LIMIT}rd time (threefold repetition)", events)


def count_quiet_turn(state: NapoleonicState, events: list[Event]) -> None:
    """At the end of a turn: count the turns without an elimination, and draw at the limit."""
    if state.turn_eliminations:
        state.quiet_turns = 0
        state.history = {}  # no earlier position can come back once a unit is gone
    else:
        state.quiet_turns += 1
    if state.quiet_turns >= state.scenario.quiet_turn_limit:
        finish_drawn(state, f"{counted(state.quiet_turns, 'turn')} without an elimination", events)


def finish(state: NapoleonicState, outcome: Outcome, events: list[Event]) -> None:
    state.outcome = outcome
    state.phase = OVER
    state.steps = ()
    events.append(GameOver(outcome.result, outcome.reason))


def finish_drawn(state: NapoleonicState, reason: str, events: list[Event]) -> None:
    finish(state, Outcome((0.0,) * len(state.players), "draw", reason), events)
