"""Combat: who may fire at whom, with what Gunnery Strength, at what odds, and what the dice do.

Seed 001, COMBAT 1 (attacks voluntary; each side of a ship attacks at most once a game-turn;
two-sided fire and its loss to crew hits), 3 (fields of fire and blocked lines of fire; raking from
the bow hex +1/2 rounded to the even number, from the stern hex +2/3 rounded to the nearest; chase
guns: all hexes outside the broadside fields up to 7 hexes, bow and stern sets but not in a turn
with a broadside, two 1s make a mast hit), Multi-ship combat (at most two targets, in different
fields; the optional nearest-target rule), 4 (crew hits take a third of the Gunnery Strength each,
after raking; three silence the chasers), Running afoul b-c (screening; fire only at the ship one
is afoul of). The range bands, odds columns, CRTs and hit kinds are the reconstructed tables of
shared/design/rules-decisions.md, Frigate ("Combat" and "Numbers and rulings"), kept in tables.toml.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING

from quarterdeck.core.events import Event, Fired
from quarterdeck.core.hexes import (
    BOW,
    PORT,
    STARBOARD,
    STERN,
    Hex,
    distance,
    field_of_fire,
    range_and_field,
    side_of_keel,
)
from quarterdeck.core.words import hits_phrase

from .actions import AIMS, Fire
from .ships import ACTIVE, Ship

if TYPE_CHECKING:
    from .scenario import Tables
    from .state import FrigateState

BROADSIDES = (PORT, STARBOARD)
CHASERS = (BOW, STERN)


@dataclass(frozen=True)
class Attack:
    """Everything the interfaces show before a broadside is fired."""

    firer: str
    battery: str
    target: str
    range: int
    base: int  # GS after gun hits
    half: bool  # the second side of a turn, at half strength
    rake: str  # "", "bow" or "stern"
    gunnery: int  # after range, raking and crew hits
    defence: int
    column: str  # the odds column read, after the CRT shift; "" for no effect


def rake_of(firer: Ship, target: Ship) -> str:
    """Seed, Combat 3b: raking only from the hex adjacent to the target's bow or stern."""
    (q, r), (dq, dr) = target.hex, target.facing.delta
    f = firer.hex
    if f[0] == q + dq and f[1] == r + dr:
        return BOW
    if f[0] == q - dq and f[1] == r - dr:
        return STERN
    return ""


def gunnery_strength(tables: Tables, base: int, half: bool, rng: int, rake: str, crew: int) -> int:
    """The GS order of the ruling: base; x 1/2 for a second side (down); range (down); raking (bow
    x 3/2 with a half rounding to the even integer, stern x 5/3 to the nearest); crew hits (x 2/3 or
    x 1/3, nearest)."""
    gs = base // 2 if half else base
    for low, high, numerator, denominator in tables.range_factors:
        if low <= rng <= high:
            gs = gs * numerator // denominator
            break
    else:
        return 0
    if rake == BOW:
        gs = round_even(gs * 3, 2)  # a half rounds to the even integer, as the seed says
    elif rake == STERN:
        gs = round_even(gs * 5, 3)
    if crew:
        gs = round_even(gs * max(0, 3 - crew), 3)
    return gs


def round_even(numerator: int, denominator: int) -> int:
    """numerator / denominator to the nearest integer, a half to the even one (Python's round(),
    in integers: this runs for every possible attack after every movement point)."""
    whole, rest = divmod(numerator, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and whole % 2):
        whole += 1
    return whole


def odds_column(tables: Tables, gunnery: int, defence: int, crt: str) -> str:
    """The column read: odds rounded down in the firer's disfavour and clamped, then shifted by the
    force's CRT (I one column right, III one left); "" when nothing can happen."""
    if gunnery <= 0:
        return ""
    index = -1
    for i, (a, b) in enumerate(tables.crt_odds):
        if a * defence <= gunnery * b:  # a-b <= gunnery : defence, in integers
            index = i
    if index < 0:
        return ""
    index = min(index + tables.crt_shift[crt], len(tables.crt_columns) - 1)
    return tables.crt_columns[index] if index >= 0 else ""


