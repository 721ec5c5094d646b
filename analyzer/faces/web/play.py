"""`seasalt serve`'s games against the bots: the /api/play API (docs/advisor.md, "Play").

    POST /api/play                 options (JSON; the seed a number or its digits as a string)
                                   -> the new game's id and the user's view;
                                   {"game": FILE}: a game file played again, to go on with
    GET  /api/play/{id}            the user's view now
    POST /api/play/{id}            {"action": ID, "step": N} -> the next view
    GET  /api/play/{id}/hint       ?samples=N&seed=S: the advisor at the user's decision, from
                                   the user's knowledge only (analyzer.play.session.Game.hint)
    GET  /api/play/{id}/review     ?samples=N&seed=S: the review of the user's decisions so far
                                   (analyzer.play.session.Game.review; the costliest first in `summary`)
    GET  /api/play/{id}/at/{step}  the view after `step` actions (a decision of the review) and
                                   `taken`: the action then taken
    GET  /api/play/{id}/game       the game file (`seasalt replay --game FILE` reads it)

The games are analyzer.play.session.Game objects kept in memory, at most MAX_GAMES: a new game beyond
that drops the one used longest ago (a kept game holds its user's decisions packed for the review:
about 10 MB at most, docs/advisor.md). A game id is random (secrets), so one page cannot guess
another's. Bodies are JSON of at most MAX_BODY bytes, read as the advisor's are (app.read_body);
errors are one `error: ...` line (400, 404 for an unknown game), and a refused action changes
nothing.

No lock shared by the games is held while anything is computed: GAMES_LOCK guards the table of
games only, and each game has its own lock (its actions, in order). A replay (a game file opened,
a moment of the review) plays the game again, search opponents' decisions included: it runs
under the advisor's limits without holding the advisor (app.stopper: it stops when its client
goes, when the server stops, or after ADVICE_SECONDS, a 503); a hint or review holds the advisor
as an advice does and stops when its client goes too.
"""
from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections import OrderedDict
from typing import Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from ...base.errors import SeasaltError
from ...render.output import json_safe
from ...play.session import Game

MAX_GAMES = 64                     # games kept in memory; the oldest is dropped beyond it
OPTIONS = ("players", "opponents", "expansion", "target", "seed", "seat")
SOURCE = "game options"
GAMES_LOCK = threading.Lock()


class Games:
    """The games in memory, least recently used first, each with its own lock. Call with
    GAMES_LOCK held; hold a game's lock, not GAMES_LOCK, while playing or copying it."""

    def __init__(self, limit: int = MAX_GAMES):
        self.limit = limit
        self.games: OrderedDict[str, tuple[Game, threading.Lock]] = OrderedDict()

    def add(self, game: Game) -> str:
        gid = secrets.token_urlsafe(12)
        self.games[gid] = (game, threading.Lock())
        while len(self.games) > self.limit:
            self.games.popitem(last=False)
        return gid

    def entry(self, gid: str) -> tuple[Game, threading.Lock]:
        """The game `gid` and its lock (a 404 for an unknown game)."""
        from .app import HTTPError
        if gid not in self.games:
            raise HTTPError(404, f"no game {gid[:40]!r} here: games live in the server's memory "
                                 f"(at most {self.limit}, the oldest dropped) until it stops; "
                                 f"start one with POST /api/play")
        self.games.move_to_end(gid)
        return self.games[gid]

    def get(self, gid: str) -> Game:
        return self.entry(gid)[0]


def _game(gid: str) -> tuple[Game, threading.Lock]:
    """The game `gid` and its lock, GAMES_LOCK held only to look it up."""
    with GAMES_LOCK:
        return GAMES.entry(gid)


def _copy(gid: str) -> Game:
    """A snapshot of the game `gid` (Game.snapshot), taken under its own lock."""
    game, lock = _game(gid)
    with lock:
        return game.snapshot()


def _replay_stop(gone: threading.Event | None):
    from .app import stopper
    return stopper(gone, "replaying the game (its opponents' decisions computed again)",
                   "a game with search opponents replays their every search; try again, or "
                   "play a new game")


GAMES = Games()


def game_options(body: object) -> dict:
    """Game() keywords from a request body: a JSON object with keys of OPTIONS (all optional)."""
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise SeasaltError(f"{SOURCE}: expected a JSON object with any of: {', '.join(OPTIONS)}")
    unknown = [k for k in body if k not in OPTIONS]
    if unknown:
        raise SeasaltError(f"{SOURCE}: unknown key {unknown[0][:40]!r}; valid: "
                           f"{', '.join(OPTIONS)} (or \"game\": a game file)")
    out = dict(body)
    seed = out.get("seed")
    if isinstance(seed, str):           # its digits: JavaScript rounds numbers over 2**53
        if not (seed.isascii() and seed.isdigit()) or len(seed) > 20:
            raise SeasaltError(f"seed must be a whole number from 0 to 2**64-1 (a number or "
                               f"its digits as a string), got {seed!r:.40}", param="seed")
        out["seed"] = int(seed)
    return out


def new_game(body: object, gone: threading.Event | None = None) -> dict:
    """A new game from options, or a game file played again ({"game": FILE}: Game.from_file,
    so the page can open a downloaded game and go on with it; under the replay's limits)."""
    if isinstance(body, dict) and "game" in body:
        if len(body) != 1:
            raise SeasaltError(f"{SOURCE}: \"game\" (a game file) comes alone, without other "
                               f"options")
        game = Game.from_file(body["game"], stop=_replay_stop(gone))
    else:
        game = Game(**game_options(body))
    view = game.view()
    with GAMES_LOCK:
        gid = GAMES.add(game)
    return {"id": gid, **view}


