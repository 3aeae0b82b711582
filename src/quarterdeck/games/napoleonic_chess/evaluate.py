"""The evaluation hook for greedy and search agents: material, the Guards' safety, support structure.

Scores are from the point of view of `player`'s alliance: its units count for, the enemy's against,
each discounted by the danger it stands in:

* a unit is exposed when the enemies next to it could attack it with more than its defence, terrain
  and the supports its neighbours could give; that counts in full when those enemies strike next;
* under a declared attack, the danger is high when the attack exceeds the defence (during the attack
  phase counting the supports the defender could still give), and some short of that.

The Guards carry most of the worth, so their safety dominates. Support links (friendly units a unit
could support) and a little pressure towards the enemy Guards break ties, so that a one-step greedy
agent forms a line and goes forward.
"""

from __future__ import annotations

from quarterdeck.core.geometry import Square, chebyshev

from .actions import ATTACK, MOVE, Support
from .combat import Engagement, Unit, high_ground, terrain_bonus
from .state import NapoleonicState
from .units import UnitType

WIN = 1000.0
GUARD_WORTH = 8.0
LIKELY_LOSS = 0.9  # share of a unit's worth counted as gone while an attack on it exceeds its defence
PARTIAL_LOSS = 0.3  # at most this share while a declared attack does not yet exceed it
EXPOSED = 0.35  # share counted as gone while enemies within reach outmatch it
SUPPORT_LINK = 0.1  # each friendly unit a unit could support
PRESSURE = 0.05  # per square closer to the nearest enemy Guards


def unit_worth(kind: UnitType) -> float:
    worth = kind.attack + kind.defence + 0.25 * kind.move
    return worth + GUARD_WORTH if kind.guard else worth


def evaluate(state: NapoleonicState, player: int) -> float:
    if state.outcome is not None:
        return state.outcome.returns[player] * WIN
    scenario = state.scenario
    mine = scenario.armies[player].alliance
    engaged = {e.target: e for e in state.engagements()}
    # The alliance whose attacks come next: its enemies' exposure counts in full.
    striking = scenario.armies[state.active].alliance if state.phase in (MOVE, ATTACK) else None
    guards = [(square, scenario.armies[unit.army].alliance) for square, unit in state.board.items() if unit.kind.guard]
    score = 0.0
    for square, unit in state.board.items():
        alliance = scenario.armies[unit.army].alliance
        side = 1.0 if alliance == mine else -1.0
        danger = _exposure(state, square, unit, striking)
        if square in engaged:
            danger = max(danger, _declared_danger(state, engaged[square]))
        score += side * unit_worth(unit.kind) * (1.0 - danger)
        score += side * SUPPORT_LINK * len(_supporters(state, square, unit, set()))
        targets = [target for target, owner in guards if owner != alliance]
        if targets:
            score -= side * PRESSURE * min(chebyshev(square, target) for target in targets)
    return score


def _declared_danger(state: NapoleonicState, engagement: Engagement) -> float:
    defence = engagement.defence
    if state.phase == ATTACK:  # the defender has not chosen its supports yet: assume the worst
        under_attack = set(state.attacks.values())
        defence += len(_supporters(state, engagement.target, engagement.defender, under_attack))
    if engagement.attack > defence:
        return LIKELY_LOSS
    return PARTIAL_LOSS * engagement.attack / (defence + 1)


def _exposure(state: NapoleonicState, square: Square, unit: Unit, striking: str | None) -> float:
    """EXPOSED when the adjacent enemies could attack it with more than it could defend; a third of
    that when its own side acts first and can still move away or cover it."""
    scenario = state.scenario
    attackers = []
    threat = 0
    for neighbour in scenario.neighbours(square):
        other = state.board.get(neighbour)
        if other is not None and not scenario.allied(other.army, unit.army):
            if square in scenario.reach(other.kind, "attack", neighbour):
                attackers.append(neighbour)
                threat += other.kind.attack
    if not attackers:
        return 0.0
    high = high_ground(scenario, state.redoubts)
    cover = unit.kind.defence + terrain_bonus(scenario, high, square, attackers)
    cover += len(_supporters(state, square, unit, set(attackers)))
    if threat <= cover:
        return 0.0
    return EXPOSED if striking is not None and striking != scenario.armies[unit.army].alliance else EXPOSED / 3


def _supporters(state: NapoleonicState, square: Square, unit: Unit, busy: set[Square]) -> list[Square]:
    """Friendly units next to `square` that could support it, leaving out those on `busy` squares."""
    scenario = state.scenario
    found = []
    for neighbour in scenario.neighbours(square):
        other = state.board.get(neighbour)
        if (
            other is not None
            and neighbour not in busy
            and scenario.allied(other.army, unit.army)
            and square in scenario.reach(other.kind, "support", neighbour)
        ):
            found.append(neighbour)
    return found


def best_defence(state: NapoleonicState, player: int) -> list[Support]:
    """Supports that save as many attacked units as they can, the Guards first.

    Targets are taken most-precious and then cheapest-to-save first; each gets just enough
    supporters to hold (attack no greater than defence), preferring supporters with fewest other uses.
    """
    options = [action for action in state.legal_actions(player) if isinstance(action, Support)]
    by_target: dict[Square, list[Square]] = {}
    for action in options:
        by_target.setdefault(action.target, []).append(action.supporter)
    uses = {
        supporter: sum(supporter in group for group in by_target.values())
        for supporter in {action.supporter for action in options}
    }
    engaged = {e.target: e for e in state.engagements()}
    used: set[Square] = set()
    chosen: list[Support] = []

    def priority(target: Square) -> tuple[bool, int]:
        engagement = engaged[target]
        return (not engagement.defender.kind.guard, engagement.attack - engagement.defence)

    for target in sorted(by_target, key=priority):
        shortfall = engaged[target].attack - engaged[target].defence
        free = sorted((s for s in by_target[target] if s not in used), key=lambda s: uses[s])
        if 0 < shortfall <= sum(state.board[s].kind.support for s in free):
            for supporter in free:
                if shortfall <= 0:
                    break
                used.add(supporter)
                chosen.append(Support(supporter, target))
                shortfall -= state.board[supporter].kind.support
    return chosen