def attack_column(tables: Tables, base: int, half: bool, rng: int, rake: str, crew: int, defence: int,
                  crt: str) -> str:
    """odds_column(gunnery_strength(...)): remembered per tables, since it is asked for every
    possible attack after every movement point and by every evaluation."""
    memo = per_tables(tables, "columns")
    key = (base, half, rng, rake, crew, defence, crt)
    column = memo.get(key)
    if column is None:
        column = memo[key] = odds_column(tables, gunnery_strength(tables, base, half, rng, rake, crew), defence, crt)
    return column


_MEMOS: dict[tuple[int, str], tuple[Tables, dict]] = {}


def per_tables(tables: Tables, kind: str) -> dict:
    """A memo that belongs to one set of tables (a user's tables file has its own); only the most
    recent few are kept."""
    key = (id(tables), kind)
    found = _MEMOS.get(key)
    if found is None or found[0] is not tables:
        if len(_MEMOS) > 16:
            _MEMOS.clear()
        found = _MEMOS[key] = (tables, {})
    return found[1]


def second_side_half(state: FrigateState, ship: Ship) -> bool:
    """Seed, Combat 1c: both sides at full strength only in the turn she first fires, with no crew
    hits; after that one side full and the other half."""
    return not (ship.first_fire_turn in (0, state.turn) and ship.crew == 0)


def battery_problem(state: FrigateState, ship: Ship, battery: str) -> tuple[str, str] | None:
    """(the rule, what it says) that keeps a broadside or a set of chasers silent now, or None."""
    reason = silence(state, ship, battery)
    if reason is None:
        return None
    rule, message = _SILENT[reason]
    return rule, message.format(name=ship.name, crew=ship.crew, battery=battery)



def silence(state: FrigateState, ship: Ship, battery: str) -> str | None:
    """Why this battery (a broadside or a set of chasers) is silent now, a key of _SILENT, or None.
    Only the answer counts where this runs, for every ship after every movement point;
    battery_problem words it. A withdrawing force may fire, but only at ships that have fired on her
    (checked per target)."""
    if ship.owner != ship.side:
        return "prize"
    chasers = battery in CHASERS
    if chasers and battery not in ship.spec.chase:
        return "no-chasers"
    if ship.crew >= state.tables.crew_limit:
        return "silenced" if chasers else "crippled"
    fired = ship.fired
    if battery in fired:
        return "chasers-used" if chasers else "side-fired"
    if fired and not fired.isdisjoint(BROADSIDES if chasers else CHASERS):
        return "broadside-fired" if chasers else "chasers-fired"
    if chasers:
        return "afoul" if ship.afoul else None
    if ship.crew and (STARBOARD if battery == PORT else PORT) in fired:
        return "other-side"
    return None


# Why a battery is silent: the rule it breaks and how to say so.
_SILENT = {
    "prize": ("prize", "{name} is a prize: her guns are silent"),
    "crippled": ("crippled", "{name} has {crew} crew hits: no broadsides"),
    "side-fired": ("one-attack-per-side", "{name}'s {battery} side has already fired this turn"),
    "chasers-fired": ("chase-guns", "{name} fired her chasers this turn: no broadside as well"),
    "other-side": ("crew-hits", "{name} has crew hits: she may fire from one side only this turn"),
    "no-chasers": ("chase-guns", "{name} carries no {battery} chasers"),
    "silenced": ("crew-hits", "three crew hits have silenced {name}'s chasers"),
    "chasers-used": ("chase-guns", "{name}'s {battery} chasers have already fired this turn"),
    "broadside-fired": ("chase-guns", "{name} fired a broadside this turn: no chase guns as well"),
    "afoul": ("afoul", "{name} is afoul: she fires only her broadside at the ship alongside"),
}


