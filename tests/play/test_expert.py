"""The expert (kernels/expert.py, analyzer/rules/expert.py, analyzer/studies/train.py): it plays
only legal actions and keeps every card, sees only what its seat sees, its features are what
its score reads, the search can roll out with it, its weights are named in every run that uses
them, and training gives the same weights for a seed whatever the threads."""
import json
import random

import numpy as np
import pytest

from analyzer.play.decisions import Round
from analyzer.rules import expert as rex
from analyzer.rules.policies import expert_meta, parse_policy, rollout_arrays
from analyzer.rules.setups import check_random_rounds
from analyzer.studies.simulate import simulate_games
from analyzer.studies.train import TrainSpec, run as train
from kernels import cards as kc
from kernels import expert as ke
from kernels import policies as kp
from kernels import state as ks
from kernels.scoring import refresh_points

from test_search import _mid_round, _other_deal  # noqa: E402 (tests/play is on the path)

ES = "extra-salt"


@pytest.mark.parametrize("players,expansion", [(2, "base"), (2, ES), (3, ES), (4, "base")])
def test_the_expert_plays_only_legal_actions_and_keeps_every_card(players, expansion):
    """The expert in every seat: every invariant checked after every event (the engine's check
    mode), rounds end as the rules allow, and it declares, plays pairs and takes pile cards."""
    ends = check_random_rounds(players, 300, seed=players, expansion=expansion,
                               policies=["expert"])
    assert sum(ends[k] for k in ("stop", "last_chance_won", "last_chance_lost", "void",
                                 "mermaids")) == 300
    for e in ("declare", "pair", "take_pile", "fish_draw", "crab_take"):
        assert ends[f"events:{e}"] > 0, e


def test_the_expert_does_not_move_when_what_the_seat_cannot_see_changes():
    """docs/rules.md, "Hidden information": the same action and the same score for every legal
    action when the opponents' hidden hands and the deck's order are another deal consistent
    with what its seat saw; a card of its own hand changed moves the scores (the control)."""
    w = rex.weights(2)
    compared = moved = 0
    for seed in range(40):
        r = _mid_round(2 + seed % 3, 300 + seed)
        if r is None:
            continue
        other = _other_deal(r, seed)
        if (other.s[:ks.STATE_CORE] == r.s[:ks.STATE_CORE]).all():
            continue
        wp = rex.weights(int(r.s[ks.NPLAYERS]))
        legal = r.legal(copies=False)
        scores = [ke.action_score(r.s, 0, a, wp) for a in legal]
        assert [ke.action_score(other.s, 0, a, wp) for a in legal] == scores
        assert ke.expert_action(r.s, wp) == ke.expert_action(other.s, wp)
        compared += 1
        mine = r.copy()
        s = mine.s
        t = next(t for t in range(kc.NTYPES) if s[ks.HT + t] > 0)
        i = next(i for i in range(int(s[ks.DECK_LEN]) - 2) if int(s[ks.DECK + i]) != t)
        u = int(s[ks.DECK + i])
        ks.lose_card(s, 0, t)
        ks.gain_card(s, 0, u)
        s[ks.DECK + i] = t
        refresh_points(s, int(s[ks.NPLAYERS]))
        if mine.legal(copies=False) == legal:
            moved += [ke.action_score(s, 0, a, wp) for a in legal] != scores
    assert w.shape == (ke.E_SIZE,)
    assert compared >= 15 and moved >= compared // 3


def test_an_actions_features_are_its_score_under_unit_weights():
    """The score is linear in the weights: for random weights it equals features . weights at
    every kind of decision met (what training fits is what the player reads)."""
    rng = np.random.default_rng(1)
    pick = random.Random(1)
    unit = np.zeros(ke.E_SIZE)
    out = np.zeros(ke.E_SIZE)
    kinds = set()
    for seed in range(12):
        r = Round.deal(2 + seed % 3, seed=seed, expansion=ES if seed % 2 else "base",
                       seats=[None] + ["baseline"] * (1 + seed % 3))
        while not r.done:
            legal = r.legal(copies=False)
            if r.decision != "crab_pile":
                w = rng.normal(size=ke.E_SIZE)
                for a in legal:
                    ke.features(r.s, 0, a, unit, out)
                    assert ke.action_score(r.s, 0, a, w) == pytest.approx(float(out @ w),
                                                                          abs=1e-9)
                kinds.add(r.decision)
            r.apply(pick.choice(legal))
    assert {"draw", "keep", "play"} <= kinds


