"""Request and response bodies of the HTTP API (they make its OpenAPI schema)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SeatName = str
# One action as typed: the longest any game writes is some sixty characters, so a longer one is no
# move, and a hostile client cannot make the server hold or parse megabytes of one.
ActionText = Annotated[str, Field(max_length=500)]


class Strict(BaseModel):
    # A request says what it means: no unknown fields, and no 0 for false or "3" for 3.
    model_config = ConfigDict(extra="forbid", strict=True)


class ErrorBody(BaseModel):
    detail: str
    version: int | None = Field(None, description="the game's current version, when that is what went wrong")
    rule: str | None = Field(None, description="the rule an illegal action breaks")
    field: str | None = Field(None, description="the part of a notation or request that is wrong")
    line: int | None = Field(None, description="the line of an imported record that is wrong, where one is")


class ScenarioOut(BaseModel):
    name: str
    title: str
    briefing: str
    options: dict[str, Any] = Field(default_factory=dict, description="the scenario's options with their defaults")
    notes: dict[str, str] = Field(default_factory=dict, description="what each option does, in a line")
    choices: dict[str, list[str]] = Field(default_factory=dict, description="the names an option of a few names takes")
    seats: list[SeatName] = Field(description="the scenario's seats, in order")
    sides: dict[str, str] = Field(default_factory=dict, description="who a seat commands, where its name does not say")


class GameInfo(BaseModel):
    name: str
    title: str
    default_scenario: str
    scenarios: list[ScenarioOut]
    seats: list[SeatName] = Field(description="the default scenario's seats (each scenario lists its own)")
    level_notes: dict[str, str] = Field(
        default_factory=dict, description="what this game adds to a level's line in the lobby, by spec"
    )


class LevelInfo(BaseModel):
    spec: str
    strength: str = Field(description="how strong, in one line")
    about: str = Field(description="how it plays and its time per decision, in one line")
    seconds: float | None = Field(description="the most seconds per decision (0: at once; null: bounded by a count)")


class Catalogue(BaseModel):
    games: list[GameInfo]
    levels: list[str]
    level_info: list[LevelInfo] = Field(default_factory=list, description="each of levels, weakest first")


class Rules(BaseModel):
    game: str
    title: str
    source: str = Field(description="docs/rules/<game>.md, or summary where the source tree is not at hand")
    html: str = Field(description="the rules as HTML (made from Markdown; no markup of the text's own)")


class CreateGame(Strict):
    game: str = Field(min_length=1, max_length=64)
    scenario: str | None = Field(None, max_length=128)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(None, ge=0, le=2**62, description="random when left out")
    opponent: Literal["computer", "local", "invite"] = "computer"
    seat: SeatName | None = Field(
        None, min_length=1, max_length=64, description="the creator's seat; the first one by default"
    )
    level: str = Field("greedy", max_length=64, description="the computer's agent, for opponent=computer")
    public: bool = Field(False, description="listed in the lobby for anyone to watch; otherwise known only by its id")


class CreatedGame(BaseModel):
    id: str
    token: str = Field(description="the secret that acts for your seats; shown once, stored only hashed")
    seats: list[SeatName]
    invitations: dict[SeatName, str] = Field(description="seat -> invitation secret, to send to a friend")


class ImportGame(Strict):
    record: str = Field(min_length=1, max_length=1_000_000, description="a saved game record (.qdr) as text")
    opponent: Literal["computer", "local", "invite"] | None = Field(
        None, description="who plays on against you; by default the kind the record's Players header names"
    )
    seat: SeatName | None = Field(
        None, min_length=1, max_length=64, description="your seat; by default the record's person's"
    )
    level: str | None = Field(None, max_length=64, description="the computer's level; by default the record's")
    public: bool = Field(False, description="listed in the lobby for anyone to watch")


class ImportedGame(CreatedGame):
    opponent: Literal["computer", "local", "invite"]
    level: str | None = Field(description="the computer's level, for opponent=computer")
    moves: int = Field(description="the moves replayed from the record")
    status: str = Field(description="ongoing (play on) or finished (to replay)")


class JoinGame(Strict):
    invitation: str = Field(min_length=1, max_length=256)


class Joined(BaseModel):
    token: str
    seats: list[SeatName]


class Summary(BaseModel):
    id: str
    game: str
    scenario: str | None
    players: dict[SeatName, str]
    version: int
    status: str
    result: str
    termination: str
    updated_at: str


class GameList(BaseModel):
    games: list[Summary]


class Turn(Strict):
    version: int = Field(ge=0, description="the version the client saw; a stale one is refused")
    actions: list[ActionText] = Field(min_length=1, max_length=500, description="action notation, in order")
    seat: SeatName | None = Field(
        None, min_length=1, max_length=64, description="which of your seats acts, if you hold several"
    )


class Question(Strict):
    question: str = Field(
        min_length=1, max_length=200, description="a game's own question as typed, e.g. `range Revenge San Martin`"
    )
    version: int = Field(ge=0, description="the version the client saw; a stale one is refused")
    actions: list[ActionText] = Field(
        default_factory=list, max_length=500, description="a turn still being planned: asked of the table after it"
    )
    seat: SeatName | None = Field(
        None, min_length=1, max_length=64, description="which of your seats plans, if you hold several"
    )


class Answer(BaseModel):
    lines: list[str] = Field(description="the answer, line by line, as the terminal prints it")


class SeatChoice(Strict):
    seat: SeatName | None = Field(None, min_length=1, max_length=64)


class DrawAnswer(Strict):
    answer: Literal["offer", "accept", "decline"]
    seat: SeatName | None = Field(None, min_length=1, max_length=64)


class HistoryEntry(BaseModel):
    number: int
    seat: str
    text: str
    events: list[dict[str, Any]]


class ActionChoice(BaseModel):
    text: str
    destination: str | None


class ActionGroup(BaseModel):
    piece: str | None
    actions: list[ActionChoice]


class GameView(BaseModel):
    id: str
    game: str
    title: str
    scenario: str | None
    options: dict[str, Any]
    version: int
    status: str
    outcome: dict[str, Any] | None
    players: dict[SeatName, str]
    seats: list[SeatName]
    you: list[SeatName]
    to_act: list[SeatName]
    describe: str
    draw_offer: SeatName | None
    state: dict[str, Any]
    legal: dict[SeatName, list[ActionGroup]]
    shortcuts: dict[SeatName, dict[str, list[str]]] = Field(
        description="per acting seat: named lists of actions the game offers (such as the optimal defence)"
    )
    phase_help: dict[SeatName, str] = Field(
        default_factory=dict, description="per acting seat of yours: what its phase asks, in one line"
    )
    notes: dict[str, Any] = Field(
        default_factory=dict, description="numbers the game's rules work out for the board (its board_notes hook)"
    )
    questions: dict[str, str] = Field(
        default_factory=dict,
        description="the game's own questions that /ask answers now (Naval Warfare's `range`), each with its help",
    )
    computers: dict[SeatName, dict[str, Any]] = Field(
        default_factory=dict,
        description="per computer seat: its spec, a line on how it plays (about) and its seconds per decision",
    )


class GameDetail(BaseModel):
    view: GameView
    history: list[HistoryEntry]


class Update(BaseModel):
    version: int
    entries: list[HistoryEntry]
    view: GameView


class History(BaseModel):
    version: int
    entries: list[HistoryEntry]


class Replay(BaseModel):
    moves: int
    state: dict[str, Any]