def target_problem(state: FrigateState, ship: Ship, battery: str, target: Ship) -> tuple[str, str] | None:
    """Whether `target` may be attacked by this battery now (field, range, line of fire, afoul)."""
    if not target.afloat or target.owner == ship.owner or target.prize:
        return "target", f"{target.name} is not an enemy ship in the fight"
    if ship.afoul:
        if target.name != ship.afoul:
            return "afoul", f"{ship.name} is afoul of {ship.afoul} and may fire at her only"
        if battery != ship.afoul_side:
            return "afoul", f"only {ship.name}'s {ship.afoul_side} side bears on {target.name}"
        return None
    rng = distance(ship.hex, target.hex)
    if rng == 0:
        return "field-of-fire", f"{target.name} shares {ship.name}'s hex"
    field = field_of_fire(ship.hex, ship.facing, target.hex)
    if field != battery:
        return "field-of-fire", f"{target.name} is in {ship.name}'s {field} field, not her {battery}"
    reach = _reach(state.tables, battery)
    if rng > reach:
        return "range", f"{target.name} is {rng} hexes off; the {battery} guns reach {reach}"
    return _sight_problem(state, ship, target)


def _reach(tables: Tables, battery: str) -> int:
    return tables.chase_range if battery in CHASERS else tables.broadside_range


def _sight_problem(
    state: FrigateState, ship: Ship, target: Ship, occupied: AbstractSet[Hex] | None = None
) -> tuple[str, str] | None:
    """What blocks a target in the field and range of a ship that is not afoul: another ship on the
    line of fire, the ship alongside the target screening her, a withdrawing force's restraint.
    `occupied`: the occupied hexes, when the caller has them already."""
    if occupied is None:
        occupied = state.occupied_hexes().keys()
    if not state.grid.line_clear(ship.hex, target.hex, occupied):
        return "line-of-fire", f"another ship blocks the line of fire to {target.name}"
    if target.afoul:
        partner = state.ships[target.afoul]
        side = side_of_keel(target.hex, target.facing, ship.hex)
        if side is not None and side == target.afoul_side and partner.name != ship.name:
            return "screened", f"{partner.name}, alongside {target.name}, screens her from {ship.name}"
    force = state.force_state[ship.owner]
    if force.withdrawing and ship.owner != target.owner and target.name not in state.fired_on_by.get(ship.name, ()):
        return "preservation", f"{state.players[ship.owner]} is withdrawing: fire only at ships that fired on her"
    return None


def describe_attack(state: FrigateState, ship: Ship, battery: str, target: Ship) -> Attack:
    tables = state.tables
    rng = 0 if ship.afoul else distance(ship.hex, target.hex)
    other = STARBOARD if battery == PORT else PORT
    half = other in ship.fired and second_side_half(state, ship)
    rake = "" if ship.afoul else rake_of(ship, target)
    gs = gunnery_strength(tables, ship.gunnery(), half, rng, rake, ship.crew)
    column = odds_column(tables, gs, target.spec.ds, state.force_state[ship.owner].crt)
    return Attack(ship.name, battery, target.name, rng, ship.gunnery(), half, rake, gs, target.spec.ds, column)


def in_the_fight(state: FrigateState, side: int) -> list[Ship]:
    """The enemies of `side` that may be fired on: afloat under their own colours."""
    return [s for s in state.ship_list if s.status == ACTIVE and s.owner != side and s.owner == s.side]


def fire_options(state: FrigateState, ship: Ship, enemies: list[Ship] | None = None) -> list[Fire]:
    """Every attack she may make now: broadsides that can do harm (hull or rigging) and chasers.
    `enemies`: her side's `in_the_fight` list, when the caller has it already."""
    options: list[Fire] = []
    for battery, target in attacks(state, ship, enemies):
        options.extend(_fire(ship.name, battery, target, aim) for aim in _AIMS_OF[battery])
    return options


def fire_signature(state: FrigateState, ship: Ship, enemies: list[Ship]) -> frozenset[tuple[str, str, str]]:
    """The (battery, target, aim) of each of her `fire_options`, which the fire windows compare after
    every movement point (without making the actions)."""
    found = attacks(state, ship, enemies)
    if not found:
        return _NO_ATTACKS
    return frozenset((battery, target, aim) for battery, target in found for aim in _AIMS_OF[battery])


