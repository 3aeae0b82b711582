"""The continuous table (Naval Warfare 1500-1850, seed 003): points, headings, hulls, fans, keel lines.

Units are those of the rule book kept exact: a position is a pair of whole hundredths of an inch
(x east, y north, from the table's south-west corner), a heading is a whole number of degrees
(0 = north, 90 = east, clockwise). Hulls are rectangles centred on the mainmast (rules-decisions,
"Table and ships"). Everything here is plain vector maths on tuples: the shapes are tiny (four
corners, or a land polygon of a few dozen), so a loop over edges is faster than building library
geometry objects for every test (docs/architecture.md, "core/plane.py").

Conventions settled by the rulings ("Exact readings"): shapes that only touch do not overlap; a
segment that grazes a shape crosses it; the fan's 15-degree edge counts as inside.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS = 1e-7
_SIN = tuple(math.sin(math.radians(d)) for d in range(360))
_COS = tuple(math.cos(math.radians(d)) for d in range(360))
FAN_TAN = math.tan(math.radians(15))


# --- headings ------------------------------------------------------------------------------------
def heading_vector(heading: int) -> Point:
    """Unit vector of a whole-degree heading (x east, y north)."""
    h = heading % 360
    return _SIN[h], _COS[h]


def norm(heading: float) -> float:
    return heading % 360


def angle_off(a: float, b: float) -> float:
    """The unsigned angle between two headings, 0..180."""
    d = abs(a - b) % 360
    return 360 - d if d > 180 else d


def signed_turn(start: float, end: float) -> float:
    """The turn from `start` to `end`, -180 < turn <= 180, positive clockwise (to starboard)."""
    d = (end - start) % 360
    return d - 360 if d > 180 else d


def bearing(a: Point, b: Point) -> float:
    """Heading from a to b in degrees [0, 360); 0 when the points coincide."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360


