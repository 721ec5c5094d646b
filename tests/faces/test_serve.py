"""`seasalt serve`'s API, through a real server started by the console script: the advice is
byte for byte what `seasalt advise --json` prints, errors are the CLI's lines, and hostile
requests (oversize, malformed, concurrent, foreign host) are answered without harm."""
from __future__ import annotations

import http.client
import json
import socket
import threading
import urllib.parse

import pytest

from click.testing import CliRunner

from analyzer.play.robust import ROBUST_ME, ROBUST_OPPONENTS
from analyzer.rules.notation import parse_card
from analyzer.faces.cli import main
from analyzer.play.position import describe, parse
from kernels import cards as kc
from serving import EXAMPLE, cli, cli_advice, masked, request, running_server

EXAMPLE_POS = json.loads(EXAMPLE.read_text())

ROBUST_PAIRS = len(ROBUST_OPPONENTS) * len(ROBUST_ME)   # --robust's models


@pytest.fixture(scope="module")
def url():
    with running_server() as u:
        yield u


def advise(url, body, **query):
    return request(url, "/api/advise?" + urllib.parse.urlencode(query), body)


def changed(**change) -> dict:
    pos = json.loads(json.dumps(EXAMPLE_POS))
    pos.update(change)
    return pos


@pytest.mark.parametrize("query, flags", [
    ({"samples": 20000, "seed": 3}, ["--samples", "20000", "--seed", "3"]),
    ({"samples": 3000, "seed": 4, "no-play-on": 1, "opponent": "gambler", "me": "baseline(stop_at=9)"},
     ["--samples", "3000", "--seed", "4", "--no-play-on", "--opponent", "gambler",
      "--me", "baseline(stop_at=9)"]),
])
def test_advice_is_what_the_cli_prints(url, tmp_path, query, flags):
    status, body, headers = advise(url, EXAMPLE.read_bytes(), **query)
    assert status == 200 and headers["content-type"] == "application/json"
    assert masked(body) == masked(cli_advice(EXAMPLE, *flags))


DECISIONS = EXAMPLE.parents[1] / "tests" / "fixtures" / "positions" / "decisions"


@pytest.mark.parametrize("kind", ["draw", "keep", "play", "crab", "lobster", "steal"])
def test_every_decision_is_answered_as_the_cli_answers_it(url, kind):
    """A position at each decision kind (tests/fixtures/positions/decisions): the API's answer
    is byte for byte the CLI's for the same seed, and it answers that decision."""
    path = DECISIONS / f"{kind}.json"
    status, body, _ = advise(url, path.read_bytes(), samples=2000, seed=11)
    assert status == 200, body
    assert masked(body) == masked(cli_advice(path, "--samples", "2000", "--seed", "11"))
    d = json.loads(body)
    assert d["decision"] == {"crab": "crab_card", "steal": "victim"}.get(kind, kind)
    assert d["recommendation"] in d["options"] and len(d["options"]) >= 2


def test_several_models_are_answered_as_the_cli_answers_them(url):
    """robust=1 and a list of opponents: the robust answer, byte for byte the CLI's."""
    status, body, _ = advise(url, EXAMPLE.read_bytes(), samples=300, seed=2, robust=1)
    assert status == 200, body
    assert masked(body) == masked(cli_advice(EXAMPLE, "--samples", "300", "--seed", "2",
                                             "--robust"))
    assert len(json.loads(body)["rows"]) == ROBUST_PAIRS
    status, body, _ = advise(url, EXAMPLE.read_bytes(), samples=300, seed=2,
                             opponent="baseline,gambler")
    assert status == 200
    assert masked(body) == masked(cli_advice(EXAMPLE, "--samples", "300", "--seed", "2",
                                             "--opponents", "baseline,gambler"))


def test_advice_with_totals_and_target_is_what_the_cli_prints(url, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(changed(totals=[30, 33], target=40)))
    status, body, _ = advise(url, path.read_bytes(), samples=5000, seed=8)
    assert status == 200
    assert masked(body) == masked(cli_advice(path, "--samples", "5000", "--seed", "8"))
    assert "win_game" in json.loads(body)["options"]["stop"]


def test_without_a_seed_the_answer_names_the_fresh_seed_it_used(url):
    status, body, _ = advise(url, EXAMPLE.read_bytes(), samples=2000)
    seed = json.loads(body)["seed"]
    again = advise(url, EXAMPLE.read_bytes(), samples=2000, seed=seed)[1]
    assert status == 200 and masked(body) == masked(again)


