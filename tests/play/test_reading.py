"""Hand reading (kernels.reading): deals weighted by how likely the opponents' model makes the
public choices the seat saw. The weighted sampler against exact enumeration of every
consistent deal weighted by the model's likelihood; uniform when the likelihood is constant;
the reading search player deterministic for a seed and reporting its effective sample size.

The test position (swimmer_position): two players, the asker (seat 0) at its play step after
taking the orange sailor from pile A. In its last turn seat 1 took the black swimmer from pile B
(so pile A's top was then the orange sailor) and ended its turn without playing a pair or
declaring. The asker cannot place 7 cards: seat 1's 3 other cards and the 4 deck cards, two
sharks among them. For the baseline model the two choices pull apart: it takes a swimmer only
for a gain (a shark to pair it with, or a mermaid's colour), and it never ends a turn holding
swimmer+shark while the asker has cards to steal.
"""
from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.play.advisor import advise
from analyzer.rules.notation import parse_card
from analyzer.faces.cli import main
from analyzer.play.decisions import Round
from analyzer.rules.policies import policy_arrays, seat_policies
from analyzer.play.position import parse
from analyzer.play.reading import FIT_DEALS, advise_read, model_fit, observations
from analyzer.play.search_seat import SearchSeat
from analyzer.studies.simulate import simulate_games, simulate_rounds
from analyzer.runs.spec import Backend
from conftest import rest_of
from kernels import advisor as kad
from kernels import events as ev
from kernels import reading as kr
from kernels import search as ksearch
from kernels import state as ks
from kernels.rng import seed_stream
from test_advisor_deals import _fill, _hand, _possible

Z = 4.0     # every cell of the distribution within 4 standard errors (35 cells, < 1e-3 false alarm)


def swimmer_position() -> dict:
    hand = ["sailor:pink", "sailor:orange", "captain"]
    known1 = ["swimmer:black"]
    pool = ["shark:green", "shark:purple", "mermaid", "shell:black", "penguin:pink", "fish:black",
            "crab:grey"]
    b = ["octopus:grey"]
    rest = rest_of("base", hand, known1, pool, b)
    return {"players": 2, "seat": 0, "hand": hand,
            "opponents": [{"seat": 1, "hand_size": 4, "known": known1}],
            "piles": {"A": {"cards": rest}, "B": {"cards": b}}, "deck": 4}


def swimmer_trace() -> np.ndarray:
    """The round's public history as the engine's trace rows (kernels.events)."""
    rows = [(ev.TURN, 1, 0, 0, 0), (ev.TAKE_PILE, 1, parse_card("swimmer:black"), 1, 0),
            (ev.TURN, 0, 0, 0, 0), (ev.TAKE_PILE, 0, parse_card("sailor:orange"), 0, 0)]
    return _trace(rows)


def _trace(rows: list[tuple]) -> np.ndarray:
    """A round's trace of these rows (kernels.events: its length in row 0)."""
    tr = np.zeros((len(rows) + 1, 5), dtype=np.int32)
    tr[0, 0] = len(rows)
    tr[1:] = rows
    return tr


def _model():
    return policy_arrays(seat_policies(["baseline"], 2))


def _cost(s, tr, obs, pk, pp):
    """The reading cost of the deal s (kernels.reading: MISS per mismatch, 1 per draw that one
    order explains)."""
    v = ks.new_state()
    return int(kr.mismatches(s, 0, tr, obs, pk, pp, v, kr.new_stack(), seed_stream(0)))


def _mismatches(s, tr, obs, pk, pp):
    return _cost(s, tr, obs, pk, pp) // kr.MISS


def test_the_trace_gives_one_turn_of_seat_1_to_read():
    pos = parse(swimmer_position())
    obs = kr.new_obs()
    assert kr.observe(pos.template, swimmer_trace(), 0, obs) == 1
    row = obs[kr.OBS_WIDTH:2 * kr.OBS_WIDTH]
    assert row[kr.O_FIRST] == 1 and row[kr.O_TURNS] == 1
    assert not obs[:kr.OBS_WIDTH].any()              # the reader itself is not read


def test_the_likelihood_reads_the_rules_of_the_model():
    """Holding a shark: the take is what baseline does, ending the turn is not (it would steal):
    one mismatch. Holding neither shark nor mermaid: the swimmer gains nothing, so baseline
    would have drawn from the deck: one mismatch. Only a mermaid can make the swimmer a gain
    (its colour) without a shark: the deals that fit both choices hold one."""
    pos = parse(swimmer_position())
    tr = swimmer_trace()
    obs = kr.new_obs()
    kr.observe(pos.template, tr, 0, obs)
    pk, pp = _model()
    sharks = {parse_card("shark:green"), parse_card("shark:purple")}
    mermaid = parse_card("mermaid")
    seen = {}
    for order in itertools.permutations(pos.pool.tolist()):
        s = _fill(pos, order)
        hand = set(_hand(s, 1))
        key = (bool(hand & sharks), mermaid in hand)
        seen.setdefault(key, set()).add(_mismatches(s, tr, obs, pk, pp))
    assert seen[(True, False)] == {1}
    assert seen[(False, False)] == {1}
    assert 0 in seen[(False, True)]
    assert min(seen[(True, True)]) >= 1


