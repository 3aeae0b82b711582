"""A ship in play (seed 003, "ship characteristics" and the damage record kept on paper).

The immutable data (`ShipSpec`) is shared by every state; `Ship` holds what changes: place,
heading, flotation, crew, the batteries left and where they point, masts, and the markers the
rules put on a ship (drifting, in irons, on fire, grappled, hove to, under oars, towing, prize).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from quarterdeck.core import plane
from quarterdeck.core.errors import RecordError

from .scenario import MOUNTS, Battery, ShipSpec

# Where a ship stands: in play, or out of it and why (rulings, "Victory").
AFLOAT = "afloat"
WAITING = "waiting"  # a reinforcement not yet on the table
SURRENDERED = "surrendered"  # offered and accepted, not yet secured (optional rule 6)
PRIZE = "prize"  # secured by the enemy, on the table under a prize crew (optional rule 6)
ROWING = "rowing"  # an abandoned galley her slaves row for the nearest beach (optional rule 4)
OUT = ("sunk", "wrecked", "blown-up", "foundered", "taken", "abandoned", "beached", "disengaged")
LOST = ("sunk", "wrecked", "blown-up", "foundered", "taken", "abandoned", "beached")
ON_TABLE = (AFLOAT, SURRENDERED, PRIZE, ROWING)
HELD = (SURRENDERED, PRIZE, ROWING)  # on the table, and scored as lost while they stay so (rulings, "Victory")


@dataclass(slots=True)
class Ship:
    name: str
    side: int
    spec: ShipSpec
    x: int
    y: int
    heading: int
    flotation: int
    crew: int
    batteries: list[tuple[str, Battery]]
    status: str = AFLOAT
    masts_lost: int = 0
    marks: int = 0  # damage thresholds reached and checked: 1 quarter, 2 half, 3 three-quarters
    adrift: bool = False  # drifting until a 4-6 at the start of a move (collision, heave to; rule 6)
    heave_to: bool = False  # announced with this move: adrift from the next (rule 6)
    irons: bool = False  # rule 7
    irons_turn: bool = False  # rolled 5-6 this move: one turn allowed (rule 7)
    on_fire: int = 0  # 0: not on fire; else 1 + the failed rolls to put it out (Nelson rule 3)
    grappled: str = ""  # the ship it is grappled to (rule 12)
    moved: bool = False
    fired: tuple[str, ...] = ()  # mounts fired this move
    has_fired: bool = False  # ever (Nelson rule 4)
    fired_close: bool = False  # fired on at close range this move (optional rule 2)
    oars: bool = False  # under oars (optional rule 4)
    converting: str = ""  # "oars" or "sail": changing rig this move (optional rule 4)
    tow: str = ""  # the partner of a tow (optional rule 3)
    towing: bool = False  # True for the tower
    jury: int = 0  # moves counted toward a jury mast (optional rule 2)
    jury_done: bool = False
    boats: bool = False  # towed by boats last move (optional rule 1)
    drift_next: int = 0  # the move in which she drifts after stopping for survivors (optional rule 5)
    prisoners: int = 0  # enemy survivors held aboard (optional rules 5 and 6)
    captor: int = -1  # the side that took it (optional rule 6)
    surrender_kind: str = ""  # "boarding" or "offered" (optional rule 6)
    dishonoured: bool = False
    escape_tried: bool = False
    prize_crew: int = 0  # men the captor put aboard when she was secured (optional rule 6)
    held_until: int = 0  # carried by boarders: the move at whose end she is secured (optional rule 6)
    batteries_fired: int = 0  # gun crews used this move (optional rule 5)
    gunners: int = 0  # men kept at the guns during a boarding action (optional rule 5)

    # --- reading ------------------------------------------------------------------------------
    @property
    def in_play(self) -> bool:
        """On the table: she blocks runs and shots, whether fighting, surrendered, a prize or rowed ashore."""
        return self.status in ON_TABLE

    @property
    def sailable(self) -> bool:
        """A prize crew of a fifth of the prisoners plus the sailing minimum can sail her (optional rule 6)."""
        return self.crew >= -(-self.prisoners // 5) + self.spec.min_crew

    @property
    def controller(self) -> int:
        """The side that moves her: her captor's while she is a prize (optional rule 6)."""
        return self.captor if self.status == PRIZE else self.side

    @property
    def fighting(self) -> bool:
        """Afloat under its own colours: it may move, fire and be fired on."""
        return self.status == AFLOAT

    @property
    def point(self) -> tuple[int, int]:
        return self.x, self.y

    @property
    def lost_flotation(self) -> int:
        return self.spec.flotation - self.flotation

    def damage_level(self) -> int:
        """Thresholds reached: 1 quarter, 2 half, 3 three-quarters damaged (rule 5; reached counts)."""
        lost, total = self.lost_flotation, self.spec.flotation
        return sum(1 for num in (1, 2, 3) if lost * 4 >= total * num)

    def hull(self, x: float | None = None, y: float | None = None, heading: int | None = None) -> plane.Polygon:
        return plane.hull(
            (self.x if x is None else x, self.y if y is None else y),
            self.heading if heading is None else heading,
            self.spec.length,
            self.spec.beam,
        )

    def mount_batteries(self, mount: str) -> list[Battery]:
        return [b for m, b in self.batteries if m == mount]

    def copy(self) -> Ship:
        twin = Ship.__new__(Ship)
        for name in _FIELDS:
            setattr(twin, name, getattr(self, name))
        twin.batteries = list(self.batteries)
        return twin

    # --- JSON -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in _FIELDS if name not in ("spec", "batteries", "fired")}
        data["fired"] = list(self.fired)
        data["batteries"] = [{"mount": m, "kind": b.kind, "half": b.half} for m, b in self.batteries]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], spec: ShipSpec) -> Ship:
        try:
            values = {name: data[name] if name not in _LATER else data.get(name, _LATER[name])
                      for name in _FIELDS if name not in ("spec", "batteries", "fired")}
            batteries = []
            for entry in data["batteries"]:
                if entry["mount"] not in MOUNTS or entry["kind"] not in ("short", "medium", "long"):
                    raise RecordError(f"not a battery: {entry!r}")
                batteries.append((entry["mount"], Battery(entry["kind"], bool(entry["half"]))))
            ship = cls(spec=spec, batteries=batteries, fired=tuple(data["fired"]), **values)
        except (KeyError, TypeError) as exc:
            raise RecordError(f"not a ship: {type(exc).__name__} {exc}") from None
        for name in ("x", "y", "heading", "flotation", "crew", "masts_lost", "marks", "on_fire", "jury"):
            if isinstance(getattr(ship, name), bool) or not isinstance(getattr(ship, name), int):
                raise RecordError(f"{ship.name}: {name} must be a whole number")
        if ship.status not in (WAITING, *ON_TABLE, *OUT):
            raise RecordError(f"{ship.name}: unknown status {ship.status!r}")
        if not 0 <= ship.flotation <= spec.flotation or ship.crew < 0 or not 0 <= ship.masts_lost <= 2:
            raise RecordError(f"{ship.name}: impossible flotation, crew or masts")
        return ship


_FIELDS = tuple(f.name for f in fields(Ship))
_LATER = {"held_until": 0, "gunners": 0}  # fields a state saved before they existed lacks
