"""Gunfire (seed 003, rules 9, 10 and 11; Nelson rules 1 and 4; optional rule 5's casualties).

Rule 9: each battery that bears throws a die: 4-6 hits within its short range, 5-6 within its
long range (a half battery hits only on a 6); each hit takes one flotation and one crew; at no
flotation the ship sinks. Range is mainmast to mainmast, bands include their upper edge. Rule 10:
fore and aft guns bear if the keel line passes through the target; broadside guns if the fan
(15 degrees either side of the beam, its base anywhere along the side) covers the target's
mainmast; a whole broadside fires at one ship. Rule 11: a hit thrown with a 6 costs the target a
battery of its owner's choosing. Nelson 1: raked at close range (the target's keel line passes
through the firer), hits count double. Nelson 4: ships of the line (64 guns or more) hold their
fire from frigates (under 50) until the frigate has fired. Line of fire (a decision): another hull
or land in the way blocks a shot; shoals do not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core import plane
from quarterdeck.core.errors import IllegalAction
from quarterdeck.core.events import BatteryLost, DieRolled, Fired, Hit
from quarterdeck.core.words import counted, hits_phrase

from .actions import Fire, Remove
from .scenario import AHEAD, ASTERN, KINDS, PORT, STARBOARD, Battery, tables
from .ship import PRIZE, Ship

if TYPE_CHECKING:
    from .state import NavalState

SIDE = {PORT: -1, STARBOARD: +1}
KEEL = {AHEAD: +1, ASTERN: -1}
BANDS = {kind: (round(r[0] * 100), round(r[1] * 100)) for kind, r in tables()["ranges"].items()}
MAX_RANGE = max(max(b) for b in BANDS.values())
RAKE_RANGE = max(b[0] for b in BANDS.values())


def band(battery: Battery, distance: float) -> str:
    """'short', 'long' or '' (out of range) for a battery at a distance in hundredths."""
    short, long = BANDS[battery.kind]
    if distance <= short:
        return "short"
    if distance <= long:
        return "long"
    return ""


def bears(firer: Ship, mount: str, target: Ship) -> bool:
    if mount in SIDE:
        return plane.broadside_bears(firer.point, firer.heading, firer.spec.length, firer.spec.beam, SIDE[mount],
                                     target.point)
    return keel_line_reaches(firer.point, firer.heading, KEEL[mount], target.point, target.spec.length, target.hull())


def keel_line_reaches(point: plane.Point, heading: int, direction: int, target_point: plane.Point,
                      target_length: float, hull: plane.Polygon) -> bool:
    """The keel line from `point`, ahead (1) or astern (-1), passes through `hull`. It runs on at any
    range (rule 10), so it is drawn as far as the target: one dead ahead out of range is refused for
    the range (rule 9), not the bearing."""
    reach = plane.distance(point, target_point) + target_length
    return plane.keel_line_hits(point, heading, direction, hull, reach)


def blocked(state: NavalState, firer: Ship, target: Ship) -> str:
    """The hull or land in the line of fire, or ''."""
    a, b = firer.point, target.point
    lo_x, hi_x = min(a[0], b[0]) - 300, max(a[0], b[0]) + 300
    lo_y, hi_y = min(a[1], b[1]) - 300, max(a[1], b[1]) + 300
    for other in state.ships.values():
        if other is firer or other is target or not other.in_play:
            continue
        if lo_x <= other.x <= hi_x and lo_y <= other.y <= hi_y and plane.segment_hits_polygon(a, b, other.hull()):
            return other.name
    for land in state.scenario.land:
        if land.kind == "land" and plane.segment_hits_polygon(a, b, land.polygon):
            return land.name
    return ""


GUNS = {"port": "a port broadside", "starboard": "a starboard broadside", "ahead": "the guns ahead",
        "astern": "the guns astern"}  # a mount's fire, as a hit's source reads


def raked(firer: Ship, target: Ship) -> bool:
    """Nelson rule 1: the target's keel line, ahead or astern, passes through the firer (drawn as far as
    her; the close range is her batteries' short range, open_fire)."""
    shape = firer.hull()
    return any(keel_line_reaches(target.point, target.heading, d, firer.point, firer.spec.length, shape)
               for d in (1, -1))


def gun_crews(state: NavalState, ship: Ship) -> int | None:
    """Optional rule 5: one man per battery on top of the sailing minimum, or, in a boarding action,
    the men she kept at her guns; None when unlimited."""
    if not state.scenario.option("crews"):
        return None
    if ship.grappled:
        return max(0, ship.gunners - ship.batteries_fired)
    return max(0, ship.crew - ship.spec.min_crew - ship.batteries_fired)


