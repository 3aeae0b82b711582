"""Combat (seed 002, "Movement and Combat", "Eliminating pieces" and "Example of a complex
attack"): attacks, defensive supports, their resolution all at once, and the advance.

* Attack: after movement each unit of the army to play (and of its allies, "Larger Boards ...")
  may attack once, one adjacent enemy in its attack directions, with its attack value; attacks on
  one target add up.
* Support: then each defending unit that is not itself attacked ("A unit under attack cannot offer
  support") may support one adjacent attacked friendly unit in its support directions, once.
* Resolution: a unit is eliminated when the attack "exceed[s] its defence value plus the value of
  any support it receives" (plus terrain, terrain.py); all declared attacks resolve together.
* Advance: "One of the attacking units may then move straight on to the square it occupied".

The arithmetic (`engagements`) is kept apart from the phases so that the resolution, the terminal
view (odds per target), the browser's notes and the evaluation all count the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import Attacked, Eliminated, Event, Moved, Supported, Survived
from quarterdeck.core.geometry import Square

from .actions import Advance, Attack, Support
from .movement import relocate
from .scenario import Scenario
from .terrain import advance_problem, attack_value, high_ground, terrain_bonus
from .units import Unit
from .victory import check_defeats

if TYPE_CHECKING:
    from .state import NapoleonicState


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
    # Attacks and supports are declared on a board that stands still until they resolve, so every
    # attacker, supporter and target is on it.
    for unit_id, target in attacks.items():
        origin = where[unit_id]
        kind = board[origin].kind
        value = attack_value(scenario, redoubts, kind, origin, target)
        attackers_of.setdefault(target, []).append((origin, board[origin], value))
    supporters_of: dict[Square, list[tuple[Square, Unit]]] = {}
    for unit_id, target in supports.items():
        origin = where[unit_id]
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


def board_notes(state: NapoleonicState) -> dict[str, Any]:
    """For the browser (`hook_board_notes`): every declared attack's totals so far, the numbers of
    the terminal status."""
    name = state.scenario.square_name
    return {
        "engagements": [
            {
                "square": name(e.target),
                "unit": e.defender.id,
                "attack": e.attack,
                "defence": e.defence,
                "base_defence": e.base_defence,
                "support": e.support,
                "terrain": e.terrain,
                "falls": e.falls,
                "attackers": [unit.id for _, unit, _ in e.attackers],
                "supporters": [unit.id for _, unit in e.supporters],
            }
            for e in state.engagements()
        ]
    }


# --- attacks --------------------------------------------------------------------------------------
def attacks(state: NapoleonicState, player: int) -> Iterator[Attack]:
    for origin, unit in state.own_units(player):
        if unit.id in state.attacks:
            continue
        for square in state.scenario.reach(unit.kind, "attack", origin):
            target = state.board.get(square)
            if target is not None and not state.scenario.allied(target.army, player):
                yield Attack(origin, square)


def check_attack(state: NapoleonicState, action: Attack, player: int) -> None:
    unit = state.unit_of(player, action.attacker)
    if unit.id in state.attacks:
        raise IllegalAction("one-attack-per-turn", f"{unit.id} has already attacked this turn")
    target = state.board.get(action.target)
    if target is None:
        raise IllegalAction("attack-target", f"there is no unit on {state.square_name(action.target)} to attack")
    _check_target(state, "attack", unit, action.attacker, target, action.target)


def apply_attack(state: NapoleonicState, action: Attack, player: int, events: list[Event]) -> None:
    unit, target = state.board[action.attacker], state.board[action.target]
    state.attacks[unit.id] = action.target
    value = attack_value(state.scenario, state.redoubts, unit.kind, action.attacker, action.target)
    events.append(Attacked(unit.id, target.id, value))


# --- defensive supports ---------------------------------------------------------------------------
def supports(state: NapoleonicState, player: int) -> Iterator[Support]:
    under_attack = set(state.attacks.values())
    for origin, unit in state.own_units(player):
        if unit.id in state.supports or origin in under_attack:
            continue
        for square in state.scenario.reach(unit.kind, "support", origin):
            if square in under_attack and state.scenario.allied(state.board[square].army, player):
                yield Support(origin, square)


def check_support(state: NapoleonicState, action: Support, player: int) -> None:
    unit = state.unit_of(player, action.supporter)
    if unit.id in state.supports:
        raise IllegalAction("one-support-per-turn", f"{unit.id} has already supported this turn")
    under_attack = set(state.attacks.values())
    if action.supporter in under_attack:
        raise IllegalAction("under-attack-cannot-support", f"{unit.id} is under attack and cannot support")
    target = state.board.get(action.target)
    if target is None or action.target not in under_attack:
        raise IllegalAction(
            "support-target", f"only a unit under attack can be supported ({state.square_name(action.target)})"
        )
    _check_target(state, "support", unit, action.supporter, target, action.target)


def apply_support(state: NapoleonicState, action: Support, player: int, events: list[Event]) -> None:
    unit, target = state.board[action.supporter], state.board[action.target]
    state.supports[unit.id] = action.target
    events.append(Supported(unit.id, target.id, unit.kind.support))


def _check_target(state: NapoleonicState, what: str, unit: Unit, origin: Square, target: Unit, square: Square) -> None:
    """The last checks of an attack or a support (`what`): the target is an enemy to attack or a
    friend to support, and lies in the unit's attack or support directions."""
    attacking = what == "attack"
    if state.scenario.allied(target.army, unit.army) == attacking:
        raise IllegalAction(f"{what}-target", f"{target.id} is not {'an enemy' if attacking else 'a friendly unit'}")
    if square not in state.scenario.reach(unit.kind, what, origin):
        raise IllegalAction(f"{what}-direction", unit.kind.describe_reach(what))