def shark_position() -> dict:
    """Seat 1 drew from the deck in its last turn while pile A showed the black shark, and put
    the green shell down on pile B (empty until then, so that pile was forced); the asker
    (seat 0) is at its draw step. Three of the 7 cards the asker cannot place are swimmers,
    none a shark or a jellyfish."""
    hand = ["sailor:pink", "sailor:orange", "captain"]
    pool = ["swimmer:dark_blue", "swimmer:light_blue", "swimmer:yellow", "shell:black",
            "penguin:pink", "fish:black", "octopus:green"]
    rest = rest_of("base", hand, pool, ["shark:black", "shell:green"])
    return {"players": 2, "seat": 0, "decision": "draw", "hand": hand,
            "opponents": [{"seat": 1, "hand_size": 3}],
            "piles": {"A": {"cards": rest + ["shark:black"]}, "B": {"cards": ["shell:green"]}},
            "deck": 4}


def shark_trace() -> np.ndarray:
    shell = parse_card("shell:green")
    return _trace([(ev.TURN, 1, 0, 0, 0), (ev.KEEP, 1, 0, shell, 0),
                   (ev.DISCARD, 1, shell, 1, 0), (ev.TURN, 0, 0, 0, 0)])


def test_who_passed_a_shark_on_the_pile_holds_at_most_one_swimmer():
    """With two or more swimmers in hand now, whichever card seat 1 kept, it held a swimmer
    without a shark when it passed the black shark, which baseline then takes (it makes a
    pair): every such deal is a mismatch. With one swimmer (it may be the card it kept from the
    deck) or none, some deals fit."""
    pos = parse(shark_position())
    tr = shark_trace()
    obs = kr.new_obs()
    assert kr.observe(pos.template, tr, 0, obs) == 1
    pk, pp = _model()
    swimmers = {parse_card(c) for c in ("swimmer:dark_blue", "swimmer:light_blue",
                                        "swimmer:yellow")}
    seen = {}
    for order in itertools.permutations(pos.pool.tolist()):
        s = _fill(pos, order)
        c = sum(t in swimmers for t in _hand(s, 1))
        seen.setdefault(min(c, 2), set()).add(_mismatches(s, tr, obs, pk, pp))
    assert seen[2] == {1}
    assert 0 in seen[1] and 0 in seen[0]


SWIMMERS = ("swimmer:dark_blue", "swimmer:light_blue", "swimmer:yellow")


def earlier_position() -> dict:
    """Seat 1 drew from the deck in each of its three turns; in the first two the black shark
    lay on top of pile A, and the asker (seat 0) took it in between seat 1's second and third
    turns. Seat 1's three cards are the three it kept, hidden; the asker cannot place 7 cards,
    three of them swimmers, none a shark."""
    hand = ["sailor:pink", "shark:black"]
    pool = [*SWIMMERS, "shell:black", "crab:grey", "octopus:grey", "penguin:purple"]
    b = ["shell:green", "octopus:green", "crab:yellow", "fish:black"]
    rest = rest_of("base", hand, pool, b)
    return {"players": 2, "seat": 0, "decision": "draw", "hand": hand,
            "opponents": [{"seat": 1, "hand_size": 3}],
            "piles": {"A": {"cards": rest}, "B": {"cards": b}}, "deck": 4}


def earlier_trace() -> np.ndarray:
    c = parse_card
    rows = [(ev.TURN, 1, 0, 0, 0), (ev.KEEP, 1, 0, c("shell:green"), 0),
            (ev.DISCARD, 1, c("shell:green"), 1, 0),
            (ev.TURN, 0, 0, 0, 0), (ev.KEEP, 0, c("sailor:pink"), c("octopus:green"), 0),
            (ev.DISCARD, 0, c("octopus:green"), 1, 0),
            (ev.TURN, 1, 0, 0, 0), (ev.KEEP, 1, 0, c("crab:yellow"), 0),
            (ev.DISCARD, 1, c("crab:yellow"), 1, 0),
            (ev.TURN, 0, 0, 0, 0), (ev.TAKE_PILE, 0, c("shark:black"), 0, 0),
            (ev.TURN, 1, 0, 0, 0), (ev.KEEP, 1, 0, c("fish:black"), 0),
            (ev.DISCARD, 1, c("fish:black"), 1, 0),
            (ev.TURN, 0, 0, 0, 0)]
    return _trace(rows)


