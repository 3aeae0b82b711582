"""Square Rigger Chess arithmetic that players and agents lean on.

* The optimal defence (decision: the engine offers it in one click; agents always use it).
* How many hits a side could deal from where its ships stand now (for evaluation and greedy play).
* The evaluation hook: material, firepower bearing on the enemy against exposure to its fire.
"""

from __future__ import annotations

from itertools import product

from ...core.protocol import Action
from .rules import FIRE, AssignDefence, SquareRiggerState


def absorbable(firepower: int, caps: dict[int, int], incoming: dict[int, int]) -> int:
    """Most fire a defender can cancel: its F, but no more than min(cap, incoming) on each bearing."""
    return min(firepower, sum(min(caps.get(b, 0), amount) for b, amount in incoming.items()))


def hits_against_best_defence(state: SquareRiggerState, name: str, incoming: dict[int, int]) -> int:
    caps = {b: state.cap(name, b) for b in incoming}
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
        incoming = state.incoming(name)
        if not incoming or not state.is_active(name):
            continue
        left = state.factors(name)[0] - state.defence_used(name)
        for bearing, amount in sorted(incoming.items(), key=lambda item: (-item[1], item[0])):
            if (name, bearing) in state.defence or left <= 0:
                continue
            useful = min(state.cap(name, bearing), amount, left)
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
        if not state._can_fire(name):
            continue
        lines = []
        for bearing in range(8):
            cap = state.cap(name, bearing)
            if cap <= 0:
                continue
            target, distance = state.fire_target(name, bearing)
            if target is not None and cap >= distance:
                arrival = state.bearing_towards(target, state.direction_of(name, bearing).opposite())
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
        incoming = state.incoming(name)
        caps = {b: state.cap(name, b) for b in incoming}
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


def evaluate(state: SquareRiggerState, player: int) -> float:
    """Material balance, plus the hits in hand this turn and the fire each side can bring to bear."""
    if state.outcome is not None:
        return 1000.0 * state.outcome.returns[player]
    mine = state.team_of(player)
    enemies = [s for s in state.setup.sides if s != mine]
    score = material(state, mine) - sum(material(state, s) for s in enemies)
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
