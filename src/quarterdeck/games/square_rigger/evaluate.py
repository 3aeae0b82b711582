"""What the computer knows of Square Rigger Chess: the arithmetic that players and agents lean on.

* The optimal defence (decision: the engine offers it in one click; agents always use it).
* How many hits a side could deal from where its ships stand now (for evaluation and greedy play).
* The evaluation hook: material, firepower bearing on the enemy against exposure to its fire.
* The candidates hook: moves ranked without the full evaluation (the ship's own broadside from its
  end position against the fire that could reach it there), fire and defence by the evaluation.
"""

from __future__ import annotations

from itertools import product

from ...core.geometry import Compass, Square
from ...core.protocol import Action
from . import fire, victory
from .actions import AssignDefence, EndDefence, EscapeShip, MoveShip
from .state import SquareRiggerState
from .turn import FIRE, MOVE


def absorbable(firepower: int, caps: dict[int, int], incoming: dict[int, int]) -> int:
    """Most fire a defender can cancel: its F, but no more than min(cap, incoming) on each bearing."""
    return min(firepower, sum(min(caps.get(b, 0), amount) for b, amount in incoming.items()))


def hits_against_best_defence(state: SquareRiggerState, name: str, incoming: dict[int, int]) -> int:
    caps = {b: fire.cap(state, name, b) for b in incoming}
    return sum(incoming.values()) - absorbable(state.factors(name)[0], caps, incoming)


def optimal_defence(state: SquareRiggerState) -> list[Action]:
    """Defence assignments for the seat to defend that leave the fewest hits (then `end-defence`).

    Total hits are sum(incoming) - sum(defence), with defence per bearing at most min(cap, incoming)
    and in all at most F; any assignment reaching that bound is optimal. Bearings with the heaviest
    incoming fire are covered first so that the plan is also the natural one to read.
    """
    side, squadron = state.setup.seats[state.seat]
    actions: list[Action] = []
    for name in state.pieces(side, squadron):
        incoming = fire.incoming(state, name)
        if not incoming or not state.is_active(name):
            continue
        left = state.factors(name)[0] - fire.defence_used(state, name)
        for bearing, amount in sorted(incoming.items(), key=lambda item: (-item[1], item[0])):
            if (name, bearing) in state.defence or left <= 0:
                continue
            useful = min(fire.cap(state, name, bearing), amount, left)
            if useful > 0:
                actions.append(AssignDefence(name, bearing, useful))
                left -= useful
    return actions


def _allocations(total: int, tops: list[int]) -> list[tuple[int, ...]]:
    """Every way to split at most `total` into parts bounded by `tops`."""
    ranges = [range(top + 1) for top in tops]
    return [combo for combo in product(*ranges) if sum(combo) <= total]


def fire_potential(state: SquareRiggerState, side: str) -> int:
    """Hits `side` could deal now, if it fired from where it stands, against the best defence.

    Each firing piece picks its split across the bearings that have a target, one piece after another,
    to add the most hits to what the pieces before it already deal (a greedy plan, close to optimal
    for the handful of bearings that ever have targets).
    """
    incoming: dict[str, dict[int, int]] = {}
    for name in state.pieces(side):
        if not fire.can_fire(state, name):
            continue
        lines = []
        for bearing in range(8):
            cap = fire.cap(state, name, bearing)
            if cap <= 0:
                continue
            target, distance = fire.fire_target(state, name, bearing)
            if target is not None and cap >= distance:
                arrival = fire.bearing_towards(state, target, fire.direction_of(state, name, bearing).opposite())
                lines.append((target, distance, arrival, cap))
        if not lines:
            continue
        best_gain, best_plan = 0, None
        for split in _allocations(state.factors(name)[0], [cap for *_, cap in lines]):
            trial = {t: dict(b) for t, b in incoming.items()}
            for (target, distance, arrival, _), amount in zip(lines, split, strict=True):
                effect = amount - (distance - 1)
                if amount and effect > 0:
                    trial.setdefault(target, {})
                    trial[target][arrival] = trial[target].get(arrival, 0) + effect
            gain = _total_hits(state, trial) - _total_hits(state, incoming)
            if gain > best_gain:
                best_gain, best_plan = gain, trial
        if best_plan is not None:
            incoming = best_plan
    return _total_hits(state, incoming)


def _total_hits(state: SquareRiggerState, incoming: dict[str, dict[int, int]]) -> int:
    return sum(hits_against_best_defence(state, name, lines) for name, lines in incoming.items())


def projected_hits(state: SquareRiggerState) -> int:
    """Hits the fire assigned so far will do, against the best defence still open to the targets."""
    total = 0
    for name in {line.target for line in state.fire}:
        incoming = fire.incoming(state, name)
        caps = {b: fire.cap(state, name, b) for b in incoming}
        fixed = {b: state.defence[(name, b)] for b in incoming if (name, b) in state.defence}
        open_bearings = {b: a for b, a in incoming.items() if b not in fixed}
        left = state.factors(name)[0] - sum(fixed.values())
        taken = sum(max(0, incoming[b] - d) for b, d in fixed.items())
        total += taken + sum(open_bearings.values()) - absorbable(left, caps, open_bearings)
    return total


def material(state: SquareRiggerState, side: str) -> float:
    """Remaining fighting value: each piece's value scaled by the share of its factors left."""
    total = 0.0
    for name in state.pieces(side):
        info = state.setup.ships.get(name) or state.setup.batteries[name]
        if name in state.escaped:
            total += info.value  # an escaped ship has done what it was asked to
            continue
        full = sum(info.track[0])
        total += info.value * sum(state.factors(name)) / full if full else 0.0
    return total