def test_the_whole_round_is_read_not_only_the_last_turn():
    """Seat 1's last turn says nothing of swimmers (no shark showed then). Its second turn
    does: whichever cards it kept, with three swimmers now the card it kept in its first turn
    was one, and baseline holding a swimmer takes the shark on pile A (a pair) rather than draw.
    So every deal giving seat 1 the three swimmers has a mismatch, while deals with two (both
    kept after the shark went) or fewer have explanations that fit. The kept cards were never
    shown (KEEP rows say 0): the reading tries each card of the hand as each of them."""
    pos = parse(earlier_position())
    tr = earlier_trace()
    obs = kr.new_obs()
    assert kr.observe(pos.template, tr, 0, obs) == 3
    pk, pp = _model()
    swimmers = {parse_card(c) for c in SWIMMERS}
    seen = {}
    for order in itertools.permutations(pos.pool.tolist()):
        s = _fill(pos, order)
        c = sum(t in swimmers for t in _hand(s, 1))
        seen.setdefault(c, set()).add(_mismatches(s, tr, obs, pk, pp))
    assert min(seen[3]) >= 1
    assert 0 in seen[2] and 0 in seen[1] and 0 in seen[0]


def exact_weighted(pos, tr, tremble):
    """{seat 1's hand: probability} over every arrangement of the pool, each weighted by its
    reading likelihood (every arrangement equally likely a priori: kernels.deals)."""
    obs = kr.new_obs()
    kr.observe(pos.template, tr, 0, obs)
    pk, pp = _model()
    dist = Counter()
    for order in itertools.permutations(pos.pool.tolist()):
        s = _fill(pos, order)
        if not _possible(s, pos.players):
            continue
        dist[_hand(s, 1)] += kr.cost_weight(_cost(s, tr, obs, pk, pp), tremble)
    total = sum(dist.values())
    return {k: v / total for k, v in dist.items()}


def weighted_sample(pos, tr, tremble, n, seed):
    """Seat 1's hand and the weight of n deals of the advisor's sampler (kernels.advisor)."""
    obs = kr.new_obs()
    kr.observe(pos.template, tr, 0, obs)
    pk, pp = _model()
    d = ks.new_state()
    v = ks.new_state()
    w = np.zeros(kad.W_SIZE, dtype=np.int64)
    rng = seed_stream(seed)
    scratch = seed_stream(0)
    stack = kr.new_stack()
    out = []
    for _ in range(n):
        assert kad.deal_position(d, pos.template, pos.pool, pos.unknown_hand, pos.takes, w, rng) > 0
        c = int(kr.mismatches(d, 0, tr, obs, pk, pp, v, stack, scratch))
        out.append((_hand(d, 1), kr.cost_weight(c, tremble)))
    return out


def _check(exact, sample):
    """Every cell's weighted share within Z standard errors of the exact probability (the
    self-normalized estimator's delta-method variance); returns the largest |z|."""
    wsum = sum(w for _, w in sample)
    worst = 0.0
    for cell, p in exact.items():
        est = sum(w for h, w in sample if h == cell) / wsum
        var = sum(w * w * ((h == cell) - p) ** 2 for h, w in sample) / wsum ** 2
        z = abs(est - p) / math.sqrt(max(var, 1e-12))
        worst = max(worst, z)
    return worst


POSITIONS = {"swimmer": (swimmer_position, swimmer_trace), "shark": (shark_position, shark_trace),
             "earlier": (earlier_position, earlier_trace)}


@pytest.mark.parametrize("which", list(POSITIONS))
def test_weighted_deals_match_exact_weighted_enumeration(which):
    """20,000 weighted deals against the exact weighted distribution of seat 1's hand (every
    3-card hand of the 7-card pool): each cell within 4 standard errors; on the swimmer
    position (a pile take and the end of the turn read), the shark position (a deck draw and
    the end of the turn) and the earlier position (three turns, three hidden kept cards).
    Control: the same deals unweighted (uniform) are far from it, so the test can fail."""
    position, trace = POSITIONS[which]
    pos = parse(position())
    tr = trace()
    exact = exact_weighted(pos, tr, 0.05)
    uniform = exact_weighted(pos, tr, 1.0)
    assert max(abs(exact[k] - uniform[k]) for k in exact) > 0.02      # reading matters here
    sample = weighted_sample(pos, tr, 0.05, 20_000, seed=5)
    assert set(h for h, _ in sample) <= set(exact)
    assert _check(exact, sample) < Z
    flat = [(h, 1.0) for h, _ in sample]
    assert _check(exact, flat) > 5 * Z