def cli_error(tmp_path, content: bytes, console_script: bool = False) -> str:
    """The `error:` line of `seasalt advise FILE` for a file holding `content` (in this process
    through click's runner, the CLI's own error handling, or through the console script)."""
    path = tmp_path / "position.json"
    path.write_bytes(content)
    if console_script:
        r = cli("advise", str(path))
        code, out, err = r.returncode, r.stdout, r.stderr
    else:
        r = CliRunner().invoke(main, ["advise", str(path)])
        code, out, err = r.exit_code, r.stdout, r.stderr
    assert code == 2 and out == ""
    return err.replace(str(path), "position")     # the server names the body "position"


@pytest.mark.parametrize("content", [b"{not json", b"", b'{"players": 2,}', b"\xff\xfe{}",
                                     b"[" * 50_000, b'"just a string"', b"[1, 2]"])
def test_malformed_json_is_400_with_the_cli_message(url, tmp_path, content):
    status, body, _ = advise(url, content, samples=100, seed=1)
    assert status == 400
    assert body == cli_error(tmp_path, content, console_script=content == b"{not json")
    assert body.startswith("error: ") and body.count("\n") == 1


FIFTH_MERMAID = changed(opponents=[{"seat": 1, "table": "fish:black,fish:green", "hand_size": 5,
                                    "known": "shark:green,mermaid,mermaid,mermaid"}])


@pytest.mark.parametrize("position, words", [
    (FIFTH_MERMAID, "5 x mermaid listed, only 4 exist"),
    (changed(deck=36), "sizes do not add up"),
    (changed(hand="mermaid,shell:black,shell:yellow", deck=40), "declaring needs at least 7"),
    (changed(colour="blue"), "unknown key 'colour'"),
    (changed(opponents=[]), "seat 1 is missing"),
    (changed(hand="mermaid,kraken"), "unknown card kind 'kraken'"),
    (changed(players=5), "players must be a whole number from 2 to 4"),
    (changed(totals=[1, 2]), "give both totals and target"),
])
def test_impossible_positions_are_400_with_the_cli_message(url, tmp_path, position, words):
    content = json.dumps(position).encode()
    status, body, _ = advise(url, content, samples=100, seed=1)
    assert status == 400 and words in body
    assert body == cli_error(tmp_path, content)


READING = EXAMPLE.parent / "example_reading.json"


@pytest.mark.parametrize("query, flags", [
    ({"samples": 2000, "seed": 1}, ["--samples", "2000", "--seed", "1"]),
    ({"samples": 2000, "seed": 1, "tremble": 0.2, "reading": "tuned"},
     ["--samples", "2000", "--seed", "1", "--tremble", "0.2", "--reading", "tuned"]),
    ({"samples": 2000, "seed": 1, "reading": "off"},
     ["--samples", "2000", "--seed", "1", "--reading", "off"]),
])
def test_a_position_with_history_is_read_as_the_cli_reads_it(url, query, flags):
    """docs/example_reading.json carries the round's history: the API's answer is byte for
    byte `seasalt advise --json`'s with the same reading options, the verdict with and without
    reading included (or, with reading=off, the plain advice)."""
    status, body, _ = advise(url, READING.read_bytes(), **query)
    assert status == 200, body
    assert masked(body) == masked(cli_advice(READING, *flags))
    assert ("reading" in json.loads(body)) == (query.get("reading") != "off")


@pytest.mark.parametrize("query, words", [
    ({"tremble": 0}, "--tremble must be between 0.001 and 1"),     # the API's own parameter
    ({"precision": 0.01}, "takes Samples, not Precision: empty the Precision box"),
    ({"robust": 1}, 'untick "also ask several models" or "read the opponents\' hands"'),
])
def test_bad_reading_options_name_the_control_that_fixes_them(url, query, words):
    """The page shows the server's message: it names the page's controls, not the CLI's
    flags (the page has no tremble control; the API's parameter is named)."""
    status, body, _ = advise(url, READING.read_bytes(), **query)
    assert status == 400 and body.startswith("error: ") and words in body, body


@pytest.mark.parametrize("query, words", [
    ({"samples": "many"}, "invalid value for samples: 'many'"),
    ({"no-play-on": "perhaps"}, "invalid value for no-play-on: 'perhaps'"),
    ({"seed ": 2}, "unknown parameter 'seed '"),
    ({"samples": 0}, "Samples must be between 1 and 10000000, got 0"),    # the page's words
    ({"seed": -1}, "Seed must be between 0 and 2**64-1"),
    ({"samples": 10, "precision": 0.01}, "give Samples or Precision, not both"),
    ({"opponent": "nobody"}, "nobody"),
    ({"jobs": 2}, "unknown parameter 'jobs'"),
])
def test_bad_options_are_400(url, query, words):
    status, body, _ = advise(url, EXAMPLE.read_bytes(), **query)
    assert status == 400 and body.startswith("error: ") and words in body, body