def distance(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def advance(point: Point, heading: int, run: float) -> tuple[int, int]:
    """The point `run` hundredths along `heading`, rounded to whole hundredths (half to even)."""
    dx, dy = heading_vector(heading)
    return round(point[0] + dx * run), round(point[1] + dy * run)


def local(center: Point, heading: int, point: Point) -> Point:
    """`point` in a ship's frame: (ahead of the mainmast, to starboard of the keel line)."""
    fx, fy = heading_vector(heading)
    dx, dy = point[0] - center[0], point[1] - center[1]
    return dx * fx + dy * fy, dx * fy - dy * fx


# --- hulls ---------------------------------------------------------------------------------------
def hull(center: Point, heading: int, length: float, beam: float) -> Polygon:
    """The hull rectangle: bow starboard, bow port, stern port, stern starboard corners."""
    fx, fy = heading_vector(heading)
    sx, sy = fy, -fx  # starboard: 90 degrees clockwise of ahead
    hl, hb = length / 2, beam / 2
    cx, cy = center
    return (
        (cx + fx * hl + sx * hb, cy + fy * hl + sy * hb),
        (cx + fx * hl - sx * hb, cy + fy * hl - sy * hb),
        (cx - fx * hl - sx * hb, cy - fy * hl - sy * hb),
        (cx - fx * hl + sx * hb, cy - fy * hl + sy * hb),
    )


def swept(center: Point, heading: int, length: float, beam: float, end: Point) -> Polygon:
    """The area a hull covers while it moves without turning from `center` to `end`."""
    start = hull(center, heading, length, beam)
    dx, dy = end[0] - center[0], end[1] - center[1]
    if dx == 0 and dy == 0:
        return start
    return convex_hull(start + tuple((x + dx, y + dy) for x, y in start))


def convex_hull(points: Sequence[Point]) -> Polygon:
    """Andrew's monotone chain, counter-clockwise, without collinear points."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return tuple(pts)

    def half(seq: Sequence[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while len(out) >= 2 and _cross(out[-2], out[-1], p) <= 0:
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return tuple(lower[:-1] + upper[:-1])


def radius(polygon: Polygon) -> tuple[Point, float]:
    """A centre and a radius that enclose the polygon (for quick rejection)."""
    n = len(polygon)
    cx = sum(p[0] for p in polygon) / n
    cy = sum(p[1] for p in polygon) / n
    return (cx, cy), max(math.hypot(p[0] - cx, p[1] - cy) for p in polygon)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _projections(polygon: Polygon, ax: float, ay: float) -> tuple[float, float]:
    values = [x * ax + y * ay for x, y in polygon]
    return min(values), max(values)


def _axis_gaps(a: Polygon, b: Polygon):
    """For each edge normal of both convex polygons: the gap between their projections on it
    (negative where the projections overlap)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ax, ay = y1 - y2, x2 - x1
            scale = math.hypot(ax, ay)
            if scale == 0:
                continue
            ax, ay = ax / scale, ay / scale
            amin, amax = _projections(a, ax, ay)
            bmin, bmax = _projections(b, ax, ay)
            yield max(bmin - amax, amin - bmax)


def convex_overlap(a: Polygon, b: Polygon) -> bool:
    """Whether two convex polygons share interior (touching is not overlapping)."""
    return all(gap < -EPS for gap in _axis_gaps(a, b))


def convex_separation(a: Polygon, b: Polygon) -> float:
    """The widest gap between two convex polygons along their edge normals: a lower bound of the
    distance between them (negative when they overlap), cheap enough to rule out contact first."""
    return max(_axis_gaps(a, b))


# --- segments and general polygons -------------------------------------------------------------
def _segment_distance_point(p: Point, a: Point, b: Point) -> float:
    abx, aby = b[0] - a[0], b[1] - a[1]
    length2 = abx * abx + aby * aby
    if length2 == 0:
        return math.hypot(p[0] - a[0], p[1] - a[1])
    t = max(0.0, min(1.0, ((p[0] - a[0]) * abx + (p[1] - a[1]) * aby) / length2))
    return math.hypot(p[0] - a[0] - t * abx, p[1] - a[1] - t * aby)


def _apart(a: Point, b: Point, lo_x: float, hi_x: float, lo_y: float, hi_y: float) -> bool:
    """Whether segment a-b lies more than EPS outside the box on one axis: then nothing in the box
    can touch it (the cheap test that spares most of the exact ones)."""
    return (
        (a[0] > hi_x + EPS and b[0] > hi_x + EPS) or (a[0] < lo_x - EPS and b[0] < lo_x - EPS)
        or (a[1] > hi_y + EPS and b[1] > hi_y + EPS) or (a[1] < lo_y - EPS and b[1] < lo_y - EPS)
    )


def _box(polygon: Polygon) -> tuple[float, float, float, float]:
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    return min(xs), max(xs), min(ys), max(ys)


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Closed segments intersect (touching at a point counts)."""
    if _apart(p1, p2, min(q1[0], q2[0]), max(q1[0], q2[0]), min(q1[1], q2[1]), max(q1[1], q2[1])):
        return False
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return True
    return (
        _segment_distance_point(p1, q1, q2) <= EPS
        or _segment_distance_point(p2, q1, q2) <= EPS
        or _segment_distance_point(q1, p1, p2) <= EPS
        or _segment_distance_point(q2, p1, p2) <= EPS
    )


def segment_distance(p1: Point, p2: Point, q1: Point, q2: Point) -> float:
    if segments_cross(p1, p2, q1, q2):
        return 0.0
    return min(
        _segment_distance_point(p1, q1, q2),
        _segment_distance_point(p2, q1, q2),
        _segment_distance_point(q1, p1, p2),
        _segment_distance_point(q2, p1, p2),
    )


def _edges(polygon: Polygon):
    n = len(polygon)
    for i in range(n):
        yield polygon[i], polygon[(i + 1) % n]


def point_in_polygon(point: Point, polygon: Polygon) -> bool:
    """Closed test (a point on the boundary is inside); works for any simple polygon."""
    return not _apart(point, point, *_box(polygon)) and _point_within(point, polygon)


def _point_within(point: Point, polygon: Polygon) -> bool:
    """point_in_polygon without its box test, for a caller that has made it."""
    x, y = point
    inside = False
    for a, b in _edges(polygon):
        if _segment_distance_point(point, a, b) <= EPS:
            return True
        if (a[1] > y) != (b[1] > y):
            xs = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if xs > x:
                inside = not inside
    return inside


def segment_hits_polygon(p: Point, q: Point, polygon: Polygon) -> bool:
    """Whether the closed segment p-q touches the closed polygon (grazing counts)."""
    if _apart(p, q, *_box(polygon)):
        return False
    if _point_within(p, polygon) or _point_within(q, polygon):
        return True
    return any(segments_cross(p, q, a, b) for a, b in _edges(polygon))


def polygons_touch(a: Polygon, b: Polygon) -> bool:
    """Closed polygons (any simple ones) share a point: touching counts."""
    if any(segments_cross(p1, p2, q1, q2) for p1, p2 in _edges(a) for q1, q2 in _edges(b)):
        return True
    return point_in_polygon(a[0], b) or point_in_polygon(b[0], a)


def polygons_overlap(a: Polygon, b: Polygon) -> bool:
    """Interiors meet (touching alone is not overlapping); `a` convex, `b` any simple polygon.

    Used for hulls against land, which may be concave: a proper edge crossing, or a vertex
    strictly inside the other shape, or the same shape.
    """
    for p1, p2 in _edges(a):
        for q1, q2 in _edges(b):
            d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
            d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
            if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
                (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
            ):
                return True
    centre_a = (sum(p[0] for p in a) / len(a), sum(p[1] for p in a) / len(a))
    return _strictly_inside(centre_a, b) or any(_strictly_inside(p, b) for p in a) or any(
        _strictly_inside(p, a) for p in b
    )


def _strictly_inside(point: Point, polygon: Polygon) -> bool:
    if any(_segment_distance_point(point, a, b) <= EPS for a, b in _edges(polygon)):
        return False
    return point_in_polygon(point, polygon)


def nearest_point(point: Point, polygon: Polygon) -> Point:
    """The point of the polygon's boundary nearest `point` (an abandoned galley's beach, seed 003)."""
    best, gap = polygon[0], math.inf
    for a, b in _edges(polygon):
        abx, aby = b[0] - a[0], b[1] - a[1]
        length2 = abx * abx + aby * aby
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((point[0] - a[0]) * abx + (point[1] - a[1]) * aby) / length2))
        near = (a[0] + t * abx, a[1] + t * aby)
        d = math.hypot(point[0] - near[0], point[1] - near[1])
        if d < gap:
            best, gap = near, d
    return best


def polygon_gap(a: Polygon, b: Polygon) -> float:
    """The shortest distance between two polygons (0 when they touch or overlap)."""
    if polygons_touch(a, b):
        return 0.0
    return min(segment_distance(p1, p2, q1, q2) for p1, p2 in _edges(a) for q1, q2 in _edges(b))


# --- fire ----------------------------------------------------------------------------------------
def broadside_bears(center: Point, heading: int, length: float, beam: float, side: int, target: Point) -> bool:
    """Whether a broadside fan (plus or minus 15 degrees of the beam) covers `target` (seed 003, rule 10).

    `side` is +1 for starboard, -1 for port. The fan's base may stand anywhere along that side,
    so the target must lie on that side, beyond the side of the hull, and within 15 degrees of the
    beam seen from some point of the side (the union of the fans: a wedge widening outward).
    """
    ahead, across = local(center, heading, target)
    outward = across * side - beam / 2
    if outward < -EPS:
        return False
    beyond = max(0.0, abs(ahead) - length / 2)
    return beyond <= outward * FAN_TAN + EPS


def keel_line_hits(center: Point, heading: int, direction: int, polygon: Polygon, reach: float) -> bool:
    """Whether the keel line from the mainmast, ahead (+1) or astern (-1), meets `polygon` within `reach`."""
    dx, dy = heading_vector(heading)
    end = (center[0] + dx * reach * direction, center[1] + dy * reach * direction)
    return any(segments_cross(center, end, a, b) for a, b in _edges(polygon)) or point_in_polygon(end, polygon)


def in_table(point: Point, width: float, height: float) -> bool:
    return 0 <= point[0] <= width and 0 <= point[1] <= height