def test_a_constant_likelihood_gives_uniform_deals():
    """tremble = 1: every deal weighs 1, so the weighted sampler is the uniform one, and it
    matches the uniform enumeration."""
    pos = parse(swimmer_position())
    tr = swimmer_trace()
    sample = weighted_sample(pos, tr, 1.0, 5_000, seed=6)
    assert {w for _, w in sample} == {1.0}
    assert _check(exact_weighted(pos, tr, 1.0), sample) < Z


READ = "search(samples=12,continuations=2,read=1)"
READ_EXPERT = "search(samples=12,continuations=2,read=1,model_expert=1)"


def test_the_reading_search_is_deterministic_for_a_seed_whatever_the_threads():
    one = simulate_games(2, 6, [READ, "baseline"], seed=3, backend=Backend(jobs=1))
    two = simulate_games(2, 6, [READ, "baseline"], seed=3, backend=Backend(jobs=2))
    assert one["wins"] == two["wins"] and one["final_total_mean"] == two["final_total_mean"]
    r1 = simulate_rounds(3, 12, ["baseline", READ, "baseline"], seed=4, backend=Backend(jobs=1))
    r2 = simulate_rounds(3, 12, ["baseline", READ, "baseline"], seed=4, backend=Backend(jobs=2))
    assert r1["end"] == r2["end"] and r1["seat_points_mean"] == r2["seat_points_mean"]


def _decisions(spec, seeds=range(4)):
    """Every logged decision of seat 0 (a search seat) against baseline in a few rounds."""
    out = []
    for seed in seeds:
        r = Round.deal(2, seed=seed, seats=[None, "baseline"])
        seat = SearchSeat(r, 0, spec, seed=seed)
        while not r.done:
            if len(r.legal(copies=False)) > 1:
                a, rows = seat.decide()
                out.append(rows)
            else:
                a = r.legal()[0]
            r.apply(a)
    return out


def test_every_reading_decision_reports_its_effective_sample_size():
    """read=1: each decision's rows carry the ESS of its READ_CANDIDATES x 12 candidate deals,
    between 1 and their number, and below it somewhere (the reading excluded deals); with
    tremble=1 every deal weighs the same and the ESS is exactly their number. Without reading no
    ESS is reported."""
    n = 12 * ksearch.READ_CANDIDATES
    read = _decisions(READ)
    ess = [rows[0]["ess"] for rows in read]
    assert all(1.0 <= e <= n + 1e-9 for e in ess) and min(ess) < 0.8 * n
    flat = _decisions("search(samples=12,continuations=2,read=1,tremble=1)")
    assert all(abs(rows[0]["ess"] - n) < 1e-9 for rows in flat)
    expert = [rows[0]["ess"] for rows in _decisions(READ_EXPERT)]   # the expert is read too
    assert all(1.0 <= e <= n + 1e-9 for e in expert) and min(expert) < 0.8 * n
    assert all("ess" not in row for rows in _decisions(SPEC0) for row in rows)


SPEC0 = "search(samples=12,continuations=2)"


def test_a_replay_shows_each_reading_decisions_effective_sample_size():
    """`seasalt replay` of a game with search(read=1): each of its decisions carries the ESS of
    its READ_CANDIDATES x samples candidate deals (between 1 and that count) in the JSON and a
    line of the text; a search without reading has neither."""
    from analyzer.play.replay import replay
    from analyzer.render.replay_text import format_replay
    from kernels.search import READ_CANDIDATES
    g = replay(4, 2, ["search(samples=6,continuations=1,read=1)", "baseline"], target=8)
    weighed = [d for r in g["rounds"] for d in r["search_decisions"]]
    assert weighed and all(1 <= d["ess"] <= READ_CANDIDATES * 6 + 1e-9 for d in weighed)
    text = format_replay(g)
    assert text.count("effective sample size") == len(weighed)
    plain = replay(4, 2, ["search(samples=6,continuations=1)", "baseline"], target=8)
    assert all("ess" not in d for r in plain["rounds"] for d in r["search_decisions"])
    assert "effective sample size" not in format_replay(plain)


# ---------------------------------------------------------------------------------------------
# The advisor with reading


