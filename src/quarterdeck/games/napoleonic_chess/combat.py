"""Combat arithmetic: attack values, defence with supports and terrain, and who falls.

Kept apart from the state machine so that the resolution, the terminal view (odds per target) and
the evaluation hook all count the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from quarterdeck.core.geometry import Square

from .scenario import Scenario
from .units import UnitType


class Unit(NamedTuple):
    id: str
    army: int
    kind: UnitType


@dataclass(frozen=True)
class Engagement:
    """One attacked unit: who attacks it with what, who supports it, and the totals."""

    target: Square
    defender: Unit
    attackers: tuple[tuple[Square, Unit, int], ...]  # (square, unit, attack value)
    supporters: tuple[tuple[Square, Unit], ...]
    attack: int
    base_defence: int
    support: int
    terrain: int

    @property
    def defence(self) -> int:
        return self.base_defence + self.support + self.terrain

    @property
    def falls(self) -> bool:
        """The book: eliminated when the attack values "exceed its defence value plus ... support"."""
        return self.attack > self.defence


def high_ground(scenario: Scenario, redoubts: frozenset[Square]) -> frozenset[Square]:
    """Hills, and built redoubts, which "function as for Hills"."""
    return scenario.hills | redoubts if redoubts else scenario.hills


def attack_value(
    scenario: Scenario, redoubts: frozenset[Square], kind: UnitType, origin: Square, target: Square
) -> int:
    """A unit's attack from `origin` on `target`: artillery attacks at 1 into a redoubt or across
    an obstacle."""
    if kind.artillery and kind.attack > 1 and (target in redoubts or scenario.obstacle_between(origin, target)):
        return 1
    return kind.attack


def terrain_bonus(
    scenario: Scenario, high: frozenset[Square], target: Square, attacker_squares: Iterable[Square]
) -> int:
    """+1 on high ground unless an attacker also stands on high ground; +1 behind an obstacle when
    it lies between the defender and every attacker."""
    attacker_squares = tuple(attacker_squares)
    bonus = 0
    if target in high and not any(square in high for square in attacker_squares):
        bonus += 1
    if attacker_squares and all(scenario.obstacle_between(square, target) for square in attacker_squares):
        bonus += 1
    return bonus


def engagements(
    scenario: Scenario,
    board: Mapping[Square, Unit],
    attacks: Mapping[str, Square],
    supports: Mapping[str, Square],
    redoubts: frozenset[Square],
) -> list[Engagement]:
    """Every declared attack, grouped by target (in square order), with its current totals."""
    where = {unit.id: square for square, unit in board.items()}
    attackers_of: dict[Square, list[tuple[Square, Unit, int]]] = {}
    for unit_id, target in attacks.items():
        origin = where.get(unit_id)
        if origin is None or target not in board:
            continue
        kind = board[origin].kind
        value = attack_value(scenario, redoubts, kind, origin, target)
        attackers_of.setdefault(target, []).append((origin, board[origin], value))
    supporters_of: dict[Square, list[tuple[Square, Unit]]] = {}
    for unit_id, target in supports.items():
        origin = where.get(unit_id)
        if origin is not None:
            supporters_of.setdefault(target, []).append((origin, board[origin]))
    high = high_ground(scenario, redoubts)
    result = []
    for target in sorted(attackers_of):
        attackers = tuple(attackers_of[target])
        supporters = tuple(supporters_of.get(target, ()))
        defender = board[target]
        result.append(
            Engagement(
                target=target,
                defender=defender,
                attackers=attackers,
                supporters=supporters,
                attack=sum(value for _, _, value in attackers),
                base_defence=defender.kind.defence,
                support=sum(unit.kind.support for _, unit in supporters),
                terrain=terrain_bonus(scenario, high, target, (square for square, _, _ in attackers)),
            )
        )
    return result