_AIMS_OF = {PORT: AIMS, STARBOARD: AIMS, BOW: ("",), STERN: ("",)}
_NO_ATTACKS: frozenset[tuple[str, str, str]] = frozenset()


def attacks(state: FrigateState, ship: Ship, enemies: list[Ship] | None = None) -> list[tuple[str, str]]:
    """(battery, target's name) of every attack she may make now, in the order of `fire_options`.

    The same tests as `silence`, `target_problem` and `describe_attack`, ordered for speed (this
    runs for every ship after every movement point): her open batteries first, each enemy's range
    and field in one look-up, the line of fire only for an enemy an open battery reaches."""
    if ship.status != ACTIVE or ship.owner != ship.side:
        return []
    open_ = open_batteries(state, ship)
    if not open_:
        return []
    if enemies is None:
        enemies = in_the_fight(state, ship.owner)
    tables = state.tables
    targets: dict[str, list[tuple[Ship, int]]] = {}
    if ship.afoul:
        if ship.afoul_side in open_:
            targets[ship.afoul_side] = [(enemy, 0) for enemy in enemies if enemy.name == ship.afoul]
    else:
        here, facing = ship.hex, ship.facing
        occupied = state.occupied_hexes().keys()
        for enemy in enemies:
            rng, battery = range_and_field(here, facing, enemy.hex)
            if battery in open_ and rng <= _reach(tables, battery) and not _sight_problem(state, ship, enemy, occupied):
                targets.setdefault(battery, []).append((enemy, rng))
    if not targets:
        return []
    found: list[tuple[str, str]] = []
    for battery in open_:
        aimed = targets.get(battery)
        if not aimed:
            continue
        if battery in CHASERS:
            found.extend((battery, enemy.name) for enemy, _ in aimed)
            continue
        base = ship.gunnery()
        other = STARBOARD if battery == PORT else PORT
        half = other in ship.fired and second_side_half(state, ship)
        crt = state.force_state[ship.owner].crt
        allowed = nearest_rule(state, ship, [enemy for enemy, _ in aimed])
        for enemy, rng in aimed:
            if enemy not in allowed:
                continue
            rake = "" if ship.afoul else rake_of(ship, enemy)
            if attack_column(tables, base, half, rng, rake, ship.crew, enemy.spec.ds, crt):
                found.append((battery, enemy.name))
    return found


def open_batteries(state: FrigateState, ship: Ship) -> tuple[str, ...]:
    """Her batteries that `silence` leaves free to fire now (broadsides, then chasers), remembered by
    everything `silence` reads of her: asked for every ship after every movement point."""
    key = (ship.owner != ship.side, ship.spec.chase, ship.crew, state.tables.crew_limit, ship.fired, bool(ship.afoul))
    found = _OPEN.get(key)
    if found is None:
        found = _OPEN[key] = tuple(b for b in (*BROADSIDES, *CHASERS) if silence(state, ship, b) is None)
    return found


_OPEN: dict[tuple, tuple[str, ...]] = {}


_FIRES: dict[tuple[str, str, str, str], Fire] = {}


def _fire(ship: str, battery: str, target: str, aim: str) -> Fire:
    """The (immutable) Fire action, made once: fire options are listed after every movement point."""
    key = (ship, battery, target, aim)
    action = _FIRES.get(key)
    if action is None:
        if len(_FIRES) > 65536:
            _FIRES.clear()
        action = _FIRES[key] = Fire(ship, battery, target, aim)
    return action