# --- resolution -----------------------------------------------------------------------------------
def resolve(state: NapoleonicState, events: list[Event]) -> None:
    """All declared attacks at once: a unit falls when the attack exceeds its defence."""
    fallen: dict[Square, tuple[str, ...]] = {}
    for engagement in engagements(state.scenario, state.board, state.attacks, state.supports, state.redoubts):
        name = state.square_name(engagement.target)
        if engagement.falls:
            events.append(Eliminated(engagement.defender.id, name, engagement.attack, engagement.defence))
            fallen[engagement.target] = tuple(u.id for _, u, _ in engagement.attackers if u.army == state.active)
        else:
            events.append(Survived(engagement.defender.id, name, engagement.attack, engagement.defence))
    for square in fallen:
        del state.board[square]
    # Only the army to play advances; an ally's attackers helped but stay where they are.
    state.fallen = {square: ids for square, ids in fallen.items() if ids}
    state.turn_eliminations += len(fallen)
    if fallen:
        check_defeats(state, events)


# --- the advance ----------------------------------------------------------------------------------
def advances(state: NapoleonicState, player: int) -> Iterator[Advance]:
    where = state.squares_by_id()
    for vacated, attacker_ids in sorted(state.fallen.items()):
        for unit_id in attacker_ids:
            origin = where[unit_id]
            if advance_problem(state, state.board[origin], origin, vacated) is None:
                yield Advance(origin, vacated)


def check_advance(state: NapoleonicState, action: Advance, player: int) -> None:
    unit = state.unit_of(player, action.origin)
    attackers = state.fallen.get(action.destination)
    if attackers is None:
        raise IllegalAction(
            "advance-vacated", f"{state.square_name(action.destination)} is not a square vacated by an elimination"
        )
    if unit.id not in attackers:
        raise IllegalAction("advance-attacker", f"{unit.id} did not attack the unit eliminated there")
    problem = advance_problem(state, unit, action.origin, action.destination)
    if problem is not None:
        raise IllegalAction(*problem)


def apply_advance(state: NapoleonicState, action: Advance, player: int, events: list[Event]) -> None:
    path = state.moved.get(state.board[action.origin].id, (action.origin,))
    unit = relocate(state, action.origin, action.destination)
    state.moved[unit.id] = (*path, action.destination)
    del state.fallen[action.destination]
    events.append(Moved(unit.id, state.square_name(action.origin), state.square_name(action.destination)))
