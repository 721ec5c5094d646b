"""The web app of `seasalt serve`: the page, the card catalogue and the advisor's API.

    GET  /                 the page (static/index.html, app.js, play.js, style.css; nothing else)
    GET  /api/catalogue    cards (from kernels.cards), deck sizes, default targets, decisions
    POST /api/cards        a position with every card list in canonical notation (for imports)
    POST /api/check        validate a position exactly as `seasalt advise` does
    POST /api/advise       ?samples=N&seed=S...: what `seasalt advise FILE --json` prints (at
                           every decision; several models or robust=1: the robust answer)
    /api/play...           a game against the bots (analyzer/faces/web/play.py)

A position is the request body (JSON, at most MAX_BODY bytes). Bad input is a 400 whose body
is the CLI's `error: ...` line; an oversize body 413. Nothing a request says is read as a path.
Every answer carries `X-Content-Type-Options: nosniff`.

One advice runs at a time (the kernels' thread pool). No request holds the others up for more
than its own time limit: an advice stops when its client has gone (checked between chunks of
samples) or after ADVICE_SECONDS (a 503 saying so; $SEASALT_ADVICE_SECONDS sets it), and a
request that waits for the advisor longer than that is a 503 "busy". A client that goes away
while sending its body is no error of the server's.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
import time
import traceback
from importlib import resources
from typing import Callable

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from kernels import cards as kc

from ... import __version__
from ...play.advisor import DEFAULT_SAMPLES, MAX_SAMPLES
from ...play.decisions import DECISION_WORDS
from ...play.advice_spec import AdviceSpec, run as run_advice
from ...play.robust import ROBUST_ME, ROBUST_OPPONENTS, ROBUST_SAMPLES
from ...rules.notation import card_name, check_expansion
from ...base.errors import SeasaltError, one_line, page_message   # the page's words
from ...render.output import json_safe                            # the CLI's own JSON
from ...play.position import describe, parse
from ...play.position_input import parse_card_list, decode
from ...rules.limits import DEFAULT_TARGETS
from ...rules.policies import REGISTRY

MAX_BODY = 64 * 1024              # a position is a few hundred bytes
SOURCE = "position"               # how messages name the request body
PILES = ("A", "B")                # the position file's piles (analyzer.play.position)
LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/play.js": ("play.js", "text/javascript; charset=utf-8"),
          "/seastead.js": ("seastead.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}
# The decisions the page asks (the position file's `decision`): a short label for the drop-down,
# the question in the game's words (analyzer.play.decisions) and the keys each one needs.
DECISIONS = [
    {"id": "play", "label": "Play step", "question": DECISION_WORDS["play"][1], "keys": []},
    {"id": "draw", "label": "Draw step", "question": DECISION_WORDS["draw"][1], "keys": []},
    {"id": "keep", "label": "Keep a drawn card", "question": DECISION_WORDS["keep"][1],
     "keys": ["drawn"]},
    {"id": "crab", "label": "Crab pair: take a card", "question": DECISION_WORDS["crab_card"][1],
     "keys": ["crab_pile"]},
    {"id": "lobster", "label": "Crab + lobster: keep a card",
     "question": DECISION_WORDS["lobster"][1], "keys": ["seen"]},
    {"id": "steal", "label": "Swimmer + shark: steal", "question": DECISION_WORDS["victim"][1],
     "keys": []},
]

# The page loads nothing but its own three files; no other site may frame it.
PAGE_HEADERS = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"}

# The kernels' thread pool serves one parallel call at a time; a second advice waits its turn,
# at most ADVICE_SECONDS (the longest any advice may run).
ADVISE_LOCK = threading.Lock()
NOSNIFF = {"X-Content-Type-Options": "nosniff"}


def advice_seconds() -> float:
    """The time limit of one advice ($SEASALT_ADVICE_SECONDS, default 120 s)."""
    try:
        value = float(os.environ.get("SEASALT_ADVICE_SECONDS", "120"))
    except ValueError:
        value = 120.0
    return value if value > 0 else 120.0


# Set when the server stops (Ctrl-C): a running advice ends at its next chunk (a 503), so the
# server does not wait out the advice's time limit. analyzer/faces/web/server.py sets it.
SHUTDOWN = threading.Event()


class Rendered(str):
    """An answer already written as JSON text (the advice: the CLI's own --json text)."""


class Cancelled(Exception):
    """The client of an advice has gone: nobody reads the answer."""


class HTTPError(Exception):
    """A response with a one-line `error: ...` body."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def catalogue() -> dict:
    """Everything the page needs to know about the cards, from kernels.cards (one source)."""
    kinds = []
    for k, (kind, category, expansion, _colours) in enumerate(kc.CATALOGUE):
        first, n = int(kc.KIND_FIRST_TYPE[k]), int(kc.KIND_NTYPES[k])
        kinds.append({"kind": kind, "category": category, "expansion": expansion,
                      "cards": [{"name": card_name(t), "colour": kc.COLOURS[kc.TYPE_COLOUR[t]],
                                 "copies": int(kc.TYPE_COPIES[t])}
                                for t in range(first, first + n)]})
    return {"kinds": kinds, "colours": list(kc.COLOURS),
            "expansions": {e: int(kc.copies_in(e).sum()) for e in kc.EXPANSIONS},
            "default_targets": DEFAULT_TARGETS, "piles": list(PILES), "max_deck": kc.MAX_DECK,
            "decisions": DECISIONS,
            "samples": {"default": DEFAULT_SAMPLES, "max": MAX_SAMPLES,
                        "robust": ROBUST_SAMPLES},
            "robust": {"opponents": list(ROBUST_OPPONENTS), "me": list(ROBUST_ME)},
            "players": list(REGISTRY), "max_body": MAX_BODY, "version": __version__}


def canonical_cards(obj: object) -> object:
    """The position with each card list as a list of canonical card names, read by the parser's
    own card reader (so its messages are the CLI's); everything else is left for parse()."""
    if not isinstance(obj, dict):
        return obj
    out = dict(obj)
    try:
        expansion = check_expansion(obj.get("expansion", "base"))
    except (SeasaltError, AttributeError, TypeError):
        return out                                   # parse() names the problem
    if "expansion" in obj:
        out["expansion"] = expansion

    def names(value, where):
        return [card_name(t) for t in parse_card_list(value, where, expansion)]
    for key in ("hand", "table", "drawn", "seen"):
        if key in obj:
            out[key] = names(obj[key], key)
    if isinstance(obj.get("opponents"), list):
        out["opponents"] = []
        for o in obj["opponents"]:
            if isinstance(o, dict):
                o = dict(o)
                for key in ("table", "known"):
                    if key in o:
                        o[key] = names(o[key], f"seat {o.get('seat')} {key}")
            out["opponents"].append(o)
    if isinstance(obj.get("piles"), dict):
        out["piles"] = {}
        for name, pile in obj["piles"].items():
            if isinstance(pile, dict):
                pile = dict(pile)
                for key in ("top", "cards"):
                    if key in pile:
                        pile[key] = names(pile[key], f"pile {name} {key}")
            out["piles"][name] = pile
    return out


def _flag(value: str) -> bool:
    if value.lower() not in ("", "1", "true", "0", "false"):
        raise ValueError
    return value.lower() in ("", "1", "true")


# query parameter (the CLI's option name) -> (AdviceSpec.build keyword, reader); `opponent` and
# `me` take one spec or several (SPEC,SPEC), as the CLI's options do
QUERY = {"samples": ("samples", int), "seed": ("seed", int), "precision": ("precision", float),
         "opponent": ("opponent", str), "me": ("me", str), "robust": ("robust", _flag),
         "no-play-on": ("play_on", lambda v: not _flag(v)), "reading": ("reading", str),
         "tremble": ("tremble", float)}


def advice_options(query) -> dict:
    """AdviceSpec.build keywords from the query string, whose names are the CLI's options."""
    out: dict = {}
    for key, value in query.multi_items():
        if key not in QUERY:
            raise HTTPError(400, f"unknown parameter {key!r}; valid: {', '.join(QUERY)}")
        keyword, read = QUERY[key]
        if keyword in out:
            raise HTTPError(400, f"{key} given twice")
        try:
            out[keyword] = read(value)
        except ValueError:
            raise HTTPError(400, f"invalid value for {key}: {value!r}") from None
    return out


def advice_json(position: object, options: dict, gone: threading.Event | None = None) -> str:
    """Exactly what `seasalt advise FILE --json` prints for this position and these options
    (analyzer.play.advice_spec: the same spec, the same run).
    `gone`: set when the client has disconnected (the advice stops at its next chunk)."""
    spec = AdviceSpec.build(position, **options)
    result = advising(lambda stop: run_advice(spec, stop=stop), gone)
    return Rendered(json.dumps(json_safe(result.to_dict()), indent=2, allow_nan=False) + "\n")


def advising(work: Callable[[Callable[[], None]], object],
             gone: threading.Event | None = None) -> object:
    """`work(stop)` holding the advisor (one advice at a time, waiting at most the time
    limit); `stop`, called between chunks of samples, ends it when the client has gone, the
    server stops or the time limit has passed."""
    limit = advice_seconds()
    if not ADVISE_LOCK.acquire(timeout=limit):
        raise HTTPError(503, f"the advisor is busy with another request (each may run up to "
                             f"{limit:g} s); try again in a moment")
    try:
        return work(stopper(gone, "the advice", "ask for fewer samples or a coarser precision"))
    finally:
        ADVISE_LOCK.release()


def stopper(gone: threading.Event | None, what: str, fix: str) -> Callable[[], None]:
    """A `stop` for work that checks it between chunks: it raises Cancelled when the client
    has gone (`gone` set), a 503 when the server stops or when ADVICE_SECONDS from now have
    passed (`what` went over its time limit; `fix`: what the user can do)."""
    limit = advice_seconds()
    deadline = time.monotonic() + limit

    def stop() -> None:
        if gone is not None and gone.is_set():
            raise Cancelled
        if SHUTDOWN.is_set():
            raise HTTPError(503, "the server is stopping")
        if time.monotonic() > deadline:
            raise HTTPError(503, f"{what} went over its time limit of {limit:g} s; {fix}")
    return stop


def check(position: object) -> dict:
    """Validate as `seasalt advise` does: the position's one-line description when it is valid,
    else the CLI's `error:` line (a valid answer to "is this right?", so not an HTTP error)."""
    try:
        pos = parse(position)
    except SeasaltError as e:
        return {"valid": False, "error": error_line(page_message(e))}
    return {"valid": True, "error": None, "points": pos.points, "description": describe(pos)}


async def _position(request: Request) -> object:
    """The request body as a decoded (not yet validated) position."""
    return await read_body(request, SOURCE)


async def read_body(request: Request, source: str, empty_ok: bool = False) -> object:
    """The request body as decoded JSON (at most MAX_BODY bytes); `source` names it in
    messages. With `empty_ok`, no body at all is None."""
    length = request.headers.get("content-length")
    if empty_ok and length in (None, "0") and "transfer-encoding" not in request.headers:
        return None
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPError(415, f"send the {source} as JSON (Content-Type: application/json)")
    too_big = f"{source}: over {MAX_BODY:,} bytes" + (
        "; a position is a few hundred" if source == SOURCE else "")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise HTTPError(413, too_big)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise HTTPError(413, too_big)
    if empty_ok and not data:
        return None
    return decode(bytes(data), source)


async def watch(request: Request, gone: threading.Event, done: asyncio.Event) -> None:
    """Set `gone` when the client disconnects (until `done`)."""
    while not done.is_set():
        if await request.is_disconnected():
            gone.set()
            return
        try:
            await asyncio.wait_for(done.wait(), 0.25)
        except asyncio.TimeoutError:
            pass


def _endpoint(work: Callable[[Request, object, threading.Event], object]):
    """A POST endpoint: decode the body, run `work` in a worker thread (told by an event when
    the client has gone), map errors to 4xx/5xx."""
    async def endpoint(request: Request) -> Response:
        gone, done = threading.Event(), asyncio.Event()
        try:
            position = await _position(request)
            watcher = asyncio.create_task(watch(request, gone, done))
            try:
                result = await run_in_threadpool(work, request, position, gone)
            finally:
                done.set()
                await watcher
            if not isinstance(result, Rendered):
                result = _render(position, result)
        except (ClientDisconnect, Cancelled):   # the client went away: nobody to answer
            return Response(status_code=499 if gone.is_set() else 400, headers=NOSNIFF)
        except Exception as e:
            return failure(e)
        return Response(result, media_type="application/json", headers=NOSNIFF)
    return endpoint


def failure(e: Exception) -> Response:
    """The one-line `error:` answer to a request whose work raised `e` (called in its except
    block): an HTTPError's own status, 400 for bad input, 500 for a bug (logged; the server
    keeps serving)."""
    if isinstance(e, HTTPError):
        return _error(e.status, str(e))
    if isinstance(e, SeasaltError):
        return _error(400, page_message(e))
    traceback.print_exc(file=sys.stderr)
    return _error(500, f"internal error ({type(e).__name__}: {e}); please report it")


def _render(position: object, result: object) -> str:
    """A JSON answer; a value that cannot be written back (a 5000-digit number the parser kept
    as a marker) is the parser's error about the position."""
    try:
        return json.dumps(result, allow_nan=False)
    except (TypeError, ValueError):
        parse(position)                      # names the field (a SeasaltError)
        raise SeasaltError(f"{SOURCE}: a value that is not plain JSON") from None


def error_line(message: str) -> str:
    """The CLI's one-line `error: ...`."""
    return f"error: {one_line(message)}"


def _error(status: int, message: str) -> Response:
    return PlainTextResponse(error_line(message) + "\n", status_code=status, headers=NOSNIFF)


def _static(name: str, media: str):
    body = resources.files(__package__).joinpath("static", name).read_bytes()

    async def page(request: Request) -> Response:
        return Response(body, media_type=media, headers=PAGE_HEADERS)
    return page


async def _catalogue(request: Request) -> Response:
    return JSONResponse(catalogue(), headers=NOSNIFF)


def routes() -> list[Route]:
    """The page's files and the advice endpoints (the Play view's are analyzer.faces.web.play's;
    analyzer.faces.web.server.create_app serves both)."""
    out = [Route(path, _static(name, media)) for path, (name, media) in STATIC.items()]
    out += [
        Route("/api/catalogue", _catalogue),
        Route("/api/cards", _endpoint(lambda r, p, g: canonical_cards(p)), methods=["POST"]),
        Route("/api/check", _endpoint(lambda r, p, g: check(p)), methods=["POST"]),
        Route("/api/advise", _endpoint(lambda r, p, g: advice_json(
            p, advice_options(r.query_params), g)), methods=["POST"]),
    ]
    return out


async def http_exception(request: Request, exc: StarletteHTTPException) -> Response:
    """Starlette's own refusals (404, 405) as one `error:` line, nosniff like every answer."""
    words = {404: f"nothing is served at {request.url.path!r}",
             405: f"{request.method} is not accepted at {request.url.path!r}"}
    headers = {**(exc.headers or {}), **NOSNIFF}
    response = _error(exc.status_code, words.get(exc.status_code, str(exc.detail)))
    response.headers.update(headers)
    return response
