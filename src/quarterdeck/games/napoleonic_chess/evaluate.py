"""The evaluation hook for greedy and search agents: material, the strikes each side has in hand,
support structure and progress.

Scores are from the point of view of `player`'s alliance: its units count for, the enemy's against.
On top of material the evaluation plays out, statically, the attacks that are sure to succeed:

* the alliance that attacks next (the one moving or attacking now; after the advance, the next
  army) is credited with a share of every enemy unit it could eliminate from where its units stand:
  the attack on a target must exceed its defence, terrain and every support its neighbours could
  give, after pinning supporters with attacks of their own (an attacked unit cannot support);
  attacking costs nothing, so every other unit attacks too, and whatever the defender, saving its
  most valuable units first, runs out of supporters for falls as well; a target that holds only
  with every support it can get counts a little; attacks already declared count as made;
* the alliance that attacks after it is credited with a smaller share of what it could eliminate,
  since its enemy moves first and can still step away or cover;
* support links (friendly units a unit could support), a pull of the line units towards the enemy's
  deployment ranks (towards the enemy Guards themselves once they have left those ranks) and, once
  within a few squares, towards the enemy Guards;
* for the side ahead, progress: the longer the run of turns without an elimination, the more of its
  lead is marked down, and a turn that would end in a position seen before gives up more of it (a
  third time is scored as the draw it is), so that a search prefers forcing play to the draw.

The Guards carry most of the worth, so a strike on them dominates; a sure strike on every enemy Guards
by the alliance to attack next is the battle won, scored as a won game.
"""

from __future__ import annotations

from functools import cache, lru_cache

from quarterdeck.ai.knowledge import WIN_VALUE
from quarterdeck.core.geometry import Square, chebyshev

from .actions import ADVANCE, ATTACK, MOVE, SUPPORT, Support
from .scenario import Scenario
from .state import NapoleonicState
from .terrain import attack_value, high_ground, terrain_bonus
from .units import Unit, UnitType
from .victory import REPETITION_LIMIT, repetition_key

WIN = 1000.0
GUARD_WORTH = 8.0
STRIKE_NOW = 0.8  # share of a unit's worth counted as gone when the side to attack can surely eliminate it
STRIKE_DECLARED = 0.9  # ... once the attacks that do it are declared
STRIKE_OPEN = 0.45  # ... when it falls unless the defender finds the supports it still can give
STRIKE_LATER = 0.3  # ... when the side attacking after that could (its enemy moves first)
SUPPORT_LINK = 0.04  # each friendly unit a unit could support
ADVANCE_PULL = 0.12  # per square closer to the enemy's deployment ranks, for every unit but the Guards
GUARD_HUNT = 0.08  # per square inside HUNT_RANGE of the enemy Guards, for every unit but the Guards
HUNT_RANGE = 4
GUARDS_BEHIND = 1  # Guards this far from their own ranks still stand behind them (the back rank)
CLOSE = 0.1  # ... when it holds only with every support it can get
REPEAT_DISCOUNT = 0.3  # share of the lead given up when the turn would end in a position seen before
QUIET_DISCOUNT = 0.5  # share of the lead given up as the turns without an elimination near the draw


@cache  # types hash by identity, and every evaluation asks for each unit's worth several times
def unit_worth(kind: UnitType) -> float:
    worth = kind.attack + kind.defence + 0.25 * kind.move
    return worth + GUARD_WORTH if kind.guard else worth


