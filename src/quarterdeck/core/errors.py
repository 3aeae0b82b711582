"""One family of errors, each naming the rule or field at fault.

Every error leaves the state it was raised from exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable


class QuarterdeckError(Exception):
    """Base of every error the engine reports to a user."""


class IllegalAction(QuarterdeckError):
    """An action that breaks a rule. `rule` is a short stable name (e.g. ``non-adjacency``)."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.message = message


class NotationError(QuarterdeckError):
    """Text that does not parse as an action; `field` names the part that is wrong."""

    def __init__(self, field: str, message: str, text: str = ""):
        where = f" in {text!r}" if text else ""
        super().__init__(f"{message}{where} [field: {field}]")
        self.field = field
        self.message = message
        self.text = text


class ScenarioError(QuarterdeckError):
    """A scenario or options file that is malformed or describes an impossible position."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# The one way every game refuses a scenario, an option or a field of a scenario file it does not
# have, naming those it has.
def unknown_scenario(name: str, known: Iterable[str]) -> ScenarioError:
    return ScenarioError("scenario", f"no scenario {name!r}; scenarios are {', '.join(known)}")


def unknown_option(key: str, known: Iterable[str]) -> ScenarioError:
    return ScenarioError(f"options.{key}", f"no such option; options are {', '.join(known)}")


def unknown_field(field: str, known: Iterable[str]) -> ScenarioError:
    return ScenarioError(field, f"no such field; fields are {', '.join(known)}")


def refuse_unknown_keys(table: Iterable[str], known: Iterable[str], where: str = "") -> None:
    """Refuse the first key of a file's `table` (in the file's order) that is none of `known`, naming
    it after `where` (`ships[2].`) and listing `known` as given: a misspelt key is never left out."""
    names = list(known)
    for key in table:
        if key not in names:
            raise unknown_field(f"{where}{key}", names)


class RecordError(QuarterdeckError):
    """A game record (or saved state) that is corrupt; `line` is 1-based where known."""

    def __init__(self, message: str, line: int | None = None):
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{message}")
        self.line = line
        self.message = message


class UnknownGame(QuarterdeckError):
    def __init__(self, name: str, known: list[str]):
        super().__init__(f"unknown game {name!r}; known games: {', '.join(known)}")
        self.name = name
