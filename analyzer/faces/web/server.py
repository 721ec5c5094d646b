"""Run the web app: bind the socket (so a busy port is one `error:` line), warm the engine in the
background, print the URL, serve until Ctrl-C."""
from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import time

import click
from starlette.applications import Starlette
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware

from ...base.errors import SeasaltError

# A small valid position: advising it once loads (or compiles) the advisor's kernels.
WARM_POSITION = {"players": 2, "seat": 0, "hand": "sailor:pink,sailor:orange,captain",
                 "opponents": [{"seat": 1, "hand_size": 5}],
                 "piles": {"A": {"size": 1, "top": "mermaid"}}, "deck": 49}


def create_app(loopback: bool = True) -> Starlette:
    """The ASGI app: the advice page and API (analyzer.faces.web.app), the Play view's
    (analyzer.faces.web.play) and the Seastead view's (analyzer.faces.web.seastead_play). Bound to a loopback address it answers only requests sent to
    localhost (a web page elsewhere cannot reach it through a name that resolves here).
    Imported here, after the socket is bound: a bad --port never loads the engine."""
    from . import app, play, seastead_play
    middleware = ([Middleware(TrustedHostMiddleware, allowed_hosts=app.LOOPBACK_HOSTS)]
                  if loopback else [])
    return Starlette(routes=app.routes() + play.routes() + seastead_play.routes(),
                     middleware=middleware, exception_handlers={StarletteHTTPException: app.http_exception})


def bind(host: str, port: int) -> socket.socket:
    """A listening-ready socket on host:port (port 0: any free port)."""
    if not 0 <= port <= 65535:
        raise SeasaltError(f"--port must be between 0 and 65535, got {port}")
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as e:
        raise SeasaltError(f"cannot listen on {host!r}: {e.strerror}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        hint = "; choose another with --port" if e.errno in (98, 48) else ""
        raise SeasaltError(f"cannot listen on {host}:{port}: {e.strerror}{hint}") from None
    return sock


def is_loopback(sock: socket.socket) -> bool:
    return ipaddress.ip_address(sock.getsockname()[0]).is_loopback


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if ipaddress.ip_address(host).is_loopback:
        host = "127.0.0.1" if sock.family == socket.AF_INET else "[::1]"
    elif sock.family == socket.AF_INET6:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def warm() -> None:
    """Advise a small position once, holding the advice lock, so the first click is fast."""
    from .app import advice_json
    t0 = time.perf_counter()
    try:
        advice_json(WARM_POSITION, {"samples": 64, "seed": 0})
    except Exception as e:                      # the page still works; its first advice is slow
        click.echo(f"warning: warming the engine failed ({e})", err=True)
        return
    click.echo(f"engine ready ({time.perf_counter() - t0:.1f} s)", err=True)


def serve(host: str, port: int, open_browser: bool = False) -> None:
    import uvicorn

    sock = bind(host, port)
    loopback = is_loopback(sock)
    url = url_of(sock)
    config = uvicorn.Config(create_app(loopback=loopback), log_level="warning",
                            access_log=False, lifespan="off")

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            """Ctrl-C also stops a running advice at its next chunk (analyzer.faces.web.app.SHUTDOWN),
            so the server stops at once instead of after the advice's time limit."""
            from .app import SHUTDOWN
            SHUTDOWN.set()
            super().handle_exit(sig, frame)

    server = Server(config)
    if not loopback:
        click.echo(f"warning: listening on {host}: anyone who reaches this machine can use the "
                   "advisor (and its CPU)", err=True)
    click.echo(f"seasalt serve: {url}  (Ctrl-C to stop)")
    sys.stdout.flush()
    from ...render.compile_costs import COMPILE, about
    click.echo(f"warming the engine (the first run after an install compiles the advisor: "
               f"{about(COMPILE['first_run_s']['serve'])} of CPU)", err=True)
    threading.Thread(target=warm, name="warm", daemon=True).start()
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    server.run(sockets=[sock])
