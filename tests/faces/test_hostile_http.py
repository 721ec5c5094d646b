"""The server under hostile clients (issue 28 items 4, 6, 7 and the HTTP-body file): an advice
on a position impossible only through crab_taken is refused at once; an advice whose client has
gone is cancelled, so the next one is answered; an advice over its time limit is a 503 and never
holds the others up; a client that disconnects mid-body is no internal error; every answer, the
errors included, carries nosniff; and 24 malformed bodies are each a one-line `error:` answer,
with nothing outside the server's folder touched and nothing logged as a failure."""
from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
import urllib.parse
from contextlib import contextmanager
from pathlib import Path

import pytest

from hostile import IMPOSSIBLE_BY_CRAB, listing, make_sentinel
from serving import EXAMPLE, SEASALT, cli, env, request



@contextmanager
def server(folder: Path, **extra_env):
    """(url, the server's stderr file, its process) of a `seasalt serve --port 0` started in
    `folder`."""
    log = folder / "server.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([SEASALT, "serve", "--port", "0"], stdout=subprocess.PIPE,
                                stderr=err, text=True, cwd=folder,
                                env={**env(), **extra_env})
    try:
        line = proc.stdout.readline()
        assert line.startswith("seasalt serve: http://127.0.0.1:"), (line, log.read_text())
        url = line.split()[2].rstrip("/")
        deadline = time.monotonic() + 600
        while "engine ready" not in log.read_text():   # the warm-up holds the advice lock
            assert proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        yield url, log, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("served")
    sentinel = make_sentinel(folder / "sentinel")
    before = listing(sentinel)
    with server(folder) as (url, log, _):
        yield url, log, sentinel
    assert listing(sentinel) == before


def advise(url: str, body: bytes, **query) -> tuple[int, str, dict]:
    return request(url, "/api/advise?" + urllib.parse.urlencode(query), body)


def _clean(log: Path) -> None:
    text = log.read_text()
    assert "Traceback" not in text and "internal error" not in text and "Exception" not in text, text


def _nosniff(headers: dict) -> bool:
    return {k.lower(): v for k, v in headers.items()}.get("x-content-type-options") == "nosniff"


def _raw(url: str) -> socket.socket:
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    return socket.create_connection((host, int(port)), timeout=60)


# --- item 4 ----------------------------------------------------------------------------------

def _long_advice(url: str) -> tuple[socket.socket, bytes]:
    """Ask for 10**7 samples of games played out to 200 points (some 15 minutes of work) on a
    raw socket left open, and give the server a second to start on it: (socket, the body)."""
    slow = json.loads(EXAMPLE.read_text())
    slow.update(totals=[0, 0], target=200)          # every sample plays a long game out
    body = json.dumps(slow).encode()
    s = _raw(url)
    s.sendall(b"POST /api/advise?samples=10000000&seed=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode()
              + b"\r\n\r\n" + body)
    time.sleep(1)                      # let the server read it and start (not an assertion)
    return s, body


def test_a_position_impossible_through_crab_taken_is_refused_at_once(served, tmp_path):
    """Each sample used to try 2**20 deals, checked after 10,000 samples: hours, Ctrl-C ignored.
    Now it is decided before sampling: the CLI and the server answer with the same line
    (tests/play/test_hostile_positions.py checks that no deal is sampled for it)."""
    url, log, _ = served
    path = tmp_path / "impossible.json"
    path.write_text(json.dumps(IMPOSSIBLE_BY_CRAB))
    p = cli("advise", path, env=env())
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith("error: no deal is possible") and "pile A crab_taken" in p.stderr
    status, body, headers = advise(url, json.dumps(IMPOSSIBLE_BY_CRAB).encode(), samples=100000)
    assert status == 400 and body == p.stderr, body
    assert _nosniff(headers)
    # one take more candidates: possible again, and advised
    ok = json.loads(json.dumps(IMPOSSIBLE_BY_CRAB))
    ok["piles"]["A"]["crab_taken"][0]["among"] = 2
    status, body, _ = advise(url, json.dumps(ok).encode(), samples=200, seed=1)
    assert status == 200, body
    _clean(log)


def test_an_abandoned_advice_is_cancelled(served):
    """A client asks for 10**7 samples of games played out to 200 points (some 15 minutes of
    work here) and goes: the next advice gets the advisor and is answered (200). Had the first
    gone on, the next would have waited out the advisor's time limit and been refused as busy
    (503)."""
    url, log, _ = served
    s, body = _long_advice(url)
    s.close()
    status, text, _ = request(url, "/api/advise?samples=200&seed=2", body, timeout=900)
    assert status == 200, text
    _clean(log)


