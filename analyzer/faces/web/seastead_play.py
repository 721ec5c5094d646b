"""`seasalt serve`'s Seastead games against a bot: the /api/seastead API (docs/seastead.md).

    POST /api/seastead/play             {seed, sides, solo, opponent} (all optional; the seed a
                                        number or its digits) -> the game's id and the view
    POST /api/seastead/play/{id}        {"option": N} -> the next view (the bot has answered)
    GET  /api/seastead/play/{id}/hint   ?samples=N&seed=S: `seasalt seastead advise --json` of
                                        the game so far
    GET  /api/seastead/play/{id}/game   the game file (`seastead advise FILE`, `review --game`)

Games are analyzer.seastead.session.Session objects in memory, kept as the Sea Salt & Paper
games are (analyzer.faces.web.play.Games: at most MAX_GAMES, random ids, a lock per game).
"""
from __future__ import annotations

import threading

from starlette.requests import Request
from starlette.routing import Route

from ...seastead.session import Session
from .play import Games, play_endpoint, hint_query

GAMES = Games()
GAMES_LOCK = threading.Lock()


def _entry(gid: str):
    with GAMES_LOCK:
        return GAMES.entry(gid)


def new_game(body: object) -> dict:
    session = Session.from_body(body)
    with GAMES_LOCK:
        gid = GAMES.add(session)
    return {"id": gid, **session.view()}


def act(gid: str, body: object) -> dict:
    from ...base.errors import SeasaltError
    if not isinstance(body, dict) or set(body) != {"option"}:
        raise SeasaltError("send {\"option\": N}: the index of one of the decision's options")
    session, lock = _entry(gid)
    with lock:
        session.apply(body["option"])
        return {"id": gid, **session.view()}


def hint(request: Request, gone: threading.Event | None = None) -> dict:
    """`seastead advise` of the game as it is, holding the advisor as an advice does (stopped
    between chunks of redeals when the client goes or the time limit passes)."""
    from ...seastead.advice import SeasteadAdviceSpec, run
    from .app import advising
    options = hint_query(request)
    gid = request.path_params["gid"]
    session, lock = _entry(gid)
    with lock:
        spec = SeasteadAdviceSpec.build(session.game, **options)     # a game never changes
    return {"id": gid, **advising(lambda stop: run(spec, lambda done, total: stop()), gone)}


def game_file(gid: str) -> dict:
    session, lock = _entry(gid)
    with lock:
        return session.game_file()


def routes() -> list[Route]:
    return [
        Route("/api/seastead/play", play_endpoint(lambda r, b, g: new_game(b), body=True),
              methods=["POST"]),
        Route("/api/seastead/play/{gid}", play_endpoint(
            lambda r, b, g: act(r.path_params["gid"], b), body=True), methods=["POST"]),
        Route("/api/seastead/play/{gid}/hint", play_endpoint(lambda r, b, g: hint(r, g)),
              methods=["GET"]),
        Route("/api/seastead/play/{gid}/game", play_endpoint(
            lambda r, b, g: game_file(r.path_params["gid"]), download="seastead-game"),
            methods=["GET"]),
    ]
