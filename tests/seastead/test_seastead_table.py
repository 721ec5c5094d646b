"""Seastead at the table (analyzer.seastead.table, kernels.seastead.table): a game driven from
decision to decision by its choices is the engine's game; every kind of decision is asked and
advised; at the start of an action the advice's best option is the search player's choice on
the same redeals; a review's best is the advice's; `seasalt seastead advise` and `review`
through their script, with their errors."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from analyzer.base.errors import SeasaltError
from analyzer.seastead.advice import SeasteadAdviceSpec, run
from analyzer.seastead.components import Setup, load
from analyzer.seastead.players import parse_player, player_arrays, seat_players
from analyzer.seastead.position import TEMPLATE, game_of
from analyzer.seastead.replay import trace_game
from analyzer.seastead.review import SeasteadReviewSpec, run as review
from analyzer.seastead.table import Game, heuristic_choice, option_text, option_values
from analyzer.play.position_template import strip_comments
from cli_helpers import cli, one_line
from kernels.protocol import Values
from kernels.rng import seed_stream
from kernels.seastead import layout as L
from kernels.seastead.engine import action_options
from kernels.seastead.hidden import determinize
from kernels.seastead.search_batch import search_plan

ROOT = Path(__file__).resolve().parents[2]
GAMES = [(Setup(), 1), (Setup(sides="BBBB"), 0), (Setup(solo=True), 3)]


@pytest.fixture(scope="module")
def comps():
    return load()


def heuristic_params(setup: Setup) -> np.ndarray:
    return player_arrays(seat_players(["heuristic"], 1 if setup.solo else 2))[1]


def played(comps, setup: Setup, seed: int):
    """Every decision of a game whose seats all play the heuristic, answered through apply:
    [(game before the decision, decision)], and the game at its end."""
    pp = heuristic_params(setup)
    g, seen = Game(comps, setup, seed), []
    while (d := g.decision()) is not None:
        seen.append((g, d))
        g = g.apply(heuristic_choice(g, d, pp))
    return seen, g


@pytest.mark.parametrize("setup, seed", GAMES + [(Setup(), 2), (Setup(sides="ABBA"), 4)])
def test_a_game_answered_decision_by_decision_is_the_engines_game(comps, setup, seed):
    seen, end = played(comps, setup, seed)
    s, _ = trace_game(comps, setup, ["heuristic"], seed)
    assert np.array_equal(end.final(), s)
    assert len(seen) > 50 and all(len(d.options) > 1 for _, d in seen)
    for g, d in seen:
        if d.kind == L.K_ACTION and len(g.choices) and g.choices[-1][1] != L.K_ACTION:
            ob = np.zeros((L.MAX_OPTS, 4), dtype=np.int32)
            n = action_options(d.state.copy(), comps.cp, d.seat, ob)
            assert np.array_equal(ob[:n], d.options)       # the action's legal options


def test_every_kind_of_decision_is_asked_and_advised(comps):
    first = {}
    for setup, seed in GAMES:
        for g, d in played(comps, setup, seed)[0]:
            first.setdefault(d.kind, (g, d))
    assert sorted(first) == list(range(len(L.KIND_NAMES)))
    for kind, (g, d) in sorted(first.items()):
        r = run(SeasteadAdviceSpec.build(g, samples=24, seed=5))
        assert r["decision"]["kind"] == L.KIND_NAMES[kind] and r["decision"]["seat"] == d.seat
        assert len(r["options"]) == len(d.options) > 1
        texts = [o["text"] for o in r["options"]]
        assert len(set(texts)) == len(texts) and not any(t.startswith("option ") for t in texts)
        wins = [o["win_game"]["rate"] for o in r["options"]]
        best = r["options"][r["best"]]
        assert best["win_game"]["rate"] == max(wins) and r["ranking"][0] == r["best"]
        for o in r["options"]:
            lo, hi = o["win_game"]["ci95"]
            assert 0 <= lo <= o["win_game"]["rate"] <= hi <= 1
            diff = o["vs_best"]["diff"]
            assert diff == pytest.approx(o["win_game"]["rate"] - best["win_game"]["rate"])
            assert diff <= 0 and o["vs_best"]["ci95"][0] <= diff <= o["vs_best"]["ci95"][1]
        # the advice's choice is legal: appended, the game moves on
        after = g.apply(r["best"])
        assert after.choices[-1] == tuple([d.seat, kind] + best["row"])
        after.decision()                                    # legal: no error


def test_at_an_action_the_advice_is_the_search_players_choice_on_the_same_redeals(comps):
    """The search player (width 72: every build kept) plans at an action's start; the advice
    values the same options on the same redeal stream and must choose what it chooses."""
    _, pp = player_arrays([parse_player("search(rollouts=24,width=72)")] * 2)
    starts = []
    for setup, seed in [(Setup(), 11), (Setup(sides="BBBB"), 12)]:
        for g, d in played(comps, setup, seed)[0]:
            last = g.choices[-1] if g.choices else (-1, -1)
            if d.kind == L.K_ACTION and len(d.options) >= 4 and last[:2] != (d.seat, L.K_ACTION):
                starts.append((g, d))
    assert len(starts) >= 20
    for k, (g, d) in enumerate(starts[::2]):
        best = option_values(g, d, np.array([pp[d.seat]] * 2), 24, seed_stream(9, k)).best()
        rows = search_plan(d.state.copy(), comps.cp, d.seat, pp, seed_stream(9, k))
        assert tuple(d.options[best]) == tuple(rows[0][2:]), (g.setup, g.seed, len(g.choices))


def test_the_same_seed_gives_the_same_advice_in_any_chunks(comps):
    g = game_of(json.loads(strip_comments(TEMPLATE)))
    d = g.decision()
    model = heuristic_params(Setup())
    a = option_values(g, d, model, 40, seed_stream(3, 0))
    b = option_values(g, d, model, 40, seed_stream(3, 0), chunk=7)
    c = option_values(g, d, model, 40, seed_stream(4, 0))
    assert np.array_equal(a.sums, b.sums) and np.array_equal(a.pair_sq, b.pair_sq)
    assert not np.array_equal(a.sums, c.sums)


def test_a_difference_of_two_options_has_its_paired_interval():
    """Values.diff is the mean of the per-redeal differences with a normal 95% interval of
    their standard deviation (ddof 1): what a reader computes from the results themselves."""
    rng = np.random.default_rng(1)
    x = rng.choice([0.0, 0.5, 1.0], size=(50, 3), p=[0.5, 0.1, 0.4])
    v = Values(50, np.stack([x.sum(axis=0), np.zeros(3)], axis=1),
               ((x[:, :, None] - x[:, None, :]) ** 2).sum(axis=0))
    d = x[:, 0] - x[:, 2]
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(50)
    assert np.allclose(v.diff(0, 2), (d.mean(), d.mean() - half, d.mean() + half))
    assert v.diff(1, 1) == (0.0, 0.0, 0.0) and v.best() == int(np.argmax(x.sum(axis=0)))


def test_a_redeal_keeps_what_a_seat_sees(comps):
    """determinize: every deck keeps its cards; the dive deck's layers keep their groups; the
    `shown` top decrees (face up while a seat chooses between them) keep their places."""
    seen, _ = played(comps, Setup(sides="BBBB"), 0)
    g, d = next((g, d) for g, d in seen if d.kind == L.K_DECREE)
    s = d.state
    moved = False
    for k in range(20):
        t = s.copy()
        determinize(t, comps.cp, seed_stream(k, 0), 2)
        for lo, ln in ((L.DECK, L.DECK_LEN), (L.SPEC_DECK, L.SPEC_DECK_LEN),
                       (L.DOCK_DECK, L.DOCK_DECK_LEN), (L.DCK, L.DCK_LEN)):
            n = s[ln]
            assert sorted(t[lo:lo + n]) == sorted(s[lo:lo + n])
            moved |= not np.array_equal(t[lo:lo + n], s[lo:lo + n])
        groups = lambda u: [int(comps.cp[L.DV_GROUP + c]) for c in u[L.DECK:L.DECK + s[L.DECK_LEN]]]  # noqa: E731
        assert groups(t) == groups(s)
        n = s[L.DCK_LEN]
        assert np.array_equal(t[L.DCK + n - 2:L.DCK + n], s[L.DCK + n - 2:L.DCK + n])
        assert (t[:L.DECK] == s[:L.DECK]).all()
    assert moved


def test_a_choice_that_is_not_legal_is_named(comps):
    g = Game(comps, Setup(), 7)
    d = g.decision()
    bad = Game(comps, Setup(), 7, (d.row(0), (d.seat, d.kind, 99, 99, 99, 99)))
    with pytest.raises(SeasaltError, match=r"choices\[1\]"):
        bad.decision()
    with pytest.raises(SeasaltError, match="option 9"):
        g.apply(9)
    _, end = played(comps, Setup(solo=True), 3)
    with pytest.raises(SeasaltError, match="game is over"):
        run(SeasteadAdviceSpec.build(end, samples=4))
    assert option_text(d, 0, comps)


def test_the_documented_example_is_the_template():
    assert (ROOT / "docs" / "example_seastead_position.json").read_text() == TEMPLATE


def test_seastead_advise_through_its_script(tmp_path):
    pos = tmp_path / "position.json"
    p = cli("seastead", "advise", "--template")
    assert p.returncode == 0 and p.stdout == TEMPLATE
    pos.write_text(p.stdout)
    p = cli("seastead", "advise", pos, "--samples", "64", "--seed", "2", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert (r["seed"], r["samples"], r["game_seed"], r["choices"]) == (2, 64, 7, 21)
    assert r["decision"]["kind"] == "action" and r["version"] and r["model"].startswith("heuristic")
    text = cli("seastead", "advise", pos, "--samples", "64", "--seed", "2")
    lines = text.stdout.splitlines()
    assert text.returncode == 0 and max(map(len, lines)) <= 100
    assert r["options"][r["best"]]["text"] in text.stdout and "P(win game)" in text.stdout
    data = json.loads(strip_comments(TEMPLATE))
    data["choices"].append(r["choice_row"])                 # the advice's choice, played
    pos.write_text(json.dumps(data))
    assert json.loads(cli("seastead", "advise", pos, "--samples", "8", "--json").stdout)[
        "choices"] == 22
    data["choices"].append([0, "dock", 9, 9, 9, 9])
    pos.write_text(json.dumps(data))
    one_line(cli("seastead", "advise", pos), str(pos), "choices[22]")
    pos.write_text('{"seed": 7, "sides": "AB"}')
    one_line(cli("seastead", "advise", pos), str(pos), "'sides'")
    one_line(cli("seastead", "advise", pos, "--samples", "0"), "--samples")
    one_line(cli("seastead", "advise", tmp_path / "none.json"), "none.json", "--template")
    zero = tmp_path / "zero.json"               # hostile files: refused, never read on
    zero.symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe{")
    for bad, words in [(zero, "not a regular file"), (tmp_path / "fifo.json", "not a regular"),
                       (tmp_path, "not a regular file"), (tmp_path / "bin.json", "not UTF-8")]:
        one_line(cli("seastead", "advise", bad, timeout=60), str(bad), words)
        one_line(cli("seastead", "review", "--game", bad, timeout=60), str(bad), words)
    box = tmp_path / "box.toml"                 # a broken components file: one line a problem
    box.write_text('[meta]\nname = 1\n')
    pos.write_text(json.dumps({"seed": 7, "components": str(box)}))
    for command in ("advise", "review --game"):
        p = cli("seastead", *command.split(), pos)
        lines = p.stderr.splitlines()
        assert p.returncode == 2 and p.stdout == "" and len(lines) > 2, p.stderr
        assert all(x.startswith(f"error: {pos} field 'components': ") for x in lines)


def test_a_seat_that_follows_the_advice_is_reviewed_as_playing_the_best(comps):
    """Seat 0 plays the advice's best at each of its decisions (seat 1 the heuristic); the
    review, which asks the same advice (the same samples and the game's seed), finds every one
    of them as good as the best, and its loss is measured on another stream of redeals."""
    pp = heuristic_params(Setup())
    g = Game(comps, Setup(), 5)
    while len(g.choices) < 24:
        d = g.decision()
        if d.seat == 0:
            i = run(SeasteadAdviceSpec.build(g, samples=12, seed=5))["best"]
        else:
            i = heuristic_choice(g, d, pp)
        g = g.apply(i)
    r = review(SeasteadReviewSpec.build(g, seats=(0,), samples=12))
    mine = [k for k, row in enumerate(g.choices) if row[0] == 0]
    assert [d["choice"] for d in r["decisions"]] == mine and r["reviewed"] == len(mine) > 5
    assert r["as_best"] == r["reviewed"] and r["clear_losses"] == 0
    assert r["seed"] == 5 and r["over"] is False and r["result"] is None
    # seat 1's heuristic choices, reviewed: each line's best is the advice's at that point
    r1 = review(SeasteadReviewSpec.build(g, seats=(1,), samples=12))
    for line in r1["decisions"][:4]:
        cut = Game(comps, Setup(), 5, g.choices[:line["choice"]])
        a = run(SeasteadAdviceSpec.build(cut, samples=12, seed=5))
        assert a["options"][a["best"]]["text"] == line["best"]
        d = cut.decision()
        best = a["best"]
        chosen = next(i for i in range(len(d.options)) if d.row(i) == g.choices[line["choice"]])
        w = option_values(cut, d, heuristic_params(Setup()), 12, seed_stream(5, 1),
                          only=[best, chosen])
        assert line["loss"]["diff"] == pytest.approx(w.diff(0, 1)[0])


def test_seastead_review_through_its_script():
    p = cli("seastead", "review", "--seed", "7", "--seat", "0", "--samples", "8", "--json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    assert r["over"] and r["seats"] == [0] and r["reviewed"] > 20 and r["game_seed"] == 7
    assert all(d["seat"] == 0 for d in r["decisions"])
    text = cli("seastead", "review", "--seed", "7", "--seat", "0", "--samples", "8")
    assert text.returncode == 0 and max(map(len, text.stdout.splitlines())) <= 100
    assert f"{r['reviewed']} decisions reviewed" in text.stdout
    one_line(cli("seastead", "review"), "--seed", "--game")
    one_line(cli("seastead", "review", "--seed", "7", "--player", "random"), "random")
    one_line(cli("seastead", "review", "--seed", "7", "--seat", "3"), "--seat")
