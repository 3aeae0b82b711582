"""Boarding (seed 003, rule 12, with the rulings on its gaps).

A ship whose run ends in contact with an enemy may try to grapple: 4-6. Then two rounds, all dice
at once: each side throws one die per five surviving crew (at least one); round one the attacker
takes 2 from each die and the defender 3, round two the attacker 3 and the defender 2; what is
left of each die kills that many enemy crew. After the second round the attacker may withdraw
(cutting grapples on 4-6) or the defender throws for morale, 2 off if one side is more than twice
the other: 1-2 the smaller side surrenders or is repelled, 3-5 the fight goes on next move (after
drifting, from round one), 6 the larger side surrenders or is repelled. Equal crews: the attacker
counts as smaller. Repelled boarders: the defender may cut grapples on 4-6. A side with no crew
left yields at once. With the crews rule (optional rule 5) each side first keeps men at her guns,
attacker first; only the others fight (dice, losses and the morale sizes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quarterdeck.core.events import BoardingRound, DieRolled, Marked

from .movement import cast_off
from .ship import PRIZE, Ship

if TYPE_CHECKING:
    from .state import NavalState

MODIFIERS = {1: (2, 3), 2: (3, 2)}  # round: (attacker's, defender's) subtraction per die


def dice_for(crew: int) -> int:
    """One die per five surviving crew, at least one; none with no crew (rulings)."""
    return 0 if crew <= 0 else max(1, crew // 5)


def grapple_die(state: NavalState, attacker: Ship, defender: Ship, value: int) -> None:
    state.emit(DieRolled(f"{attacker.name} grapples {defender.name} (rule 12)", value))
    if value < 4 or not attacker.fighting or not (defender.fighting or defender.status == PRIZE):
        return
    attacker.grappled, defender.grappled = defender.name, attacker.name
    state.emit(Marked(attacker.name, f"grapples {defender.name}", "rule 12"))
    # grappled ships drift together (rule 12): a tow of hers is cast off, or her tower would drag her from
    # her boarder's side still grappled (a decision; the boarder has none: no ship in a tow may board)
    cast_off(state, defender)
    begin(state, attacker, defender)


def fighters(ship: Ship) -> int:
    """The men in the boarding fight: her crew less those kept at the guns (optional rule 5)."""
    return max(0, ship.crew - ship.gunners)


def begin(state: NavalState, attacker: Ship, defender: Ship, round_number: int = 1) -> None:
    """A fight opens (or goes on from round one): with the crews rule each side first says how many
    men stay at her guns, attacker first ("men may be allocated to repel boarders, and others to
    operate the guns"; "the boarding ship may leave men behind to operate its guns")."""
    if round_number == 1 and state.scenario.option("crews") and attacker.crew > 0 and defender.crew > 0:
        for ship in (attacker, defender):
            ship.gunners = 0
            if ship.batteries and ship.crew > 1:
                state.push_decide(ship.controller, "gunners", ship.name, attacker.name, defender.name)
        state.push_do("boarding-dice", attacker.name, defender.name)
        return
    throw(state, attacker, defender, round_number)


def throw(state: NavalState, attacker: Ship, defender: Ship, round_number: int = 1) -> None:
    """Both sides' dice for a round, one per five fighting men (rule 12)."""
    if fighters(attacker) <= 0 or fighters(defender) <= 0:
        settle(state, attacker, defender, attacker if fighters(attacker) <= 0 else defender)
        return
    state.fight = {"attacker": attacker.name, "defender": defender.name, "round": round_number,
                   "a": dice_for(fighters(attacker)), "d": dice_for(fighters(defender)), "dice": []}
    for _ in range(state.fight["a"] + state.fight["d"]):
        state.push_roll("boarding")
    state.push_do("boarding-round")


def boarding_die(state: NavalState, value: int) -> None:
    fight = state.fight
    who = fight["attacker"] if len(fight["dice"]) < fight["a"] else fight["defender"]
    state.emit(DieRolled(f"{who} in boarding round {fight['round']}", value))
    fight["dice"].append(value)


def round_done(state: NavalState) -> None:
    fight, state.fight = state.fight, None
    attacker, defender = state.ships[fight["attacker"]], state.ships[fight["defender"]]
    a_mod, d_mod = MODIFIERS[fight["round"]]
    a_dice, d_dice = fight["dice"][: fight["a"]], fight["dice"][fight["a"] :]
    killed_d = min(fighters(defender), sum(max(0, v - a_mod) for v in a_dice))
    killed_a = min(fighters(attacker), sum(max(0, v - d_mod) for v in d_dice))
    defender.crew -= killed_d
    attacker.crew -= killed_a
    state.emit(BoardingRound(attacker.name, defender.name, fight["round"], killed_d, killed_a))
    if fighters(attacker) <= 0 or fighters(defender) <= 0:
        settle(state, attacker, defender, attacker if fighters(attacker) <= 0 else defender)
    elif fight["round"] == 1:
        throw(state, attacker, defender, 2)
    else:
        state.push_decide(attacker.side, "withdraw", attacker.name, defender.name)


def withdraw_die(state: NavalState, attacker: Ship, defender: Ship, value: int) -> None:
    state.emit(DieRolled(f"{attacker.name} cuts grapples to withdraw (rule 12)", value))
    if value >= 4:
        release(state, attacker, "withdraws")
    else:
        state.push_roll("morale", attacker.name, defender.name)


def morale_die(state: NavalState, attacker: Ship, defender: Ship, value: int) -> None:
    ca, cd = fighters(attacker), fighters(defender)
    modifier = -2 if max(ca, cd) > 2 * min(ca, cd) else 0
    score = value + modifier
    state.emit(DieRolled(f"{defender.name}'s morale (rule 12){' -2' if modifier else ''}", value))
    smaller, larger = (attacker, defender) if ca <= cd else (defender, attacker)
    if score <= 2:
        settle(state, attacker, defender, smaller)
    elif score >= 6:
        settle(state, attacker, defender, larger)
    else:
        state.continuing.append((attacker.name, defender.name))
        state.emit(Marked(attacker.name, f"fights on with {defender.name} next move", "rule 12"))


def settle(state: NavalState, attacker: Ship, defender: Ship, loser: Ship) -> None:
    """The loser yields: a defender surrenders (held, grappled, for an extra move when prizes are
    on: optional rule 6) or, a prize, is retaken by her own side; an attacker is repelled (rule 12)."""
    from .prizes import freed, surrender

    if loser is defender:
        state.emit(Marked(defender.name, f"is carried by {attacker.name}'s boarders", "rule 12"))
        if defender.status == PRIZE:
            release(state, attacker, "")
            freed(state, defender, f"is retaken by {attacker.name}", False)
            return
        if not state.scenario.option("prizes"):
            release(state, attacker, "")
        state.continuing = [(a, d) for a, d in state.continuing if defender.name not in (a, d)]
        surrender(state, defender, "boarding", attacker)
        return
    state.emit(Marked(attacker.name, f"is repelled by {defender.name}", "rule 12"))
    for ship in (attacker, defender):
        state.abandon_if_empty(ship)
    if (defender.fighting or defender.status == PRIZE) and attacker.in_play:
        state.push_decide(defender.controller, "repel", defender.name, attacker.name)


def cut_die(state: NavalState, ship: Ship, value: int) -> None:
    state.emit(DieRolled(f"{ship.name} cuts grapples (rule 12)", value))
    if value >= 4 and ship.grappled:
        release(state, ship, "cuts the grapples")
        if state.moving == ship.side and ship.fighting:
            ship.moved = False  # rule 12: she may then move, if she has not already


def release(state: NavalState, ship: Ship, how: str) -> None:
    partner = state.ships.get(ship.grappled)
    if partner is not None and partner.grappled == ship.name:
        partner.grappled = ""
        partner.gunners = 0
    ship.gunners = 0
    if how and ship.grappled:
        state.emit(Marked(ship.name, f"{how} from {ship.grappled}", "rule 12"))
    ship.grappled = ""
    state.continuing = [(a, d) for a, d in state.continuing if ship.name not in (a, d)]


def continue_fights(state: NavalState) -> None:
    """Fights that go on from last move start again at round one, after drifting (rulings)."""
    fights, state.continuing = state.continuing, []
    for a, d in fights:
        attacker, defender = state.ships[a], state.ships[d]
        if attacker.in_play and defender.in_play and attacker.grappled == d:
            state.push_do("renew-fight", a, d)