# A ship's material falls with each hit, but only her striking scores: she counts for points at the
# turn limit and towards the strike and annihilation conditions, while a ship with one factor left
# counts for nothing there. Without this a captain saw little in the last hit (a seventh of a frigate)
# and would let a repetition draw a game in which a crippled enemy lay under his broadside.
STRUCK_WEIGHT = 0.5  # of the value of each enemy piece struck, less that of our own


def evaluate(state: SquareRiggerState, player: int) -> float:
    """Material balance, plus the hits in hand this turn and the fire each side can bring to bear."""
    if state.outcome is not None:
        return 1000.0 * state.outcome.returns[player]
    mine = state.team_of(player)
    enemies = [s for s in state.setup.sides if s != mine]
    score = material(state, mine) - sum(material(state, s) for s in enemies)
    score += STRUCK_WEIGHT * (sum(victory.lost(state, s) for s in enemies) - victory.lost(state, mine))
    attacking = state.side_name == mine
    if state.phase == FIRE or state.fire:
        pending = projected_hits(state)
        score += pending if attacking else -pending
    if not state.fire:
        # Between fire phases: what we could deal next against what they could deal back.
        ours = fire_potential(state, mine)
        theirs = sum(fire_potential(state, s) for s in enemies)
        score += 0.6 * ours - 0.4 * theirs
    return score


# Two ships that each keep their broadsides out of the other's bow and stern lines can sail round
# each other for ever; a search content with the draw lets a repetition end the game. Counting a
# draw as half a hit lost makes both sides look for the raking position instead (docs/ai.md). The
# position key holds everything the evaluation and the rules read, so a search may remember by it.
# Four times the nodes buy alpha-beta only some 50 Elo here at the top (12,800 nodes against 3,200,
# 51,200 against 12,800), so the levels below ai:5 search sixteen times fewer nodes than it and then
# four times fewer each, every step a clear one (the ladder in docs/ai.md).
SEARCH_SETTINGS = {"contempt": 0.5, "exact_keys": True, "level_iterations": {1: 6, 2: 25, 3: 100, 4: 400, 5: 6400}}

MOVES_PER_SHIP = 6  # moves of each ship kept for the search
EXPOSURE_WEIGHT = 0.4  # the enemy moves before it fires back: its fire counts for less
APPROACH_WEIGHT = 0.05  # per square closer to the nearest enemy, to bring ships into action


def candidates(state: SquareRiggerState, player: int, actions: list[Action]) -> list[Action]:
    """The actions worth searching, best first: the `candidates` hook of the search agents.

    Moves are scored cheaply, per ship, from the end position alone (`move_score`); each ship keeps
    its MOVES_PER_SHIP best, the ships' best moves come first, then `end-move`, then the rest. Fire
    and defence are few and cheap to evaluate: they go by the evaluation one decision ahead, with the
    optimal defence first.
    """
    if state.phase == MOVE:
        return _ranked_moves(state, actions)
    if state.phase == FIRE:
        return sorted(actions, key=lambda action: -_value_after(state, player, action))
    best = optimal_defence(state)
    plan = [action for action in best if action in actions][:1]
    rest = [action for action in actions if action not in plan and not isinstance(action, EndDefence)]
    ends = [action for action in actions if isinstance(action, EndDefence)]
    if not plan:  # nothing useful left to assign: the defence is done
        return ends + rest
    return plan + ends + rest


def _value_after(state: SquareRiggerState, player: int, action: Action) -> float:
    after = state.clone()
    after.apply(action, player, validate=False)
    return evaluate(after, player)


def _ranked_moves(state: SquareRiggerState, actions: list[Action]) -> list[Action]:
    scored: list[tuple[float, int, Action]] = []
    others: list[Action] = []
    for order, action in enumerate(actions):
        if isinstance(action, MoveShip):
            scored.append((move_score(state, action.ship, action.square, action.heading), -order, action))
        elif isinstance(action, EscapeShip):
            scored.append((float("inf"), -order, action))  # an escaped ship counts in full
        else:
            others.append(action)
    scored.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    firsts: list[Action] = []
    seconds: list[Action] = []
    taken: dict[str, int] = {}
    for _, _, action in scored:
        ship = action.ship  # type: ignore[union-attr]
        count = taken.get(ship, 0)
        if count >= MOVES_PER_SHIP:
            continue
        taken[ship] = count + 1
        (seconds if count else firsts).append(action)
    return firsts + others + seconds


def move_score(state: SquareRiggerState, ship: str, square: Square, heading: Compass) -> float:
    """How good an end position is for one ship, looking at that ship alone: the hits its broadside
    could deal from there, less a share of the fire that could reach it, and a little for closing
    on the enemy."""
    side = state.side_of(ship)
    firepower = state.factors(ship)[0]
    setup = state.setup
    origin = state.square[ship]
    occupant = state.occupant
    ours = 0
    exposure = 0
    for direction in Compass:
        target, distance = fire.first_on_line(state, square, direction, origin)
        if target is None or state.side_of(target) == side or not state.is_active(target):
            continue
        cap = max(0, firepower - setup.cap_reduction[(direction - heading) % 8])
        ours += max(0, min(cap, firepower) - (distance - 1))
        if fire.can_fire(state, target):
            back = fire.bearing_towards(state, target, direction.opposite())
            exposure += max(0, min(fire.cap(state, target, back), state.factors(target)[0]) - (distance - 1))
    nearest = min(
        (
            max(abs(where[0] - square[0]), abs(where[1] - square[1]))
            for name in state.pieces()
            if state.side_of(name) != side
            and state.is_active(name)
            and (where := state.location(name)) is not None
            and occupant.get(where) == name
        ),
        default=0,
    )
    return min(ours, firepower) - EXPOSURE_WEIGHT * exposure - APPROACH_WEIGHT * nearest