def penguin_position(**extra) -> dict:
    """Reading flips the verdict. The asker (seat 0, totals 30-30 to 40) holds two sailors and
    two shells with a fish pair on its table: 8 card points, at its play step. Seat 1 holds the
    colony and the purple penguin (both seen taken) and 3 cards the asker cannot place; the 7
    cards nobody can place hold the other two penguins. Uniformly, seat 1 has one more penguin
    (colony + 2 penguins = 7 points) or both (11) in 25 of 35 deals, so a LAST CHANCE is often
    lost and playing on is best. But seat 1 ended its last turn (a deck draw, a light blue
    octopus put down) without declaring, and baseline declares at 7: read with baseline, the
    deals in which seat 1 had 7 or more weigh 0.05 each, seat 1 most likely holds no second
    penguin, and LAST CHANCE is best."""
    hand = ["sailor:pink", "sailor:orange", "shell:dark_blue", "shell:light_blue"]
    table = ["fish:dark_blue", "fish:yellow"]
    known1 = ["colony", "penguin:purple"]
    pool = ["penguin:pink", "penguin:light_orange", "mermaid", "shell:black", "octopus:green",
            "crab:grey", "boat:black"]
    a_top, b_top = "octopus:light_blue", "boat:yellow"
    rest = rest_of("base", hand, table, known1, pool, [a_top, b_top])
    obj = {"players": 2, "seat": 0, "hand": hand, "table": table,
           "opponents": [{"seat": 1, "hand_size": 5, "known": known1}],
           "piles": {"A": {"cards": rest + [a_top]}, "B": {"cards": [b_top]}},
           "deck": 4, "totals": [30, 30], "target": 40,
           "history": [{"seat": 1, "draw": "A", "card": "colony"},
                       {"seat": 0, "draw": "A", "card": "sailor:pink"},
                       {"seat": 1, "draw": "B", "card": "penguin:purple"},
                       {"seat": 0, "draw": "A", "card": "shell:light_blue"},
                       {"seat": 1, "draw": "deck", "discard": a_top, "onto": "A"},
                       {"seat": 0, "draw": "deck", "discard": b_top, "onto": "B"}]}
    obj.update(extra)
    return obj


def test_reading_flips_the_verdict_on_the_penguin_position():
    """With reading LAST CHANCE is best, apart from the runner-up (its paired interval below
    zero); without reading (the same deals, unweighted) playing on is best. Seat 1's three
    turns are read (two pile takes, a deck draw with its discard, the end of each turn) and the
    effective sample size is well below the samples."""
    a = advise_read(penguin_position(), samples=3000, seed=1, backend=Backend(jobs=1))
    r = a.meta["reading"]
    assert a.recommendation == "last_chance" and a.meta["distinguishable"]
    assert r["without"]["recommendation"] == "play_on" and r["flips"]
    assert r["observations"] == 3                 # seat 1's three turns
    assert 100 < r["ess"] < 0.6 * 3000


def test_without_reading_is_the_advisor_itself_and_a_flat_tremble_changes_nothing():
    """The verdict without reading is advise() with the same seed and samples, rate for rate;
    with tremble 1 the reading verdict is that one too and the ESS is the samples."""
    obj = penguin_position()
    plain = advise({k: v for k, v in obj.items() if k != "history"}, samples=1000, seed=2,
                   backend=Backend(jobs=1))
    a = advise_read(obj, samples=1000, seed=2, backend=Backend(jobs=2))
    for k, o in plain.options.items():
        assert a.meta["reading"]["without"]["win_game"][k]["rate"] == o["win_game"]["rate"]
    flat = advise_read(obj, samples=1000, seed=2, backend=Backend(jobs=1), tremble=1.0)
    assert flat.meta["reading"]["ess"] == pytest.approx(1000)
    for k, o in plain.options.items():
        assert flat.options[k]["win_game"]["rate"] == pytest.approx(o["win_game"]["rate"])
    one = advise_read(obj, samples=1000, seed=2, backend=Backend(jobs=1))
    assert a.to_dict()["options"] == one.to_dict()["options"]        # any thread count