def test_an_option_given_twice_is_400(url):
    status, body, _ = request(url, "/api/advise?samples=10&samples=20", EXAMPLE.read_bytes())
    assert status == 400 and body == "error: samples given twice\n"


def test_an_oversize_body_is_413_with_or_without_a_length(url):
    big = b" " * (64 * 1024 + 1)
    status, body, _ = advise(url, big)
    assert status == 413 and body.startswith("error: position: over 65,536 bytes")
    # chunked, so no Content-Length tells the size in advance: the server stops reading
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    conn.request("POST", "/api/advise", body=iter([b" " * 40_000] * 3),
                 headers={"Content-Type": "application/json"}, encode_chunked=True)
    r = conn.getresponse()
    assert r.status == 413 and r.read().decode().startswith("error: position: over")
    conn.close()


def test_only_json_is_accepted(url):
    status, body, _ = request(url, "/api/advise", EXAMPLE.read_bytes(),
                              headers={"Content-Type": "text/plain"})
    assert status == 415 and "Content-Type: application/json" in body


def test_no_file_a_request_names_is_read(url):
    for path in ("/etc/passwd", "/../pyproject.toml", "/%2e%2e/analyzer/web/app.py",
                 "/static/../app.py", "/docs/example_position.json"):
        status, body, _ = request(url, path)
        assert status == 404 and "root:" not in body and "import" not in body
    status, body, _ = advise(url, b'"/etc/passwd"')
    assert status == 400 and body.startswith("error: position must be an object")
    status, body, _ = advise(url, json.dumps(changed(hand="/etc/passwd")).encode())
    assert status == 400 and "unknown card kind '/etc/passwd'" in body


def test_answers_only_requests_addressed_to_localhost(url):
    status, body, _ = request(url, "/", headers={"Host": "attacker.example"})
    assert status == 400
    for host in ("localhost", "127.0.0.1"):
        port = urllib.parse.urlsplit(url).port
        assert request(url, "/", headers={"Host": f"{host}:{port}"})[0] == 200
    assert urllib.parse.urlsplit(url).hostname == "127.0.0.1"


def test_concurrent_requests_are_each_answered_as_if_alone(url):
    """Advice runs one at a time (the kernels' threads serve one call); the others wait, and
    checks are answered meanwhile."""
    answers: dict[int, tuple] = {}

    def ask(seed):
        answers[seed] = advise(url, EXAMPLE.read_bytes(), samples=30000, seed=seed)
    threads = [threading.Thread(target=ask, args=(s,)) for s in (11, 12, 13)]
    for t in threads:
        t.start()
    status, body, _ = request(url, "/api/check", EXAMPLE.read_bytes())
    assert status == 200 and json.loads(body)["valid"]
    for t in threads:
        t.join(timeout=300)
    for seed in (11, 12, 13):
        status, body, _ = answers[seed]
        assert status == 200
        assert masked(body) == masked(advise(url, EXAMPLE.read_bytes(), samples=30000, seed=seed)[1])


def test_check_gives_the_parser_verdict(url, tmp_path):
    status, body, _ = request(url, "/api/check", EXAMPLE.read_bytes())
    assert status == 200
    assert json.loads(body) == {"valid": True, "error": None, "points": 8,
                                "description": describe(parse(EXAMPLE_POS))}
    content = json.dumps(FIFTH_MERMAID).encode()
    status, body, _ = request(url, "/api/check", content)
    assert status == 200
    assert json.loads(body) == {"valid": False, "error": cli_error(tmp_path, content).strip()}


def test_cards_are_rewritten_in_canonical_notation(url):
    pos = changed(hand=["Mermaid", "SHELL:dark-blue"], table="boat:Black,boat:yellow",
                  expansion="Extra_Salt",
                  piles={"A": {"size": 4, "top": "octopus:grey"}, "B": {"cards": "crab:black, lobster"}})
    status, body, _ = request(url, "/api/cards", json.dumps(pos).encode())
    assert status == 200
    d = json.loads(body)
    assert d["hand"] == ["mermaid", "shell:dark_blue"] and d["table"] == ["boat:black", "boat:yellow"]
    assert d["expansion"] == "extra-salt"
    assert d["piles"] == {"A": {"size": 4, "top": ["octopus:grey"]},
                          "B": {"cards": ["crab:black", "lobster"]}}
    assert d["opponents"][0]["known"] == ["shark:green"] and d["deck"] == 37
    status, body, _ = request(url, "/api/cards", json.dumps(changed(hand="crab")).encode())
    assert status == 400 and body.startswith("error: hand: crab needs a colour")