def evaluate(state: NapoleonicState, player: int) -> float:
    if state.outcome is not None:
        return state.outcome.returns[player] * WIN
    scenario = state.scenario
    if not state.board or state.phase not in (MOVE, ATTACK, SUPPORT, ADVANCE):
        return 0.0
    alliances = [army.alliance for army in scenario.armies]
    mine = alliances[player]
    board = state.board
    guards = [(square, alliances[unit.army]) for square, unit in board.items() if unit.kind.guard]
    hunted = {
        alliance: frozenset(square for square, owner in guards if owner != alliance) for alliance in set(alliances)
    }
    objectives = {alliance: _objective(scenario, alliance, hunted[alliance]) for alliance in hunted}
    supporters = _supporter_counts(state, alliances)
    lead = 0.0
    positional = 0.0
    for square, unit in board.items():
        alliance = alliances[unit.army]
        side = 1.0 if alliance == mine else -1.0
        lead += side * unit_worth(unit.kind)
        positional += side * SUPPORT_LINK * supporters.get(square, 0)
        if unit.kind.guard:
            continue
        if objectives[alliance]:
            positional -= side * ADVANCE_PULL * _distance(objectives[alliance], square)
        if hunted[alliance]:
            positional += side * GUARD_HUNT * max(0, HUNT_RANGE - _distance(hunted[alliance], square))
    first, then = _strikers(state)
    lead_factor = 1.0
    gone: set[Square] = set()
    if state.phase == SUPPORT:
        losses = _declared_losses(state)
        gone = set(losses)
    else:
        share = STRIKE_NOW if state.phase == MOVE else STRIKE_DECLARED
        close: set[Square] = set()
        kills = _sure_kills(state, first, declared=state.phase == ATTACK, overload=True, close=close)
        losses = {square: CLOSE for square in close}
        losses.update((square, share) for square in kills)
        gone = kills
        clears = state.turn_eliminations > 0 or (bool(kills) and state.phase != ADVANCE)
        if not clears and state.history:  # eliminations clear the history of positions
            repeats = state.history.get(_next_turn_key(state), 0)
            if repeats >= REPETITION_LIMIT - 1:
                return 0.0  # the turn ends in a draw by repetition unless something falls
            lead_factor = 1.0 - REPEAT_DISCOUNT * repeats
        if _decides(guards, first, kills):
            return WIN_VALUE if first == mine else -WIN_VALUE
    later = _sure_kills(state, then, declared=False, spared=gone, overload=True) if then is not None else set()
    for square, share in losses.items():
        unit = board[square]
        lead -= (1.0 if alliances[unit.army] == mine else -1.0) * share * unit_worth(unit.kind)
    for square in later:
        unit = board[square]
        lead -= (1.0 if alliances[unit.army] == mine else -1.0) * STRIKE_LATER * unit_worth(unit.kind)
    limit = scenario.quiet_turn_limit
    if limit and state.quiet_turns:
        lead *= 1.0 - QUIET_DISCOUNT * min(state.quiet_turns / limit, 1.0)
    return lead * lead_factor + positional


def evaluate_all(state: NapoleonicState) -> list[float]:
    """Every army's evaluation in one pass (the search scores each leaf for every seat). Between two
    alliances the evaluation is zero-sum term by term (each unit and each strike counts for one
    alliance and, negated, against the other), so the second alliance's value is the first's negated,
    to the bit; with more alliances each is evaluated on its own."""
    alliances = [army.alliance for army in state.scenario.armies]
    if len(set(alliances)) != 2:
        return [evaluate(state, player) for player in range(len(alliances))]
    value = evaluate(state, 0)
    return [value if alliance == alliances[0] else -value for alliance in alliances]


def _supporter_counts(state: NapoleonicState, alliances: list[str]) -> dict[Square, int]:
    """How many friendly units could support each unit (the `_supporters` of every square at once,
    found from the supporters' side: one pass over the board rather than one per unit)."""
    counts: dict[Square, int] = {}
    unit_at = state.board.get
    reach = state.scenario.reach
    for square, unit in state.board.items():
        own = alliances[unit.army]
        for target in reach(unit.kind, "support", square):
            other = unit_at(target)
            if other is not None and alliances[other.army] == own:
                counts[target] = counts.get(target, 0) + 1
    return counts


def _decides(guards: list[tuple[Square, str]], striker: str, kills: set[Square]) -> bool:
    """Whether the sure kills of the alliance to strike next take every enemy Guards (`guards`: each
    Guards' square and alliance), so that the battle is won with that round of attacks. (No draw can
    come first: an advance follows an elimination, which resets the quiet turns and the positions seen.)"""
    hunted = [square for square, owner in guards if owner != striker]
    return bool(hunted) and all(square in kills for square in hunted)


def _next_turn_key(state: NapoleonicState) -> str:
    """The repetition key of the position the next turn would start from if nothing more moved."""
    return repetition_key(state, state.next_army(state.active, lambda army: army not in state.defeated))


def _objective(scenario: Scenario, alliance: str, hunted: frozenset[Square]) -> frozenset[Square]:
    """Where an alliance's line units advance: the enemy's deployment ranks while the enemy Guards
    stand in them or just behind, the Guards themselves once they have left them further (Guards
    that have fled the line are the battle's objective, and the ranks they left are empty ground)."""
    zone = frozenset().union(*(army.zone for army in scenario.armies if army.alliance != alliance))
    if zone and all(_distance(zone, square) <= GUARDS_BEHIND for square in hunted):
        return zone
    return hunted