def nearest_rule(state: FrigateState, ship: Ship, targets: list[Ship]) -> list[Ship]:
    """Seed, Multi-ship combat b (optional): fire on the nearest enemy not yet fired on this turn,
    unless afoul or there is no such target within two hexes (a tie is the firer's choice)."""
    if not state.scenario.option("nearest_target") or ship.afoul:
        return targets
    enemies = [s for s in state.ship_list if s.afloat and s.owner != ship.owner and not s.prize
               and s.name not in state.fired_upon]
    near = [s for s in enemies if distance(ship.hex, s.hex) <= 2]
    if not near:
        return targets
    closest = min(distance(ship.hex, s.hex) for s in near)
    wanted = {s.name for s in near if distance(ship.hex, s.hex) == closest}
    return [t for t in targets if t.name in wanted]


def crt_hits(tables: Tables, column: str, face: int) -> int:
    """Hits for a (modified) die on a column; a modified 0 scores nothing (the one modifier is fighting
    sail's -1, so no face is above 6)."""
    if face < 1:
        return 0
    return tables.crt[column].hits[face - 1]


def confirmed(tables: Tables, column: str, face: int) -> bool:
    confirm = tables.crt[column].confirm
    return confirm is None or face in confirm


def hit_kind(tables: Tables, aim: str, face: int) -> str:
    return tables.hit_kinds[aim][face - 1]


# --- the dice of this section ----------------------------------------------------------------------
def crt_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    attack = state.attack
    assert attack is not None
    target = state.ships[attack["target"]]
    sail = attack["aim"] == "rigging" and target.fighting_sail
    face = values[0] - (1 if sail else 0)
    hits = crt_hits(state.tables, attack["column"], face)
    attack["hits"] = hits
    decided = f"column {attack['column']}{', -1 for fighting sail' if sail else ''}: {hits_phrase(hits)}"
    if hits and state.tables.crt[attack["column"]].confirm is not None:
        state.rolls.insert(0, ("confirm", attack["firer"], 1))
        return decided + " if a second die confirms"
    hits_rolled(state, events)
    return decided


def confirm_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    attack = state.attack
    assert attack is not None
    target = state.ships[attack["target"]]
    face = values[0] - (1 if attack["aim"] == "rigging" and target.fighting_sail else 0)
    decided = f"{hits_phrase(attack['hits'])} confirmed"
    if not confirmed(state.tables, attack["column"], face):
        attack["hits"] = 0
        decided = "not confirmed: no hit"
    hits_rolled(state, events)
    return decided


def hits_rolled(state: FrigateState, events: list[Event]) -> None:
    attack = state.attack
    assert attack is not None
    events.append(Fired(attack["firer"], attack["battery"], attack["gunnery"], attack["target"], attack["hits"],
                        f"GS {attack['gunnery']}, {hits_phrase(attack['hits'])}"))
    state.rolls[0:0] = [("hit-kind", attack["firer"], 1)] * attack["hits"]
    if not attack["hits"]:
        state.attack = None


def kind_roll(state: FrigateState, _: str, values: tuple[int, ...], events: list[Event]) -> str:
    attack = state.attack
    assert attack is not None
    kind = hit_kind(state.tables, attack["aim"], values[0])
    state.pending.append((attack["target"], kind, attack["firer"]))
    if not any(r[0] == "hit-kind" for r in state.rolls):
        state.attack = None
    return f"a {kind} hit on {attack['target']} (aimed at the {attack['aim']}), landing at the segment's end"


def chase_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    if values[0] == 1:
        state.rolls.insert(0, ("chase-second", subject, 1))
        return "a 1: the second die decides"
    chase_done(state, 0, events)
    return "no hit"


def chase_second_roll(state: FrigateState, subject: str, values: tuple[int, ...], events: list[Event]) -> str:
    hit = values[0] == 1
    chase_done(state, 1 if hit else 0, events)
    return "two 1s: a mast hit" if hit else "no hit"


def chase_done(state: FrigateState, hits: int, events: list[Event]) -> None:
    attack = state.attack
    assert attack is not None
    events.append(Fired(attack["firer"], attack["battery"], 0, attack["target"], hits,
                        "a mast hit" if hits else "no hit"))
    if hits:
        state.pending.append((attack["target"], "mast", attack["firer"]))
    state.attack = None