def test_an_advice_that_reads_hands_asked_through_its_spec_reports_progress_and_checks_first():
    """run(AdviceSpec) reads a position with a history (as `seasalt advise` does), reports its
    samples as they finish up to all of them, and answers as advise_read itself; what reading
    cannot do (several models, a precision) is refused when the spec is built."""
    from analyzer.base.errors import SeasaltError
    from analyzer.play.advice_spec import AdviceSpec, run
    obj = penguin_position()
    seen = []
    a = run(AdviceSpec.build(obj, samples=1000, seed=2), Backend(jobs=2),
            progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (1000, 1000) and all(t == 1000 for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    same = advise_read(obj, samples=1000, seed=2, backend=Backend(jobs=1))
    assert a.to_dict()["options"] == same.to_dict()["options"]
    with pytest.raises(SeasaltError, match="one --opponent"):
        AdviceSpec.build(obj, opponent="baseline,tuned")
    with pytest.raises(SeasaltError, match="--samples, not --precision"):
        AdviceSpec.build(obj, precision=0.01)
    assert not AdviceSpec.build(obj, reading="off").reads

def test_the_cli_reads_hands_and_says_so(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(penguin_position()))
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "3000", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "with reading:    last_chance" in r.stdout
    assert "without reading: play_on" in r.stdout and "effective sample size" in r.stdout
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "300", "--seed", "1",
                                  "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["reading"]["observations"] == 3
    for bad in (["--tremble", "0"], ["--robust"], ["--precision", "0.01"],
                ["--reading", "random"], ["--opponent", "random"], ["--reading", "search"]):
        r = CliRunner().invoke(main, ["advise", str(path), "--samples", "100", *bad])
        assert r.exit_code == 2 and len(r.stderr.splitlines()) == 1, (bad, r.output)
    path.write_text(json.dumps(penguin_position(history=[{"seat": 1, "draw": "sky"}])))
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "100"])
    assert r.exit_code == 2 and "draw must be" in r.stderr
    obj = penguin_position()
    del obj["history"]
    path.write_text(json.dumps(obj))
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "100", "--reading",
                                  "baseline"])
    assert r.exit_code == 2 and "history" in r.stderr


def test_the_docs_example_is_the_penguin_position():
    """docs/advisor.md shows `seasalt advise docs/example_reading.json`: the position above."""
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "example_reading.json"
    assert json.loads(path.read_text()) == penguin_position()


@pytest.mark.parametrize("model,players,rounds,expansion", [
    ("baseline", 2, 60, "base"), ("baseline", 4, 25, "base"), ("baseline", 2, 60, "extra-salt"),
    ("baseline", 3, 25, "extra-salt"), ("expert", 2, 60, "base"), ("expert", 4, 25, "base"),
    ("expert", 3, 25, "extra-salt")])
def test_an_exact_model_never_excludes_the_true_deal(model, players, rounds, expansion):
    """Real rounds against opponents read as what they are (baseline, or the expert, which also
    weighs the turn count and every seat's hand size and table): at every decision of seat 0
    (played at random), the true hidden cards fit every choice read in the whole round (some
    explanation of the cards each opponent gained out of sight fits them all), so the truth
    keeps full weight. A reading that misjudged a choice, rebuilt a past moment wrongly (a
    pile, a hand, a hand size, the turn count, a declaration, a steal), or read a hidden fact
    would give the true deal a mismatch somewhere."""
    pk, pp = policy_arrays(seat_policies([model], players))
    v = ks.new_state()
    stack = kr.new_stack()
    scratch = seed_stream(0)
    pick = np.random.default_rng(players)
    read = Counter()
    for seed in range(rounds):
        r = Round.deal(players, seed=seed, seats=[None] + [model] * (players - 1),
                       expansion=expansion)
        while not r.done:
            obs = kr.new_obs()
            read[kr.observe(r.s, r.tr, 0, obs) > 0] += 1
            m = kr.mismatches(r.s, 0, r.tr, obs, pk, pp, v, stack, scratch) // kr.MISS
            assert m == 0, (seed, r.events())
            acts = r.legal()
            r.apply(acts[int(pick.integers(len(acts)))])
    assert read[True] > 2 * read[False]          # most decisions had something to read


@pytest.mark.parametrize("model", ["baseline", "expert"])
def test_the_table_kept_from_deal_to_deal_changes_no_cost(model):
    """The reading keeps what it worked out at each hidden gain from one deal to the next (and
    clears it when the rows or the model change): at every decision of seat 0 in real rounds,
    each of several sampled deals costs the same read with the table kept from every deal,
    decision and round before it as with a fresh one. Many of the deals mismatch, so the kept
    table is used in earnest."""
    from kernels import cards as kc
    pk, pp = policy_arrays(seat_policies([model], 2))
    full = kc.copies_in("base").astype(np.int64)
    kept, v, d = kr.new_stack(), ks.new_state(), ks.new_state()
    k = np.zeros(ksearch.K_SIZE, np.int64)
    w = np.zeros(ksearch.W_INT, np.int64)
    scratch, rng, pick = seed_stream(0), seed_stream(5), np.random.default_rng(5)
    costs = Counter()
    for seed in range(12):
        r = Round.deal(2, seed=seed, seats=[None, model])
        ksearch.reset_knowledge(k, r.s, r.tr)
        while not r.done:
            ksearch.update_knowledge(k, 0, r.tr)
            obs = kr.new_obs()
            kr.observe(r.s, r.tr, 0, obs)
            for _ in range(6):
                ksearch.determinize(d, r.s, k, 0, full, w, rng)
                a = kr.mismatches(d, 0, r.tr, obs, pk, pp, v, kept, scratch)
                assert a == kr.mismatches(d, 0, r.tr, obs, pk, pp, v, kr.new_stack(), scratch)
                costs[a > 0] += 1
            acts = r.legal()
            r.apply(acts[int(pick.integers(len(acts)))])
    assert costs[True] > costs[False] / 4