def test_search_expert_rolls_out_and_models_with_the_expert():
    """search_expert's rollout players are the expert of the player count, with its weights."""
    pols = [parse_policy("search_expert"), parse_policy("baseline")]
    rpk, rpp = rollout_arrays(pols)
    assert (rpk[0] == kp.EXPERT).all()
    assert (rpp[0, :, :ke.E_SIZE] == rex.weights(2)).all()
    plain = rollout_arrays([parse_policy("search"), parse_policy("baseline")])[0]
    assert (plain[0] != kp.EXPERT).all()


def test_a_run_with_the_expert_names_its_weights():
    """Runs where a player uses the expert carry the weights file's hash; others do not."""
    with_expert = simulate_games(2, 8, ["expert", "baseline"], seed=1)
    assert with_expert["expert_weights"] == rex.weights_hash()
    assert "expert_weights" not in simulate_games(2, 8, ["baseline"], seed=1)
    assert expert_meta([parse_policy("search(model_expert=1)")]) == {
        "expert_weights": rex.weights_hash()}


def test_the_shipped_weights_are_the_train_commands_and_fit_the_kernel():
    """The shipped file holds a vector per player count of the kernel's size, and records the
    command and spec that made it, the spec being `seasalt train`'s defaults."""
    data = rex.weights_file()
    assert sorted(data["players"]) == ["2", "3", "4"]
    assert data["size"] == ke.E_SIZE
    spec = {k: v for k, v in TrainSpec().__dict__.items() if k != "jobs"}
    spec["players"] = list(spec["players"])
    assert data["spec"] == spec
    assert data["command"].startswith("seasalt train --players 2,3,4 --generations")


def test_training_gives_the_same_weights_whatever_the_threads():
    """A small training (2 players, 2 generations) on 1 and on 2 threads: the same file, byte
    for byte, and a weights file the loader accepts."""
    small = dict(players=(2,), generations=2, games=16, samples=4, eval_games=64, seed=5)
    one, gens = train(TrainSpec(jobs=1, **small), "test")
    two, _ = train(TrainSpec(jobs=2, **small), "test")
    assert one == two
    data = json.loads(one)
    assert len(data["players"]["2"]) == ke.E_SIZE and len(gens[2]) == 2
    assert data["generations"]["2"][1]["win_rate_vs_previous"] is not None


def test_the_advisor_answers_every_decision_kind_with_expert_models(tmp_path):
    """`seasalt advise FILE --opponent expert --me expert` at each kind of decision: an answer
    naming the expert's weights, and where the position has a clear answer by construction (the
    fourth mermaid to take, the only opponent worth stealing from, the mermaid to keep) that
    answer, whoever plays on."""
    from click.testing import CliRunner
    from analyzer.faces.cli import main
    from test_advisor_decisions import CRAB_PILE, LOBSTER, STEAL, THREE, _every_kind
    clear = {"steal_from_2": STEAL, "take_mermaid": CRAB_PILE, "keep_mermaid": LOBSTER}
    kinds = set()
    for i, pos in enumerate(_every_kind()):
        path = tmp_path / f"p{i}.json"
        path.write_text(json.dumps(pos))
        r = CliRunner().invoke(main, ["advise", str(path), "--opponent", "expert", "--me",
                                      "expert", "--samples", "400", "--seed", "1", "--json"])
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        kinds.add(out["decision"])
        assert out["expert_weights"] == rex.weights_hash()
        assert out["opponent"].startswith("expert") and out["me_policy"].startswith("expert")
        answer = next((a for a, p in clear.items() if p is pos), None)
        if out["decision"] == "draw" and pos["hand"][:3] == THREE:
            answer = "pile_A"                           # the fourth mermaid on pile A
        if answer:
            assert out["recommendation"] == answer, (out["decision"], out["recommendation"])
    assert kinds >= {"draw", "keep", "play", "victim", "crab_pile", "crab_card", "lobster"}