def act(gid: str, body: object) -> dict:
    """Play the user's action of the body ({"action": ID, "step": N}; step optional)."""
    if not isinstance(body, dict) or "action" not in body or \
            any(k not in ("action", "step") for k in body):
        raise SeasaltError("send {\"action\": ID} (an id of the view's legal actions), "
                           "optionally with \"step\": the view's step")
    game, lock = _game(gid)
    with lock:                       # this game's actions in order; other games go on
        game.apply(body["action"], body.get("step"))
        return {"id": gid, **game.view()}


def show(gid: str) -> dict:
    game, lock = _game(gid)
    with lock:
        return {"id": gid, **game.view()}


def moment(gid: str, step: str, gone: threading.Event | None = None) -> dict:
    """The user's view as it was after `step` actions (Game.at), the action then taken (None
    at the current step) and the game's own id: the review's link back to a decision."""
    from .app import HTTPError
    if not (step.isascii() and step.isdigit()) or len(step) > 9:   # not "²" (a digit to str)
        raise HTTPError(400, f"step must be a whole number, got {step[:40]!r}")
    game = _copy(gid)
    then = game.at(int(step), stop=_replay_stop(gone))
    taken = game.actions[int(step)] if int(step) < len(game.actions) else None
    return {"id": gid, **then.view(), "taken": taken}


def game_file(gid: str) -> dict:
    game, lock = _game(gid)
    with lock:
        return game.game_file()


HINT_QUERY = {"samples": int, "seed": int}


def hint_query(request: Request) -> dict:
    """samples and seed from the query string (the CLI's option names)."""
    from .app import HTTPError
    options = {}
    for key, value in request.query_params.multi_items():
        if key not in HINT_QUERY:
            raise HTTPError(400, f"unknown parameter {key[:40]!r}; valid: {', '.join(HINT_QUERY)}")
        if key in options:
            raise HTTPError(400, f"{key} given twice")
        try:
            options[key] = HINT_QUERY[key](value)
        except ValueError:
            raise HTTPError(400, f"invalid value for {key}: {value[:40]!r}") from None
    return options


def hint(request: Request, gone: threading.Event | None = None) -> dict:
    """The advisor at the user's decision (Game.hint) on a snapshot of the game, holding the
    advisor as /api/advise does (one advice at a time, its time limit, stopped when the client
    goes)."""
    from .app import advising
    options = hint_query(request)
    gid = request.path_params["gid"]
    game = _copy(gid)
    return {"id": gid, **advising(lambda stop: game.hint(**options, stop=stop), gone)}


def review(request: Request, gone: threading.Event | None = None) -> dict:
    """The review of the user's decisions so far (Game.review) on a snapshot of the game,
    holding the advisor as a hint does."""
    from .app import advising
    options = hint_query(request)
    gid = request.path_params["gid"]
    game = _copy(gid)
    return {"id": gid, **advising(lambda stop: game.review(**options, stop=stop), gone)}


def play_endpoint(work: Callable[[Request, object, threading.Event], dict], body: bool = False,
              download: str = ""):
    """A play endpoint: the body (when `body`) decoded as the advisor's is, `work` run in a
    worker thread (told by an event when the client has gone), errors as one `error:` line."""
    from .app import Cancelled, failure, read_body, watch

    async def endpoint(request: Request) -> Response:
        gone, done = threading.Event(), asyncio.Event()
        try:
            data = await read_body(request, SOURCE, empty_ok=True) if body else None
            watcher = asyncio.create_task(watch(request, gone, done))
            try:
                result = await run_in_threadpool(work, request, data, gone)
            finally:
                done.set()
                await watcher
        except (ClientDisconnect, Cancelled):       # the client went away: nobody to answer
            return Response(status_code=499 if gone.is_set() else 400,
                            headers={"X-Content-Type-Options": "nosniff"})
        except Exception as e:
            return failure(e)
        headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
        if download:                # the file's name: DOWNLOAD-<seed>.json
            headers["Content-Disposition"] = \
                f'attachment; filename="{download}-{result["seed"]}.json"'
        return Response(json.dumps(json_safe(result), allow_nan=False),
                        media_type="application/json", headers=headers)
    return endpoint


def routes() -> list[Route]:
    return [
        Route("/api/play", play_endpoint(lambda r, b, g: new_game(b, g), body=True),
              methods=["POST"]),
        Route("/api/play/{gid}", play_endpoint(lambda r, b, g: show(r.path_params["gid"])),
              methods=["GET"]),
        Route("/api/play/{gid}", play_endpoint(lambda r, b, g: act(r.path_params["gid"], b),
                                           body=True), methods=["POST"]),
        Route("/api/play/{gid}/hint", play_endpoint(lambda r, b, g: hint(r, g)), methods=["GET"]),
        Route("/api/play/{gid}/review", play_endpoint(lambda r, b, g: review(r, g)),
              methods=["GET"]),
        Route("/api/play/{gid}/at/{step}", play_endpoint(
            lambda r, b, g: moment(r.path_params["gid"], r.path_params["step"], g)),
            methods=["GET"]),
        Route("/api/play/{gid}/game", play_endpoint(
            lambda r, b, g: game_file(r.path_params["gid"]), download="seasalt-game"),
            methods=["GET"]),
    ]