def test_the_catalogue_is_the_card_list_of_the_kernels(url):
    status, body, _ = request(url, "/api/catalogue")
    cat = json.loads(body)
    assert status == 200 and cat["expansions"] == {"base": 58, "extra-salt": 66}
    assert [k["kind"] for k in cat["kinds"]] == list(kc.KINDS)
    cards = [c for k in cat["kinds"] for c in k["cards"]]
    assert len(cards) == kc.NTYPES
    for c in cards:
        t = parse_card(c["name"], "extra-salt")
        assert c["copies"] == kc.TYPE_COPIES[t]
        assert c["colour"] == kc.COLOURS[kc.TYPE_COLOUR[t]]
    from analyzer.play.position import DECISIONS as FILE_DECISIONS
    assert [d["id"] for d in cat["decisions"]][0] == "play"       # a file's default decision
    assert sorted(d["id"] for d in cat["decisions"]) == sorted(FILE_DECISIONS)
    assert {d["id"]: d["keys"] for d in cat["decisions"] if d["keys"]} == \
        {"keep": ["drawn"], "crab": ["crab_pile"], "lobster": ["seen"]}


def test_the_page_is_served_with_its_own_files_only(url):
    status, html, headers = request(url, "/")
    assert status == 200 and "<title>seasalt advisor</title>" in html
    assert headers["content-security-policy"].startswith("default-src 'self'")
    assert "http://" not in html and "https://" not in html
    for path in ("/app.js", "/style.css"):
        status, text, _ = request(url, path)
        text = text.replace('"http://www.w3.org/2000/svg"', "SVG_NS")   # a name, not a fetch
        assert status == 200 and "http://" not in text and "https://" not in text


def test_a_busy_port_is_one_error_line():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = cli("serve", "--port", str(port))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: cannot listen on 127.0.0.1:{port}:")
    assert "--port" in r.stderr and r.stderr.count("\n") == 1
    r = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and r.stderr == "error: --port must be between 0 and 65535, got 70000\n"


def test_a_seastead_game_through_the_api(url):
    """POST /api/seastead/play starts a game at the user's first decision (the seed's digits read
    exactly); an option index plays it; a bad option, an unknown key or game is one error line
    and changes nothing; the game file is a position `seastead advise` reads."""
    status, text, _ = request(url, "/api/seastead/play", '{"seed": "18446744073709551615"}')
    assert status == 200, text
    v = json.loads(text)
    assert v["seed"] == "18446744073709551615" and v["decision"] and v["choices"] >= 0
    gid, n = v["id"], len(v["decision"]["options"])
    for body, words in [('{"option": 99}', "option 99"), ('{"opt": 0}', '"option"'),
                        ('{"option": true}', "whole number")]:
        status, text, _ = request(url, f"/api/seastead/play/{gid}", body)
        assert status == 400 and text.startswith("error: ") and words in text, text
    status, text, _ = request(url, f"/api/seastead/play/{gid}", '{"option": 0}')
    after = json.loads(text)
    assert status == 200 and after["choices"] > v["choices"] and len(v["decision"]["options"]) == n
    status, text, _ = request(url, "/api/seastead/play", '{"sides": "AAAA", "colour": 1}')
    assert status == 400 and "colour" in text
    status, text, _ = request(url, "/api/seastead/play", '{"opponent": "random"}')
    assert status == 400 and "heuristic" in text
    for body in ('{"solo": "yes"}', '{"sides": 4}', '[1]', '{"seed": "12x"}'):
        status, text, _ = request(url, "/api/seastead/play", body)
        assert status == 400 and text.startswith("error: ") and len(text.splitlines()) == 1, text
    status, text, _ = request(url, "/api/seastead/play/nope", '{"option": 0}')
    assert status == 404 and text.startswith("error: no game")
    status, text, headers = request(url, f"/api/seastead/play/{gid}/game")
    assert {k.lower(): v for k, v in headers.items()}["content-disposition"] == \
        'attachment; filename="seastead-game-18446744073709551615.json"'
    game = json.loads(text)
    assert game["seed"] == 18446744073709551615 and len(game["choices"]) == after["choices"]
    status, text, _ = request(url, f"/api/seastead/play/{gid}/hint?samples=8&seed=2")
    assert status == 200 and json.loads(text)["samples"] == 8
    status, text, _ = request(url, f"/api/seastead/play/{gid}/hint?samples=0")
    assert status == 400 and "--samples" in text