@lru_cache(maxsize=1 << 17)  # bounded: besides the deployment zones it is asked of the Guards, who move
def _distance(squares: frozenset[Square], square: Square) -> int:
    """How far `square` lies from the nearest of `squares`, in king moves."""
    return min(chebyshev(square, other) for other in squares)


def _strikers(state: NapoleonicState) -> tuple[str, str | None]:
    """The alliance whose attacks come next, and the one attacking after it."""
    alliances = [army.alliance for army in state.scenario.armies]

    def after(army: int) -> int:
        return state.next_army(army, lambda other: other not in state.defeated and alliances[other] != alliances[army])

    if state.phase == ADVANCE:
        nxt = after(state.active)
        then = after(nxt)
        return alliances[nxt], (alliances[then] if alliances[then] != alliances[nxt] else None)
    nxt = after(state.active)
    return alliances[state.active], (alliances[nxt] if alliances[nxt] != alliances[state.active] else None)


def _sure_kills(
    state: NapoleonicState,
    striker: str,
    declared: bool,
    spared: set[Square] | None = None,
    overload: bool = False,
    close: set[Square] | None = None,
) -> set[Square]:
    """Enemy units of `striker` it can surely eliminate with one round of attacks from where its
    units stand, planned greedily, most valuable target first.

    A target falls when its attack exceeds its defence, terrain and the supports every neighbour
    able to support it could give; supporters are pinned by attacking them with units not needed
    for the target itself. With `declared`, attacks already declared this turn count as made and
    their attackers are spent. `spared` units are left out (already counted as lost).
    """
    scenario = state.scenario
    board = state.board
    alliances = [army.alliance for army in scenario.armies]
    redoubts = state.redoubts
    high = high_ground(scenario, redoubts) if (scenario.hills or redoubts) else frozenset()
    terrain = bool(scenario.obstacles)
    reach = scenario.reach
    neighbours = scenario.neighbours
    spent: set[Square] = set()
    committed: dict[Square, list[tuple[Square, int]]] = {}
    if declared and state.attacks:
        where = {unit.id: square for square, unit in board.items()}
        for unit_id, target in state.attacks.items():
            origin = where.get(unit_id)
            if origin is not None and target in board:
                spent.add(origin)
                value = attack_value(scenario, redoubts, board[origin].kind, origin, target)
                committed.setdefault(target, []).append((origin, value))
    pinned = set(committed)
    # every enemy unit within reach of an attacker, with the attackers that reach it
    options: dict[Square, list[tuple[Square, int]]] = {}
    unit_at = board.get
    for square, unit in board.items():
        if alliances[unit.army] != striker or square in spent:
            continue
        kind = unit.kind
        for target in reach(kind, "attack", square):
            other = unit_at(target)
            if other is not None and alliances[other.army] != striker:
                # only artillery's attack depends on the ground (redoubts, obstacles)
                value = attack_value(scenario, redoubts, kind, square, target) if kind.artillery else kind.attack
                options.setdefault(target, []).append((square, value))
    targets = set(options) | set(committed)
    if spared:
        targets -= spared
    kills: set[Square] = set()
    assigned: dict[Square, Square] = {}  # attacker -> target, for the kills planned
    for target in sorted(targets, key=lambda t: (-unit_worth(board[t].kind), t)):
        defender = board[target]
        free = [(s, v) for s, v in options.get(target, ()) if s not in spent]
        fixed = committed.get(target, [])
        attack = sum(v for _, v in fixed) + sum(v for _, v in free)
        if not attack:
            continue
        squares = [s for s, _ in fixed] + [s for s, _ in free]
        defence = defender.kind.defence
        if high or terrain:
            defence += terrain_bonus(scenario, high, target, squares)
        supporters = []
        for neighbour in neighbours(target):
            other = board.get(neighbour)
            if (
                other is not None
                and neighbour not in pinned
                and alliances[other.army] != striker
                and target in reach(other.kind, "support", neighbour)
            ):
                supporters.append((neighbour, other))
        defence += sum(other.kind.support for _, other in supporters)
        used = {s for s, _ in free}
        pins: list[Square] = []
        pins_by: dict[Square, Square] = {}  # attacker -> the supporter it pins
        if attack <= defence:
            for neighbour, other in supporters:
                pinner = next((s for s, _ in options.get(neighbour, ()) if s not in spent and s not in used), None)
                if pinner is None:
                    continue
                used.add(pinner)
                pins.append(neighbour)
                pins_by[pinner] = neighbour
                defence -= other.kind.support
                if attack > defence:
                    break
        if attack > defence:
            kills.add(target)
            spent |= used
            pinned.update(pins)
            for attacker in used:
                assigned[attacker] = pins_by.get(attacker, target)
    if not overload:
        return kills
    return kills | _overloaded(state, striker, options, committed, assigned, kills, spared or set(), close)