def test_an_advice_over_its_time_limit_is_503_and_frees_the_advisor(tmp_path):
    with server(tmp_path, SEASALT_ADVICE_SECONDS="1") as (url, log, _):
        status, text, headers = advise(url, EXAMPLE.read_bytes(), samples=10_000_000, seed=1)
        assert status == 503 and text.startswith("error: the advice went over its time limit")
        assert text.count("\n") == 1 and _nosniff(headers)
        status, text, _ = advise(url, EXAMPLE.read_bytes(), samples=200, seed=1)
        assert status == 200, text
        _clean(log)


# --- items 6 and 7 ---------------------------------------------------------------------------

def test_a_client_that_disconnects_mid_body_is_no_internal_error(served):
    url, log, _ = served
    for path in ("/api/advise", "/api/check", "/api/cards"):
        s = _raw(url)
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                  f"\r\nContent-Length: 5000\r\n\r\n{{\"players\": 2,".encode())
        s.close()
    status, _, _ = request(url, "/api/check", EXAMPLE.read_bytes())   # still serving
    assert status == 200
    _clean(log)


@pytest.mark.parametrize("method, path, body, headers", [
    ("POST", "/api/advise", b"{", {}),
    ("POST", "/api/check", b" " * (64 * 1024 + 1), {}),
    ("POST", "/api/advise", b"{}", {"Content-Type": "text/plain"}),
    ("GET", "/nothing", None, {}),
    ("GET", "/api/advise", None, {}),
    ("POST", "/api/advise?samples=x", EXAMPLE.read_bytes(), {}),
])
def test_error_answers_carry_nosniff(served, method, path, body, headers):
    url, log, _ = served
    status, text, got = request(url, path, body, method=method, headers=headers)
    assert 400 <= status < 500 and text.startswith("error: ") and text.count("\n") == 1, text
    assert _nosniff(got), got
    status, text, got = request(url, "/api/catalogue")
    assert _nosniff(got)


# --- 24 malformed bodies ---------------------------------------------------------------------

def _pos(**change) -> bytes:
    obj = json.loads(EXAMPLE.read_text())
    obj.update(change)
    return json.dumps(obj).encode()


BODIES = {
    "empty": b"",
    "not json": b"{not json",
    "trailing comma": b'{"players": 2,}',
    "utf-16": '{"players": 2}'.encode("utf-16"),
    "invalid utf-8": b'{"players": "\xff"}',
    "nul bytes": b"\x00" * 100,
    "deep nesting": b"[" * 100_000,
    "deep object": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "5000 digits": b'{"players": ' + b"9" * 5000 + b"}",
    "1e999": _pos(players=float("inf")).replace(b"Infinity", b"1e999"),
    "NaN": b'{"players": NaN}',
    "a string": b'"/etc/passwd"',
    "a list": b"[1, 2, 3]",
    "null": b"null",
    "players a string": _pos(players="2"),
    "players a bool": _pos(players=True),
    "players 10**30": _pos(players=10 ** 30),
    "seat negative": _pos(seat=-1),
    "hand a number": _pos(hand=7),
    "hand a path": _pos(hand="../sentinel/notes.txt"),
    "opponents an object": _pos(opponents={"seat": 1}),
    "piles a list": _pos(piles=[]),
    "deck a dict of junk": _pos(deck={"size": "many"}),
    "crab_taken junk": _pos(piles={"A": {"cards": "?,?,octopus:grey",
                                         "crab_taken": [{"seat": "x"}]}}),
    "totals of the wrong length": _pos(totals=[1], target=40),
    "oversize": b"[" + b"1," * 40_000 + b"1]",
}


@pytest.mark.parametrize("case", list(BODIES))
@pytest.mark.parametrize("path", ["/api/advise?samples=100&seed=1", "/api/check", "/api/cards"])
def test_malformed_bodies_are_one_line_errors(served, case, path):
    url, log, _ = served
    status, text, headers = request(url, path, BODIES[case])
    if path == "/api/check" and status == 200:     # a verdict: the same one line inside
        verdict = json.loads(text)
        assert verdict["valid"] is False and verdict["error"].startswith("error: ")
        assert "\n" not in verdict["error"]
    elif path == "/api/cards" and status == 200:   # card lists rewritten, the rest echoed
        json.loads(text)                             # for parse() to judge, as plain JSON
        assert "mine" not in text
    else:
        assert status in (400, 413), (status, text)
        assert text.startswith("error: ") and text.count("\n") == 1, text
    assert _nosniff(headers)
    _clean(log)


def test_ctrl_c_stops_the_server_during_a_long_advice(tmp_path):
    """Ctrl-C while an advice runs (its limit here 600 s): the server stops at the advice's next
    chunk, not when the advice ends (a bounded wait of 60 s, far under the limit)."""
    with server(tmp_path, SEASALT_ADVICE_SECONDS="600") as (url, _, proc):
        s, _ = _long_advice(url)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        s.close()