# --- histories no round could have played (docs/rules.md) ------------------------------------

def _turns(*changes) -> list[dict]:
    """The penguin position's history with (index, turn) replaced (a turn of None removed) and
    ("+", turns) put before it."""
    history = [dict(t) for t in penguin_position()["history"]]
    for k, turn in changes:
        if k == "+":
            history = turn + history
        else:
            history[k] = turn
    return [t for t in history if t is not None]


MERMAIDS_DOWN = [{"seat": 1 - k % 2, "draw": "deck", "discard": "mermaid", "onto": "B"}
                 for k in range(6)]
IMPOSSIBLE_HISTORIES = [
    ("five mermaids put down", _turns(("+", MERMAIDS_DOWN)),
     "history turn 5 (seat 1): puts down mermaid for the 5th time, and the deck has 4 "
     "(docs/rules.md, \"The cards\")"),
    ("the only colony taken twice", _turns((2, {"seat": 1, "draw": "B", "card": "colony"})),
     "history turn 3 (seat 1): takes colony for the 2nd time, and the deck has 1"),
    ("STOP, and the round goes on", _turns((0, {"seat": 1, "draw": "A", "card": "colony",
                                                "declare": "stop"})),
     "history turn 2 (seat 0): the round ended with the STOP of turn 1"),
    ("STOP in the asker's turn", _turns((5, {"seat": 0, "draw": "deck", "discard": "boat:yellow",
                                             "onto": "B", "declare": "stop"})),
     "history turn 6 (seat 0): its STOP ends the round: there is no decision left"),
    ("you took a card you do not hold", _turns((1, {"seat": 0, "draw": "A", "card": "mermaid"})),
     "history: you took mermaid from a pile 1 time(s), but your hand and table hold 0"),
    ("an opponent took a card placed elsewhere",
     _turns((2, {"seat": 1, "draw": "B", "card": "sailor:orange"})),
     "history: seat 1 took sailor:orange from a pile 1 time(s), but the position leaves "
     "unplaced outside its hand and table 0"),
    ("an opponent played a pair not on its table",
     _turns((2, {"seat": 1, "draw": "B", "card": "penguin:purple",
                 "pairs": ["shark:green+swimmer:black"], "victim": 0})),
     "history: seat 1 played swimmer:black 1 time(s), but seat 1 has 0 on the table"),
    ("a seat plays twice in a row", _turns((1, None)),
     "history turn 2 (seat 1): after seat 1's turn comes seat 0's"),
    ("a take that is not the pile's top", _turns((4, None), (5, None), ("+", [
        {"seat": 1, "draw": "deck", "discard": "shark:green", "onto": "A"},
        {"seat": 0, "draw": "deck", "discard": "octopus:green", "onto": "B"}])),
     "history turn 3 (seat 1): takes colony from pile A, whose top was shark:green (put there "
     "in turn 1)"),
    ("the position's pile top is not the card last put there",
     _turns((5, {"seat": 0, "draw": "deck", "discard": "boat:yellow", "onto": "A"})),
     "pile A: its top is octopus:light_blue in the position, but history turn 6 put boat:yellow"),
    ("a locked turn plays a pair", _turns((0, {"seat": 1, "draw": "locked",
                                               "pairs": ["crab:grey+crab:black"]})),
     "history turn 1 (seat 1): a locked turn only takes the top card of the deck"),
    ("two declarations", _turns((2, {"seat": 1, "draw": "B", "card": "penguin:purple",
                                     "declare": "last_chance"}),
                                (3, {"seat": 0, "draw": "A", "card": "shell:light_blue",
                                     "declare": "stop"})),
     "history turn 4 (seat 0): seat 1 has already declared this round: nobody declares twice"),
]


@pytest.mark.parametrize("name, history, words", IMPOSSIBLE_HISTORIES,
                         ids=[c[0] for c in IMPOSSIBLE_HISTORIES])
def test_a_history_no_round_could_play_is_refused_before_any_deal(monkeypatch, name, history,
                                                                   words):
    """Each is one error naming the turn and the rule (docs/rules.md), raised before a single
    deal is drawn (was: read, and "reading the opponents changes the verdict")."""
    from analyzer.base.errors import SeasaltError
    from analyzer.play import reading

    def no_deals(*args, **kwargs):
        raise AssertionError("a deal was drawn for an impossible history")
    monkeypatch.setattr(reading, "read_tally", no_deals)
    with pytest.raises(SeasaltError) as e:
        advise_read(penguin_position(history=history), samples=500, seed=1,
                    backend=Backend(jobs=1))
    assert str(e.value).startswith(words), str(e.value)
    assert "RULES.md" not in str(e.value).replace("docs/rules.md", "")