def why_not(state: NavalState, player: int, fire: Fire) -> tuple[str, str]:
    """(rule, reason) that forbids `fire`, or ('', '')."""
    firer = state.ships.get(fire.ship)
    target = state.ships.get(fire.target)
    if firer is None or firer.side != player:
        return "notation", f"{state.players[player]} has no ship called {fire.ship!r}"
    if target is None:
        return "notation", f"there is no ship called {fire.target!r}"
    if fire.mount not in (PORT, STARBOARD, AHEAD, ASTERN):
        return "notation", f"{fire.mount!r} is not port, starboard, ahead or astern"
    if not firer.fighting:
        return "rule 9", f"{firer.name} is out of the fight"
    if firer.on_fire:
        return "Nelson rule 3", f"{firer.name} is on fire and may not fire her guns"
    if fire.mount in firer.fired:
        return "rule 10", f"{firer.name} has fired her {fire.mount} guns this move"
    guns = firer.mount_batteries(fire.mount)
    if not guns:
        return "rule 11", f"{firer.name} has no {fire.mount} batteries left"
    if not fair_target(firer, target):
        return "rule 9", f"{target.name} is not an enemy ship that may be fired on"
    if firer.grappled and target.name != firer.grappled:
        return "rule 12", f"{firer.name} is grappled and may fire only at {firer.grappled}"
    if state.scenario.option("nelson") and (firer.spec.guns or 0) >= 64 and (target.spec.guns or 99) < 50 \
            and not target.has_fired:
        return "Nelson rule 4", f"{firer.name}, a ship of the line, may not fire on the frigate {target.name} " \
                                "until she has fired"
    if not bears(firer, fire.mount, target):
        rule_text = "fan does not cover" if fire.mount in SIDE else "keel line does not pass through"
        return "rule 10", f"{firer.name}'s {fire.mount} {rule_text} {target.name}"
    distance = plane.distance(firer.point, target.point)
    if not any(band(b, distance) for b in guns):
        return "rule 9", f"{target.name} is out of range of {firer.name}'s {fire.mount} guns ({distance / 100:.2f} in)"
    wall = blocked(state, firer, target)
    if wall:
        return "line of fire", f"{wall} is in the line of fire from {firer.name} to {target.name}"
    crews = gun_crews(state, firer)
    if crews == 0:
        if firer.grappled:
            return "optional rule 5", f"{firer.name} kept no men at her guns in the boarding action"
        return "optional rule 5", f"{firer.name} has no men left over the sailing minimum to work her guns"
    return "", ""


def fair_target(firer: Ship, target: Ship) -> bool:
    """An enemy fighting ship, or a prize the enemy holds: a ship with captives may be fired on
    (optional rule 6); a surrendered ship may not."""
    if target.status == PRIZE:
        return target.captor != firer.side
    return target.side != firer.side and target.fighting


def options(state: NavalState, player: int) -> list[Fire]:
    found = []
    enemies = [s for s in state.ordered_ships() if s.controller != player and (s.fighting or s.status == PRIZE)]
    for firer in state.ordered_ships():
        if firer.side != player or not firer.fighting or firer.on_fire:
            continue
        mounts = sorted({m for m, _ in firer.batteries} - set(firer.fired), key=("port", "starboard", "ahead",
                                                                                 "astern").index)
        for mount in mounts:
            for target in enemies:
                if plane.distance(firer.point, target.point) > MAX_RANGE:
                    continue
                action = Fire(firer.name, mount, target.name)
                if not why_not(state, player, action)[0]:
                    found.append(action)
    return found


def check(state: NavalState, player: int, fire: Fire) -> None:
    rule, reason = why_not(state, player, fire)
    if rule:
        raise IllegalAction(rule, reason)


def open_fire(state: NavalState, fire: Fire) -> None:
    """Each battery of the mount that reaches the target throws a die (rule 9)."""
    firer, target = state.ships[fire.ship], state.ships[fire.target]
    distance = plane.distance(firer.point, target.point)
    shots = [(b, band(b, distance)) for b in firer.mount_batteries(fire.mount)]
    shots = [(b, r) for b, r in shots if r]
    crews = gun_crews(state, firer)
    if crews is not None:
        shots = shots[:crews]
    firer.fired = (*firer.fired, fire.mount)
    firer.has_fired = True
    firer.batteries_fired += len(shots)
    # Nelson rule 1 rakes "at close range": a volley with no battery at its short range is no rake
    rake = state.scenario.option("nelson") and any(r == "short" for _, r in shots) and raked(firer, target)
    state.volley = {
        "firer": firer.name,
        "target": target.name,
        "mount": fire.mount,
        "shots": [[b.kind, b.half, r] for b, r in shots],
        "rake": rake,
        "dice": [],
    }
    for _ in shots:
        state.push_roll("hit")
    state.push_do("volley")


def hit_die(state: NavalState, value: int) -> None:
    volley = state.volley
    kind, half, reach = volley["shots"][len(volley["dice"])]
    state.emit(DieRolled(f"{volley['firer']}'s {'half ' if half else ''}{kind} battery at {reach} range", value))
    volley["dice"].append(value)