# --- the Play view's query and path values ---------------------------------------------------

def _played(url: str, steps: int = 6, **options) -> dict:
    """A game of the Play view after `steps` of the user's first legal actions."""
    status, text, _ = request(url, "/api/play", json.dumps({"players": 2, **options}))
    assert status == 200, text
    view = json.loads(text)
    for _ in range(steps):
        if view["over"]:
            break
        status, text, _ = request(url, f"/api/play/{view['id']}",
                                  json.dumps({"action": view["legal"][0]["id"]}))
        view = json.loads(text)
    return view


@pytest.mark.parametrize("path, words", [
    ("hint?seed=-1", "error: Seed must be between 0 and 2**64-1, got -1"),
    ("hint?seed=18446744073709551616", "error: Seed must be between 0 and 2**64-1"),
    ("review?seed=-1&samples=20", "error: Seed must be between 0 and 2**64-1, got -1"),
    ("review?seed=18446744073709551616&samples=20", "error: Seed must be between 0 and 2**64-1"),
    ("at/%C2%B2", "error: step must be a whole number, got '²'"),
    ("at/%D9%A3", "error: step must be a whole number"),               # an Arabic-Indic 3
])
def test_a_play_seed_or_step_out_of_range_is_a_400(served, path, words):
    """A hint's or review's seed is a 64-bit stream's (0 to 2**64-1) and a step is ASCII
    digits: anything else is the one error line in the page's words (its Seed box), not an
    internal error (was a 500)."""
    url, log, _ = served
    view = _played(url, seed=3)
    status, text, headers = request(url, f"/api/play/{view['id']}/{path}")
    assert status == 400 and text.startswith(words) and text.count("\n") == 1, text
    assert _nosniff(headers)
    _clean(log)


def test_the_largest_seed_plays_with_search_opponents_and_hints(served):
    """Seed 2**64-1: the search seats' streams (the seed plus the round) and the hint's default
    seed (the seed plus the step) wrap around 2**64 instead of failing."""
    url, log, _ = served
    view = _played(url, steps=2, seed=2 ** 64 - 1, opponents="search(samples=20)")
    assert view["seed"] == 2 ** 64 - 1
    status, text, _ = request(url, f"/api/play/{view['id']}/hint?samples=50")
    assert status == 200 and json.loads(text)["seed"] == (2 ** 64 - 1 + view["step"]) % 2 ** 64
    _clean(log)


# --- the Play view's replays, hints and reviews under the advisor's limits -------------------
# In this process (uvicorn in a thread), so that a test can see how a computation ended: the
# work is wrapped to record its outcome, and a slow search seat is a sleep (no CPU spent).

@pytest.fixture
def inproc(monkeypatch):
    """(url, outcomes): a server in this process; `outcomes` records how each wrapped call
    ended (the exception's class name, or "done")."""
    import threading
    import uvicorn
    from analyzer.faces.web.server import bind, create_app, url_of
    sock = bind("127.0.0.1", 0)
    srv = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield url_of(sock).rstrip("/"), monkeypatch
    srv.should_exit = True
    thread.join(10)


def _record(monkeypatch, owner, name: str, started, ended: list):
    """Wrap owner.name: `started` set when a call begins, its outcome appended to `ended`."""
    import threading
    real = getattr(owner, name)
    done = threading.Event()

    def wrapped(*args, **kwargs):
        started.set()
        try:
            out = real(*args, **kwargs)
        except BaseException as e:
            ended.append(type(e).__name__)
            raise
        finally:
            done.set()
        ended.append("done")
        return out
    monkeypatch.setattr(owner, name, wrapped if not isinstance(real, classmethod) else wrapped)
    return done


def _slow_search(monkeypatch, seconds: float = 0.2):
    """Every search seat's decision takes `seconds` more (a sleep: a long search, no CPU)."""
    from analyzer.play.search_seat import SearchSeat
    real = SearchSeat.decide

    def decide(self, *args, **kwargs):
        time.sleep(seconds)
        return real(self, *args, **kwargs)
    monkeypatch.setattr(SearchSeat, "decide", decide)


def _abandon(url: str, request_line: str, body: bytes = b"") -> socket.socket:
    s = _raw(url)
    head = f"{request_line} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if body:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    s.sendall(head.encode() + b"\r\n" + body)
    return s


def _search_game(url: str, actions: int = 6) -> dict:
    """A 2-player game against a search player after `actions` of the user's."""
    return _played(url, steps=actions, seed=21, opponents="search(samples=32)")