def test_the_cli_refuses_an_impossible_history_with_one_error_line(tmp_path):
    """Through the console script, as an impossible position is refused: exit 2, one line."""
    from cli_helpers import cli, one_line
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(penguin_position(history=IMPOSSIBLE_HISTORIES[0][1])))
    one_line(cli("advise", path, "--reading", "baseline", "--samples", "500"),
             "puts down mermaid for the 5th time")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("expansion", ["base", "extra-salt"])
def test_every_history_a_real_round_plays_passes_the_check(players, expansion):
    """No history a round can play is refused: at every decision of seat 0 (played at random
    against baseline) the round's trace so far, checked against the true state as the position,
    passes (rounds with a boat's extra turn are left out: a history cannot write one)."""
    from types import SimpleNamespace
    from analyzer.play.history_rules import check_history
    checked = 0
    for seed in range(25):
        pick = np.random.default_rng(seed)
        r = Round.deal(players, seed=seed, seats=[None] + ["baseline"] * (players - 1),
                       expansion=expansion)
        while not r.done:
            rows = r.tr[1:1 + int(r.tr[0, 0])]
            if not (rows[:, 0] == ev.EXTRA_TURN).any():
                check_history(r.tr, SimpleNamespace(players=players, seat=0, expansion=expansion,
                                                    template=r.s))
                checked += 1
            acts = r.legal()
            r.apply(acts[int(pick.integers(len(acts)))])
    assert checked > 50


# --- which model an opponent plays like --------------------------------------------------------

def _last_reads(opponent: str, seed: int):
    """The Evaluation and trace of seat 0's (baseline) decision with the most opponent turns
    to read in the first round of a 2-player game against `opponent`, as the review sees it."""
    from analyzer.play.advisor import Evaluation
    from analyzer.play.review import _decisions
    from kernels import cards as kc
    pk, pp = policy_arrays(seat_policies(["baseline", opponent], 2))
    deck, full = kc.deck_types("base"), kc.copies_in("base").astype(np.int64)
    decisions, _ = _decisions(2, 0, deck, full, 40, pk, pp, seed)
    dec = max((d for d in decisions if d.round == 1 and d.trace is not None),
              key=lambda d: observations(d.template, d.trace, 0))
    ev = Evaluation(dec.template, dec.pool, dec.unknown, np.zeros((0, 3), np.int64), 0,
                    dec.actions, pk, pp, deck, 40, np.zeros(ks.MAX_PLAYERS, np.int64))
    return ev, dec.trace


def test_an_opponent_is_read_as_the_model_it_plays():
    """The fit of seat 1's choices over a round's turns: played by the expert, the expert takes
    most of the evidence in most games; played by the baseline, the expert takes the least (the
    baseline and tuned, which choose alike here mostly, share the rest). Shares sum to 1, each
    inside its interval, the same on 1 or 2 threads."""
    top = Counter()
    for opponent in ("expert", "baseline"):
        for seed in range(6):
            ev, tr = _last_reads(opponent, seed)
            fit = model_fit(ev, tr, "baseline", 0.05, 1, 4000, 1)
            assert fit == model_fit(ev, tr, "baseline", 0.05, 1, 4000, 2)
            (row,) = fit
            assert row["seat"] == 1 and row["deals"] == min(4000, FIT_DEALS)
            shares = {m["model"].split("(")[0]: m for m in row["models"]}
            assert set(shares) == {"baseline", "tuned2", "expert2"}
            assert sum(m["share"] for m in row["models"]) == pytest.approx(1)
            assert all(m["ci95"][0] <= m["share"] <= m["ci95"][1] for m in row["models"])
            top[opponent, row["models"][0]["model"].split("(")[0] == "expert2"] += 1
            if opponent == "baseline":
                assert row["models"][-1]["model"] == "expert2"
    assert top["expert", True] >= 5 and top["baseline", True] == 0


def test_the_answer_shows_how_each_opponent_reads(tmp_path):
    """`seasalt advise` with reading prints the fit line and puts it in the JSON."""
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(penguin_position()))
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "2000", "--seed", "1"])
    assert r.exit_code == 0 and "seat 1's choices read as: " in r.stdout
    r = CliRunner().invoke(main, ["advise", str(path), "--samples", "2000", "--seed", "1",
                                  "--json"])
    (fit,) = json.loads(r.stdout)["reading"]["fit"]
    assert fit["seat"] == 1 and len(fit["models"]) == 3