def resolve_volley(state: NavalState) -> None:
    volley, state.volley = state.volley, None
    firer, target = state.ships[volley["firer"]], state.ships[volley["target"]]
    hits = sixes = 0
    for (_, half, reach), value in zip(volley["shots"], volley["dice"], strict=True):
        need = 6 if half else (4 if reach == "short" else 5)
        double = 2 if volley["rake"] and reach == "short" else 1
        if reach == "short":
            target.fired_close = True
        if value >= need:
            hits += double
            if value == 6 and not half:
                sixes += double
    batteries = len(volley["shots"])
    state.emit(Fired(firer.name, volley["mount"], batteries, target.name, hits,
                     f"{counted(batteries, 'battery', 'batteries')}, {hits_phrase(hits)}"))
    if not target.in_play:
        return
    if hits:
        crew_loss = casualties(state, target, hits)
        target.flotation = max(0, target.flotation - hits)
        target.crew = max(0, target.crew - crew_loss)
        factors = f"flotation {target.flotation}, crew {target.crew}"
        source = f"from {GUNS[volley['mount']]}" + (", raked" if volley["rake"] else "")
        state.emit(Hit(target.name, hits, source, factors))
    if target.flotation == 0:
        state.sink(target, "sunk", firer.name)
        return
    if state.abandon_if_empty(target):
        return
    if sixes and target.batteries:
        state.removals[target.name] = state.removals.get(target.name, 0) + sixes
        state.removal_firer[target.name] = firer.name


def casualties(state: NavalState, target: Ship, hits: int) -> int:
    """Crew lost to `hits` (rule 9), as optional rule 5 changes it: halved (rounded down) at half
    the original crew, none at a quarter; in a boarding action only gun crews (at removal)."""
    if not state.scenario.option("crews"):
        loss = hits
    elif target.grappled:
        return 0
    elif target.crew * 4 <= target.spec.crew:
        return 0
    elif target.crew * 2 <= target.spec.crew:
        loss = hits // 2
    else:
        loss = hits
    if target.prisoners and target.prisoners >= target.crew:  # optional rule 6: divided equally
        spared = loss // 2
        target.prisoners = max(0, target.prisoners - spared)
        loss -= spared
    return loss


# --- rule 11: the target's owner removes batteries ------------------------------------------------------
def removal_options(state: NavalState, player: int) -> list[Remove]:
    found = []
    for name, count in state.removals.items():
        ship = state.ships[name]
        if count <= 0 or ship.controller != player or not ship.batteries:
            continue
        seen = []
        for mount, battery in ship.batteries:
            if (mount, battery) not in seen:
                seen.append((mount, battery))
                found.append(Remove(name, mount, battery.kind, battery.half))
    return found


def check_removal(state: NavalState, player: int, action: Remove) -> None:
    ship = state.ships.get(action.ship)
    if ship is None or ship.controller != player or state.removals.get(action.ship, 0) <= 0:
        raise IllegalAction("rule 11", f"no six has struck {action.ship!r} of {state.players[player]} to remove a "
                            "battery for")
    if (action.mount, Battery(action.kind, action.half)) not in ship.batteries:
        raise IllegalAction("rule 11", f"{action.ship} has no {'half ' if action.half else ''}{action.kind} "
                            f"battery {action.mount}")


def remove_battery(state: NavalState, action: Remove, reason: str = "to a six, rule 11") -> None:
    ship = state.ships[action.ship]
    ship.batteries.remove((action.mount, Battery(action.kind, action.half)))
    where = action.mount if action.mount in ("ahead", "astern") else f"to {action.mount}"
    state.emit(BatteryLost(ship.name, f"{'half ' if action.half else ''}{action.kind} battery {where}", reason))
    if action.jettison:
        return
    state.removals[ship.name] -= 1
    if state.scenario.option("crews") and ship.grappled and ship.gunners > len(ship.batteries):
        # optional rule 5: in a boarding action only "the gun crews, if any, of the destroyed guns" die;
        # her men man as many batteries as they are, and an unmanned one is lost first (a decision)
        ship.crew -= 1
        ship.gunners -= 1
    if not ship.batteries:
        state.removals[ship.name] = 0


def auto_removal(state: NavalState, name: str) -> Remove:
    """Rulings: a half battery first, then short, medium, long; among equals one not bearing on the firer."""
    ship = state.ships[name]
    firer = state.ships.get(state.removal_firer.get(name, ""))

    def key(entry: tuple[str, Battery]) -> tuple:
        mount, battery = entry
        bearing = firer is not None and firer.in_play and bears(ship, mount, firer)
        return (not battery.half, KINDS.index(battery.kind), bearing)

    mount, battery = min(ship.batteries, key=key)
    return Remove(name, mount, battery.kind, battery.half)