@pytest.mark.parametrize("what", ["game file", "moment"])
def test_an_abandoned_replay_stops_and_a_hint_is_answered(inproc, what):
    """A replay (a game file opened, a review's moment) plays the search seats' decisions
    again; its client goes: it stops at the next decision (Cancelled), and a hint of another
    game is answered. Was: no check at all, the replay ran to its end (29 CPU-s measured)."""
    import threading
    from analyzer.play.session import Game
    url, monkeypatch = inproc
    view = _search_game(url)
    game_file = request(url, f"/api/play/{view['id']}/game")[1]
    _slow_search(monkeypatch, 0.3)
    started, ended = threading.Event(), []
    done = _record(monkeypatch, Game, "at" if what == "moment" else "from_file", started, ended)
    if what == "moment":
        s = _abandon(url, f"GET /api/play/{view['id']}/at/{view['step']}")
    else:
        s = _abandon(url, "POST /api/play", json.dumps({"game": json.loads(game_file)}).encode())
    assert started.wait(60)
    time.sleep(0.5)                      # into the replay's search decisions (not a measurement)
    s.close()
    assert done.wait(120)
    assert ended == ["Cancelled"]
    other = _played(url, steps=1, seed=4)
    status, text, _ = request(url, f"/api/play/{other['id']}/hint?samples=200")
    assert status == 200, text


def test_a_replay_stops_when_the_server_stops_or_its_time_is_up(monkeypatch):
    """The same limits as an advice's: a 503 saying why, nothing kept."""
    from analyzer.faces.web import app, play
    from analyzer.play.session import Game
    g = Game(players=2, seed=5, opponents="search(samples=16)")
    for _ in range(3):
        g.apply(g.legal()[0])
    body = {"game": g.game_file()}
    kept = len(play.GAMES.games)
    app.SHUTDOWN.set()
    try:
        with pytest.raises(app.HTTPError) as e:
            play.new_game(body)
        assert e.value.status == 503 and "the server is stopping" in str(e.value)
    finally:
        app.SHUTDOWN.clear()
    monkeypatch.setenv("SEASALT_ADVICE_SECONDS", "1e-9")
    with pytest.raises(app.HTTPError) as e:
        play.new_game(body)
    assert e.value.status == 503 and "went over its time limit of 1e-09 s" in str(e.value)
    assert len(play.GAMES.games) == kept
    monkeypatch.delenv("SEASALT_ADVICE_SECONDS")
    assert play.new_game(body)["step"] == 3


@pytest.mark.parametrize("what", ["review", "hint"])
def test_an_abandoned_review_or_hint_frees_the_advisor(inproc, what):
    """Its client goes: the hint or review stops at its next chunk of deals (Cancelled) and a
    small hint is answered. Was: it kept the advisor to its end or its time limit (a 100-sample
    advice waited 16-28 s)."""
    import threading
    from analyzer.play.session import Game
    url, monkeypatch = inproc
    view = _played(url, steps=30, seed=8)
    started, ended = threading.Event(), []
    done = _record(monkeypatch, Game, what, started, ended)
    query = "samples=100000" if what == "review" else "samples=1000000"
    s = _abandon(url, f"GET /api/play/{view['id']}/{what}?{query}&seed=1")
    assert started.wait(60)
    time.sleep(0.5)
    s.close()
    assert done.wait(300)
    assert ended == ["Cancelled"]
    status, text, _ = request(url, f"/api/play/{view['id']}/hint?samples=100")
    assert status == 200, text


def test_no_lock_of_all_games_is_held_while_one_computes(inproc):
    """A game whose search opponent is thinking (here: held until the test lets it go) does not
    hold up another game's action, view or download. Was: one lock for every game, held while
    the search seats decided (2 s an action measured)."""
    import threading
    from analyzer.play.search_seat import SearchSeat
    url, monkeypatch = inproc
    slow = _search_game(url, actions=0)
    fast = _played(url, steps=0, seed=9)
    thinking, go = threading.Event(), threading.Event()
    real = SearchSeat.decide

    def decide(self, *args, **kwargs):
        thinking.set()
        assert go.wait(120)
        return real(self, *args, **kwargs)
    monkeypatch.setattr(SearchSeat, "decide", decide)
    answer = []

    def play_on():
        """The user's first legal action until one hands the turn to the search seat."""
        view = slow
        while not thinking.is_set():
            status, text, _ = request(url, f"/api/play/{view['id']}",
                                      json.dumps({"action": view["legal"][0]["id"]}))
            answer.append(status)
            view = json.loads(text)
    worker = threading.Thread(target=play_on)
    worker.start()
    try:
        assert thinking.wait(60)
        status, text, _ = request(url, f"/api/play/{fast['id']}",
                                  json.dumps({"action": fast["legal"][0]["id"]}), timeout=30)
        assert status == 200 and json.loads(text)["step"] == 1, text
        assert request(url, f"/api/play/{fast['id']}/game", timeout=30)[0] == 200
    finally:
        go.set()
        worker.join(120)
    assert answer and set(answer) == {200}