def _overloaded(
    state: NapoleonicState,
    striker: str,
    options: dict[Square, list[tuple[Square, int]]],
    committed: dict[Square, list[tuple[Square, int]]],
    assigned: dict[Square, Square],
    kills: set[Square],
    spared: set[Square],
    close: set[Square] | None,
) -> set[Square]:
    """What else falls when every attacker not needed for a sure kill attacks too (attacking costs
    nothing): the attacked units cannot support, and the defender, saving its most valuable units
    first, may run out of supporters. Targets that hold only with every supporter they can get go
    into `close`."""
    board = state.board
    scenario = state.scenario
    alliances = [army.alliance for army in scenario.armies]
    attack: dict[Square, int] = {target: sum(v for _, v in hits) for target, hits in committed.items()}
    sources: dict[Square, list[Square]] = {target: [s for s, _ in hits] for target, hits in committed.items()}
    for attacker, target in assigned.items():
        attack[target] = attack.get(target, 0) + next(v for s, v in options[target] if s == attacker)
        sources.setdefault(target, []).append(attacker)
    free: dict[Square, list[tuple[Square, int]]] = {}
    for target, hits in options.items():
        for attacker, value in hits:
            if attacker not in assigned:
                free.setdefault(attacker, []).append((target, value))
    for attacker, choices in free.items():
        target, value = max(
            choices,
            key=lambda c: (
                c[0] not in kills and c[0] not in spared,
                unit_worth(board[c[0]].kind),
                attack.get(c[0], 0),
                c[0],
            ),
        )
        attack[target] = attack.get(target, 0) + value
        sources.setdefault(target, []).append(attacker)
    under_attack = set(attack)
    high = high_ground(scenario, state.redoubts) if (scenario.hills or state.redoubts) else frozenset()
    terrain = bool(high or scenario.obstacles)
    used: set[Square] = set()
    falls: set[Square] = set()
    reach = scenario.reach
    for target in sorted(attack, key=lambda t: (-unit_worth(board[t].kind), t)):
        if target in kills or target in spared:
            continue
        defender = board[target]
        shortfall = attack[target] - defender.kind.defence
        if terrain:
            shortfall -= terrain_bonus(scenario, high, target, sources[target])
        if shortfall <= 0:
            continue
        helpers = []
        for neighbour in scenario.neighbours(target):
            other = board.get(neighbour)
            if (
                other is not None
                and neighbour not in under_attack
                and neighbour not in used
                and alliances[other.army] != striker
                and target in reach(other.kind, "support", neighbour)
            ):
                helpers.append((neighbour, other.kind.support))
        reserve = sum(v for _, v in helpers)
        if reserve < shortfall:
            falls.add(target)
            continue
        if close is not None and reserve == shortfall:
            close.add(target)
        for neighbour, value in helpers:
            if shortfall <= 0:
                break
            used.add(neighbour)
            shortfall -= value
    return falls


def _declared_losses(state: NapoleonicState) -> dict[Square, float]:
    """During the supports: each attacked unit's share lost, by the attack against the defence it has
    and the defence it could still get from supporters not yet used."""
    losses: dict[Square, float] = {}
    under_attack = set(state.attacks.values())
    busy = under_attack | set(_supporting_squares(state))
    for engagement in state.engagements():
        if engagement.attack <= engagement.defence:
            continue
        reserve = sum(
            state.board[s].kind.support for s in _supporters(state, engagement.target, engagement.defender, busy)
        )
        losses[engagement.target] = STRIKE_DECLARED if engagement.attack > engagement.defence + reserve else STRIKE_OPEN
    return losses


def _supporting_squares(state: NapoleonicState) -> list[Square]:
    if not state.supports:
        return []
    return [square for square, unit in state.board.items() if unit.id in state.supports]


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
