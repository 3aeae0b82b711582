"""A ship in play: where she is, what she has suffered, and what she has done this turn and segment.

Seed 001, Movement 4-5 and Combat 4 (mast and crew damage, fighting sail), with the reconstructed
ship values of shared/design/rules-decisions.md, Frigate, "Numbers and rulings": GS = DS =
max(1, round(rating / 8)); hull boxes ceil(rating / 12) + 2; 3 crew hits cripple, 3 mast hits
dismast, each gun hit -1 GS.
"""

from __future__ import annotations

from typing import Any

from quarterdeck.core.hexes import Hex, HexDir

from .scenario import ScheduleRow, ShipSpec, Tables

ACTIVE, SUNK, ESCAPED = "active", "sunk", "escaped"


class Ship:
    def __init__(self, spec: ShipSpec, row: ScheduleRow):
        self.spec = spec
        self.row = row
        self.name = spec.name
        self.side = spec.side  # the colours she started under
        self.hex: Hex = spec.hex
        self.facing: HexDir = spec.facing
        self.owner = spec.side  # who sails her now (a prize changes hands)
        self.status = ACTIVE
        self.hull = self.crew = self.guns = self.masts = 0
        self.fighting_sail = False
        self.sail_chosen = False
        self.last_ma = spec.ma  # momentum: the MA declared last turn
        self.ma = 0
        self.declared = False
        self.cut = False  # asked to cut loose at this Declaration
        self.afoul = ""  # the ship she is afoul of
        self.afoul_side = ""  # which of her sides lies against it
        self.fired: frozenset[str] = frozenset()  # batteries fired this game-turn
        self.first_fire_turn = 0  # the game-turn she first fired a broadside (0: never)
        self.fired_on_turn = 0
        self.course: HexDir | None = None  # Command Control: the one direction she must sail
        self.free_turn = ""  # dead to windward: the free hexside away from the wind, pending
        self.penalty = 0  # mast hits taken earlier this turn: 1 MP less each later segment
        self.mast_hits_now = 0  # mast hits landing at the end of this segment
        self.left = 0  # points left in this segment
        self.debt = 0  # points a turn has borrowed from later segments
        self.turned_here = 0  # hexsides turned since she last entered a hex
        self.turn_k = 0  # wind offset at the start of the segment when turning in this hex began
        self.turn_way = 0  # +1 starboard / -1 port: the way of the first hexside turned in this hex
        self.segment_k = 0  # wind offset (wind source - facing, mod 6) at the start of this segment
        self.must_leave = False  # cut loose: the first point must leave the hex
        self.passed = False  # passed to the segment's end
        self.started = False  # has begun spending this segment's points
        self.captured_turn = 0  # the game-turn she was taken (a prize sails from the next)
        self.destroying = -1  # turns afoul since her captors announced her destruction (-1: not)
        self.plot: tuple[str, ...] = ()  # SiMove: the steps plotted for this segment
        self.edge = ""  # the map edge she left by, when she escaped
        self.striking = False  # declared to strike her colours at this Declaration

    def copy(self) -> Ship:
        """Every field is immutable (numbers, strings, tuples, frozensets), so a shallow copy is a
        full one; copied as one dictionary, since a search clones states thousands of times."""
        twin = Ship.__new__(Ship)
        twin.__dict__.update(self.__dict__)
        return twin

    # --- what she is ---------------------------------------------------------------------------
    @property
    def afloat(self) -> bool:
        return self.status == ACTIVE

    @property
    def prize(self) -> bool:
        return self.owner != self.side

    @property
    def merchantman(self) -> bool:
        return self.spec.cls == "merchantman"

    def crippled(self, tables: Tables) -> bool:
        return self.crew >= tables.crew_limit

    def dismasted(self, tables: Tables) -> bool:
        return self.masts >= tables.mast_limit

    def capturable(self, tables: Tables) -> bool:
        """Seed, Prizes 1: a merchantman, or a warship with three crew hits."""
        return self.merchantman or self.crippled(tables)

    def max_ma(self, tables: Tables, velocity: str, wind_from: HexDir) -> int:
        """The schedule's maximum for the wind on her present facing, after mast damage, fighting
        sail and prize crews (reconstructed): 1 mast hit x 2/3, 2 hits x 1/3 (down); fighting sail
        halves it and ignores 1-2 mast hits (seed, Movement 5); a prize sails at half."""
        if velocity == "no wind" or self.dismasted(tables):
            return 0
        base = self.row.maxima[velocity][_RELATIVE_INDEX[(wind_from - self.facing) % 6]]
        if self.fighting_sail:
            base //= 2
        elif self.masts == 1:
            base = base * 2 // 3
        elif self.masts == 2:
            base //= 3
        if self.prize:
            base //= 2
        return min(base, 20)

    def gunnery(self) -> int:
        """Gunnery Strength of one broadside after gun hits (floor 0)."""
        return max(0, self.spec.gs - self.guns)

    def to_json(self, grid_name: Any) -> dict[str, Any]:
        return {
            "name": self.name, "side": self.side, "owner": self.owner, "status": self.status,
            "rating": self.spec.rating, "class": self.spec.cls,
            "hex": grid_name(self.hex), "facing": self.facing.name,
            "hull": self.hull, "crew": self.crew, "guns": self.guns, "masts": self.masts,
            "fighting_sail": self.fighting_sail, "sail_chosen": self.sail_chosen,
            "last_ma": self.last_ma, "ma": self.ma, "declared": self.declared, "cut": self.cut,
            "afoul": self.afoul, "afoul_side": self.afoul_side, "fired": sorted(self.fired),
            "first_fire_turn": self.first_fire_turn, "fired_on_turn": self.fired_on_turn,
            "course": self.course.name if self.course is not None else None, "free_turn": self.free_turn,
            "penalty": self.penalty, "mast_hits_now": self.mast_hits_now, "left": self.left, "debt": self.debt,
            "turned_here": self.turned_here, "turn_k": self.turn_k, "turn_way": self.turn_way,
            "segment_k": self.segment_k, "must_leave": self.must_leave, "passed": self.passed,
            "started": self.started, "captured_turn": self.captured_turn, "destroying": self.destroying,
            "plot": list(self.plot), "edge": self.edge, "striking": self.striking,
        }

    def load_json(self, data: dict[str, Any], parse_hex: Any) -> None:
        self.owner, self.status = int(data["owner"]), str(data["status"])
        self.hex, self.facing = parse_hex(data["hex"]), HexDir[data["facing"]]
        for name in ("hull", "crew", "guns", "masts", "last_ma", "ma", "first_fire_turn", "fired_on_turn",
                     "penalty", "mast_hits_now", "left", "debt", "turned_here", "turn_k", "turn_way", "segment_k",
                     "captured_turn", "destroying"):
            setattr(self, name, int(data[name]))
        for name in ("fighting_sail", "sail_chosen", "declared", "cut", "must_leave", "passed", "started", "striking"):
            setattr(self, name, bool(data[name]))
        self.afoul, self.afoul_side = str(data["afoul"]), str(data["afoul_side"])
        self.free_turn, self.edge = str(data["free_turn"]), str(data["edge"])
        self.fired = frozenset(str(b) for b in data["fired"])
        self.course = None if data["course"] is None else HexDir[data["course"]]
        self.plot = tuple(str(s) for s in data["plot"])


_RELATIVE_INDEX = (0, 1, 2, 3, 2, 1)  # wind offset from the bow -> front, side-front, side-rear, rear
