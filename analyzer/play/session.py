"""A game against the bots, decision by decision, for a person or a script: the game behind
`seasalt serve`'s /api/play and the game file that `seasalt replay --game FILE` reads.

    g = Game(players=3, opponents=["baseline", "tuned"], seed=7)
    while not g.over:
        view = g.view()                       # only what the user's seat may know
        g.apply(view["legal"][0]["id"])
    g.game_file()                             # seed, players, every action of the user
    Game.of(RunSpec.build(3, "games", 1, ["baseline", "baseline", "tuned"], 7), seat=0)  # the same

The game is kernels.game's: each round dealt by kernels.game.deal_round (the starter as
docs/rules.md, "A game" says: the seat after the round's ender) and settled by settle_round, every
random draw from one stream, kernels.rng.seed_stream(seed, 0). A round is played through
analyzer.play.decisions.Round with the user's seat external (the engine stops at each of its
decisions); bot seats are asked by the engine itself, search seats (kernels.search) are external too
and answered by analyzer.play.search_seat.SearchSeat on their own stream (the game's seed plus the
round number). The user's actions are the only input, so the same seed, players and actions play the
same game: that is the game file.

The user's view (`Game.view`) is built from what the seat may know (docs/rules.md, "Hidden
information"): its own hand, every table, the piles' tops and sizes, the deck's size, every hand's
size, and the round's events narrated by analyzer.play.replay with the seat as viewer (a card only
another player saw is "a card"). The legal actions are the engine's (kernels.legal: one per distinct
choice, a pair by the copies it plays), in analyzer.play.decisions' words; their words name only
cards the user sees at that decision (the two drawn, the lobster's cards, the pile it searches). """
from __future__ import annotations

import dataclasses
import zlib
from typing import Callable, Sequence

import numpy as np

from kernels import actions as ka
from kernels import cards as kc
from kernels import search as ksr
from kernels import state as ks
from kernels.game import deal_round, settle_round
from kernels.policies import SEARCH
from kernels.rng import seed_stream

from .. import __version__
from ..rules.notation import card_name
from .decisions import DECISION_WORDS, PILE_NAMES, Round
from ..base.errors import SeasaltError
from ..rules.policies import policy_arrays, seat_policies
from .replay import STREAM, game_events, narrate, round_record
from ..render.replay_text import winner_text
from ..runs.spec import ONE_THREAD, Backend, RunSpec
from ..rules.limits import MAX_SEED, check_players, check_seed

YOU = "you"                 # the user's seat in a game file's `policies`
FORMAT = "seasalt game"     # a game file's `format`
MAX_ACTIONS = 20_000        # actions in one game file (a game to 40 takes a few hundred)
MAX_ROUNDS = 200            # a game that goes on longer is stopped (no real game comes near)
ROUND_CAPACITY = 20_000     # trace events of one round
HINT_SAMPLES = 20_000       # sampled deals of a hint: a fraction of a second
MAX_HINT_SAMPLES = 1_000_000
REVIEW_SAMPLES = 2000       # per decision, as `seasalt review`'s default
MAX_REVIEW_SAMPLES = 100_000


def check_seat(seat: object, players: int) -> None:
    """The user's seat: a whole number, a seat of the game."""
    if type(seat) is not int or not 0 <= seat < players:
        raise SeasaltError(f"seat must be a seat of the game, 0 to {players - 1}, got {seat!r}",
                           param="seat")


class Game:
    """One game: the user's seat external, the others bots or search players (module doc)."""

    def __init__(self, players: int = 2, opponents: Sequence[str] | str = ("baseline",),
                 expansion: str = "base", target: int | None = None, seed: int | None = None,
                 seat: int = 0):
        """`opponents`: one spec for every other seat, or one per other seat in seat order.
        A missing seed becomes a fresh one (shown in the view and the game file)."""
        if isinstance(opponents, str):
            opponents = [opponents]
        if not isinstance(opponents, (list, tuple)):
            raise SeasaltError("opponents must be a policy spec or a list of them (one per "
                               "opponent)", param="opponents")
        opponents = list(opponents)
        if type(players) is not int:
            raise SeasaltError(f"players must be a whole number from 2 to 4, got {players!r}",
                               param="players")
        check_players(players)
        for name, value in (("seed", seed), ("target", target)):
            if value is not None and type(value) is not int:
                raise SeasaltError(f"{name} must be a whole number, got {value!r:.40}",
                                   param=name)
        if not isinstance(expansion, str):
            raise SeasaltError(f"expansion must be base or extra-salt, got {expansion!r:.40}",
                               param="expansion")
        check_seat(seat, players)
        if not opponents or not all(isinstance(o, str) for o in opponents):
            raise SeasaltError("opponents must be a policy spec or a list of them (one per "
                               "opponent)", param="opponents")
        if len(opponents) == 1:
            opponents = opponents * (players - 1)
        if len(opponents) != players - 1:
            raise SeasaltError(f"give one opponent for all or one per opponent: got "
                               f"{len(opponents)} for {players - 1}", param="opponents")
        specs = opponents[:seat] + ["baseline"] + opponents[seat:]
        self._begin(RunSpec.build(players, "games", 1, specs, seed, expansion, target), seat)

    @classmethod
    def of(cls, spec: RunSpec, seat: int = 0) -> "Game":
        """The game of a built games spec with the user at `seat` (the spec's policy there is
        not used): its game 0, the game `seasalt replay` shows when a bot plays that seat."""
        check_seat(seat, spec.players)
        game = cls.__new__(cls)
        game._begin(spec, seat)
        return game

    def _begin(self, spec: RunSpec, seat: int) -> None:
        """Seat the players of `spec` (the user at `seat`) and deal the first round."""
        players = spec.players
        self.players, self.seat, self.seed = players, seat, spec.seed
        self.expansion, self.target = spec.expansion, spec.target
        self.policies = [YOU if q == seat else p.spec for q, p in enumerate(spec.policies)]
        self.searchers = {q: p.spec for q, p in enumerate(spec.policies)
                          if q != seat and p.info.kind == SEARCH}
        self.seats: list[str | None] = [None if q == seat or q in self.searchers else p.spec
                                        for q, p in enumerate(spec.policies)]
        self.deck = kc.deck_types(self.expansion)
        self.rng = seed_stream(self.seed, 0)
        self.totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
        self.winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
        self.actions: list[int] = []
        self.decisions: list = []               # the user's, for the review (_remember)
        self.decision_steps: list[int] = []     # the step of each
        self.played: list[int] = []             # the user's and search seats' actions, in order
        self.done_rounds: list[dict] = []       # replay records of the finished rounds
        self.round_no = 0
        self.over = False
        self._starter = 0
        self._running = [0] * players
        self._new_round()

    # -- playing ---------------------------------------------------------------------------
    def _new_round(self, stop: Callable[[], None] | None = None) -> None:
        self.round_no += 1
        s = ks.new_state()
        deal_round(s, self.players, self.deck, self._starter, self.rng)
        self.openings = [card_name(int(s[ks.PILE + j * kc.MAX_DECK])) for j in range(2)]
        self.round = Round(s, self.seats, rng=self.rng, capacity=ROUND_CAPACITY)
        self.starter = self._starter
        self._search = {}
        if self.searchers:
            from .search_seat import SearchSeat
            seed = (self.seed + self.round_no) & MAX_SEED        # a 64-bit stream, wrapped
            self._search = {q: SearchSeat(self.round, q, spec, seed=seed,
                                          totals=self._running, target=self.target)
                            for q, spec in self.searchers.items()}
        self._advance(stop)

    def _advance(self, stop: Callable[[], None] | None = None) -> None:
        """Play the search seats' decisions and the rounds' ends until the user has a decision
        or the game is over; `stop` (a server's) is called before each search decision and
        may raise to end a replay (the game is then dropped, never kept half-played)."""
        while True:
            r = self.round
            while not r.done and r.player != self.seat:
                if stop is not None:
                    stop()
                action, _ = self._search[r.player].decide()
                r.apply(action)
                self.played.append(action)
            if not r.done:
                return
            self._check_capacity()
            ended = settle_round(r.s, self.players, self.target, self.totals, self.winners)
            evs = game_events(r.tr)
            self.done_rounds.append(round_record(self.round_no, self.starter, self.openings,
                                                 evs, self.players, int(self.deck.size) - 2,
                                                 self._running))
            if ended or self.round_no >= MAX_ROUNDS:
                self.over = True
                return
            self._starter = (int(r.s[ks.ENDER]) + 1) % self.players
            self._new_round(stop)

    def _check_capacity(self) -> None:
        if int(self.round.tr[0, 0]) > ROUND_CAPACITY:
            raise RuntimeError(f"a round needed more than {ROUND_CAPACITY:,} trace events")

    def legal(self) -> list[int]:
        """The user's legal actions now, one per distinct choice (a pair by the cards it plays,
        their colours count; a crab's pick by the card, not its place in the pile); empty when
        the game is over."""
        if self.over:
            return []
        return self.round.legal(self.round.s[ks.DEC] == ka.DEC_PLAY)

    def apply(self, action: object, step: object = None,
              stop: Callable[[], None] | None = None) -> None:
        """Play the user's action `action` (an id of the view's `legal`); `step`, when given,
        must be the view's `step` (how many actions were played before it): an action chosen
        on an older view is refused. Nothing changes on a refused action. `stop`: _advance's
        (a replay's only: a game stopped half-way through its opponents' turns is not kept)."""
        from .position_input import quote_value
        if self.over:
            raise SeasaltError("the game is over: no action can be played")
        if step is not None and (type(step) is not int or step != len(self.actions)):
            raise SeasaltError(f"stale action: it was chosen at step {quote_value(step)}, the game is at "
                               f"step {len(self.actions)}; ask for the view again")
        legal = self.legal()
        if type(action) is not int or action not in legal:
            raise SeasaltError(f"action {quote_value(action)} is not one of the legal actions of this "
                               f"{self.round.decision} decision: "
                               + ", ".join(f"{a} ({self.round.describe(a)})" for a in legal))
        before = len(self.decisions)
        self._remember(action)
        try:
            self.round.apply(action)
        except Exception:
            del self.decisions[before:]
            raise
        if len(self.decisions) > before:
            self.decision_steps.append(len(self.actions))
        self.actions.append(action)
        self.played.append(action)
        self._advance(stop)

    # -- what the user sees ----------------------------------------------------------------
    def view(self) -> dict:
        """The user's view (module doc): JSON-ready, nothing the seat may not know."""
        s, q, n = self.round.s, self.seat, self.players
        evs = game_events(self.round.tr) if not self.round.done else []
        texts, table = narrate(evs, n, self.openings, int(self.deck.size) - 2, viewer=q)
        log = [t for t in texts if t]
        mine = [card_name(t) for t in range(kc.NTYPES)
                for _ in range(int(s[ks.HT + q * kc.NTYPES + t]))]
        piles = []
        for j in range(2):
            size = int(s[ks.PILE_LEN + j])
            top = int(s[ks.PILE + j * kc.MAX_DECK + size - 1]) if size else -1
            piles.append({"pile": PILE_NAMES[j], "size": size,
                          "top": card_name(top) if size else None})
        legal = [{"id": a, "words": self.round.describe(a)} for a in self.legal()]
        last = self.done_rounds[-1] if self.done_rounds else None
        out = {
            "seed": self.seed, "players": n, "seat": q, "policies": list(self.policies),
            "expansion": self.expansion, "target": self.target, "version": __version__,
            "step": len(self.actions), "over": self.over,
            "totals": [int(v) for v in self.totals[:n]],
            "winners": [p for p in range(n) if self.winners[p]] if self.over else [],
            "round": self.round_no, "starter": self.starter,
            "turn": None if self.over else {"seat": self.round.player,
                                            "decision": self.round.decision,
                                            "question": DECISION_WORDS[self.round.decision][1]},
            "hand": mine,
            "hand_sizes": [int(v) for v in s[ks.HLEN:ks.HLEN + n]],
            "tables": [[list(g) for g in groups] for groups in table.tables] if not self.over
            else last["tables"],
            "piles": piles, "deck": int(s[ks.DECK_LEN]),
            "log": log,
            "last_round": None if last is None else {
                "round": last["round"], "end": last["end"], "ender": last["ender"],
                "scores": last["scores"], "totals": last["totals"], "hands": last["hands"],
                "log": _public_log(last["events"], n, last["opening_piles"], q,
                                   int(self.deck.size) - 2)},
            "legal": legal,
        }
        if self.over:
            out["result"] = (winner_text(self.record()) if out["winners"] else
                             f"stopped after {MAX_ROUNDS} rounds without a winner")
        return out

    def snapshot(self) -> "Game":
        """A copy that later actions on this game do not change (a hint runs on one)."""
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.round = self.round.copy()
        other.rng = other.round.rng         # one stream, the round's (copied): new deals too
        other._search = {q: seat.copy(other.round) for q, seat in self._search.items()}
        other.done_rounds, other._running = list(self.done_rounds), list(self._running)
        other.totals, other.winners = self.totals.copy(), self.winners.copy()
        other.actions = list(self.actions)
        other.decisions, other.decision_steps = list(self.decisions), list(self.decision_steps)
        other.played = list(self.played)
        return other

    # -- the advisor's hint ----------------------------------------------------------------
    def knowledge(self) -> np.ndarray:
        """What the user's seat knows of the round now (kernels.search's knowledge array, read
        from the round's trace since its deal: docs/rules.md, "Hidden information")."""
        r = self.round
        know = np.zeros(ksr.K_SIZE, dtype=np.int64)
        know[ksr.K_PLEN:ksr.K_PLEN + 2] = r.start_piles
        know[ksr.K_CURSOR] = 1
        ksr.update_knowledge(know, self.seat, r.tr)
        if int(r.s[ks.DEC]) == ka.DEC_CRAB_CARD:
            know[ksr.K_DEPTH + int(r.s[ks.CRAB_PILE])] = 0      # it looks through the pile
        return know

    def marked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """The user's decision as the seat sees it: the state with every card it cannot place
        blanked (kernels.search.mark_known), those cards, each hidden hand's unknown count, and
        the actions the advisor weighs (analyzer.play.position.decision_actions)."""
        from .position import decision_actions
        s = self.round.s
        view = ks.new_state()
        w = np.zeros(ksr.W_INT, dtype=np.int64)
        m = int(ksr.mark_known(view, s, self.knowledge(), self.seat,
                               ks.card_census(s).astype(np.int64), w))
        actions = decision_actions(view, s[ks.HLEN:ks.HLEN + ks.MAX_PLAYERS].astype(np.int64))
        return (view, w[ksr.W_POOL:ksr.W_POOL + m].copy(),
                w[ksr.W_UNK:ksr.W_UNK + ks.MAX_PLAYERS].copy(), actions)

    def models(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """The players the advisor plays on with: each opponent's own bot (a search seat: the
        expert, distilled from the search, since only compiled bots continue a deal), the user
        baseline."""
        models = [("expert" if q in self.searchers else p) if p != YOU else "baseline"
                  for q, p in enumerate(self.policies)]
        pk, pp = policy_arrays(seat_policies(models, self.players))
        return models, pk, pp

    def _remember(self, action: int) -> None:
        """Keep the user's decision (2+ legal actions) as the seat saw it, for the review."""
        from .review import ReviewedDecision, trace_so_far
        if len(self.legal()) < 2:
            return
        view, pool, unknown, actions = self.marked()
        kind = int(view[ks.DEC])
        if kind == ka.DEC_PLAY:          # the advisor weighs a pair by its kinds, not copies
            chosen = next(a for a in actions if a & ka.BASE_MASK == action & ka.BASE_MASK)
        else:
            chosen = action
            if chosen not in actions:   # a crab search of a pile whose cards it remembers
                actions = actions + [chosen]
        if len(actions) < 2:
            return
        self.decisions.append(_packed(ReviewedDecision(
            self.round_no, int(self.round.s[ks.TURNS]) + 1,
            [int(v) for v in self.totals[:self.players]], kind, chosen, view, pool, unknown,
            actions, trace_so_far(self.round.tr))))

    def review(self, samples: int = REVIEW_SAMPLES, seed: int | None = None,
               backend: Backend = ONE_THREAD, stop: Callable[[], None] | None = None,
               reading: str = "own", tremble: float | None = None) -> dict:
        """The review of the user's decisions so far (analyzer.play.review's, from the seat's own
        knowledge at each: the advisor's choice, the loss of the choice made with its 95%
        interval, the costliest first in `summary`, and with `reading` the choice reading the
        opponents' hands, as analyzer.play.review.run's), each with the `step` of the game it was
        taken at; its samples on `backend` (default one thread: the server's)."""
        from ..rules.limits import check_review
        from ..rules.policies import reading_models
        from .luck import flat
        from .review import review_caveat, review_rows, review_summary, scale_of
        check_review(self.players, self.seat, samples if type(samples) is int else -1)
        if samples > MAX_REVIEW_SAMPLES:
            raise SeasaltError(f"samples must be at most {MAX_REVIEW_SAMPLES:,} here, got "
                               f"{samples:,}", param="samples")
        seed = self.seed if seed is None else _seed(seed)
        _, pk, pp = self.models()
        models, about, tremble = reading_models(reading, tremble, pk, pp, self.players)
        rows, cells = review_rows([_unpacked(d) for d in self.decisions], self.seat, pk, pp,
                                  self.deck, self.target, samples, seed, backend, stop=stop,
                                  reading=models, tremble=tremble)
        for row, step in zip(rows, self.decision_steps):
            row["step"] = step
        luck = self.luck(samples, seed, stop) if self.over else None
        summary = {**review_summary(rows, cells), **(flat(luck) if luck else {})}
        return {"seed": seed, "players": self.players, "policies": list(self.policies),
                "seat": self.seat, "expansion": self.expansion, "target": self.target,
                "samples": samples, "version": __version__, "over": self.over,
                "stream": "decision t, deal i: kernels.rng.seed_stream(seed, t * 2**32 + i)",
                "rounds_played": len(self.done_rounds),
                "mermaid_win": self.record()["mermaid_win"],
                "totals": [int(v) for v in self.totals[:self.players]],
                "replay": "seasalt replay --game FILE", "reading": about,
                "calibration": review_caveat(self.players, self.seat, list(self.policies),
                                             about is not None),
                "decisions": rows, "summary": summary, "luck": luck,
                "scale": scale_of(summary, "baseline")}

    def luck(self, samples: int, seed: int, stop: Callable[[], None] | None = None) -> dict:
        """The user's luck and skill over the finished game (analyzer.play.luck: the game walked
        again from its seed and the actions played from outside the engine), on the advisor's
        models (the opponents' own bots, a search seat's the expert; the user the baseline)."""
        from ..studies.referee import Valuer, walk
        from .luck import decompose, start_value
        names, pk, pp = self.models()
        bots = policy_arrays(seat_policies([p or "baseline" for p in self.seats], self.players))
        moves = iter(self.played)
        points, after, winners, _ = walk(self.players, self.deck, self.target, *bots, self.seed,
                                         lambda s, q: next(moves), {self.seat, *self.searchers},
                                         MAX_ROUNDS)
        if winners != [q for q in range(self.players) if self.winners[q]]:
            raise RuntimeError("the game walked for its luck differs from the game played")
        start = start_value(self.players, names, self.seat, self.expansion, self.target, seed,
                            ONE_THREAD)
        return decompose(points, after, winners == [self.seat], start,
                         Valuer(self.seat, pk, pp, self.deck, self.target, samples, seed), pk,
                         pp, seed, stop=stop)

    def hint(self, samples: int = HINT_SAMPLES, seed: int | None = None,
             stop: Callable[[], None] | None = None) -> dict:
        """The advisor at the user's decision, from the seat's own knowledge only (the true
        state with every card it cannot place blanked: kernels.search.mark_known, as `seasalt
        review` asks it): every action's P(win game) with its 95% interval and `vs_best`, the
        recommendation, and for each option the ids of the view's legal actions it stands for.
        The opponents are modelled by their own bots (a search seat by the expert), the user by
        baseline. `seed` (default: the game's seed plus the step) makes the answer repeatable."""
        from .advisor import Evaluation, judge, summarize, tally_deals
        if self.over:
            raise SeasaltError("the game is over: there is no decision to hint at")
        if type(samples) is not int or not 2 <= samples <= MAX_HINT_SAMPLES:
            raise SeasaltError(f"samples must be a whole number from 2 to {MAX_HINT_SAMPLES:,}, "
                               f"got {samples!r}", param="samples")
        seed = (self.seed + len(self.actions)) & MAX_SEED if seed is None else _seed(seed)
        q, n = self.seat, self.players
        view, pool, unknown, actions = self.marked()
        models, pk, pp = self.models()
        ev = Evaluation(view, pool, unknown, np.zeros((0, 3), np.int64), q, actions, pk, pp,
                        self.deck, self.target, self.totals.copy())
        legal = self.legal()
        out = {"step": len(self.actions), "decision": self.round.decision, "samples": samples,
               "seed": seed, "models": {"you": "baseline", "opponents": [
                   models[p] for p in range(n) if p != q]}}
        if len(actions) < 2:
            tally, _ = tally_deals(ev, 2, None, seed, ONE_THREAD, stop=stop)
            options = summarize(tally, view, actions)
            best = next(iter(options))
            out.update(recommendation=best, reason="the only choice", options=options,
                       distinguishable=False)
        else:
            tally, _ = tally_deals(ev, samples, None, seed, ONE_THREAD, stop=stop)
            verdict = judge(tally, view, actions)
            options, best = verdict.options, verdict.best
            out.update(recommendation=best, reason=verdict.reason, options=options,
                       explanation=verdict.explanation,
                       distinguishable=verdict.distinguishable, ranking=verdict.ranking)
        for o in options.values():
            o["ids"] = [a for a in legal if covers(int(view[ks.DEC]), o["action"], a)]
        return out

    # -- the game file and the replay ------------------------------------------------------
    def game_file(self) -> dict:
        """The game as a file: enough to play it again (`Game.from_file`), and its result."""
        return {"format": FORMAT, "version": __version__, "seed": self.seed,
                "players": self.players, "seat": self.seat, "policies": list(self.policies),
                "expansion": self.expansion, "target": self.target,
                "actions": list(self.actions), "over": self.over,
                "totals": [int(v) for v in self.totals[:self.players]]}

    @classmethod
    def from_file(cls, obj: object, source: str = "game file",
                  stop: Callable[[], None] | None = None) -> "Game":
        """The game of a game file, played again from its seed and actions; a file whose
        recorded totals or end differ from the replayed game's is refused (an edited file, or
        another seasalt version's engine). `stop` (a server's: the client gone, a time limit)
        is called before every action and every search decision and may raise to end it."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise SeasaltError(f"{source}: not a seasalt game file (its \"format\" must be "
                               f"{FORMAT!r}; download it from `seasalt serve`'s Play view)")
        for key in ("seed", "players", "seat", "policies", "expansion", "target", "actions"):
            if key not in obj:
                raise SeasaltError(f"{source}: missing key {key!r}")
        pols, seat, actions = obj["policies"], obj["seat"], obj["actions"]
        if not isinstance(pols, list) or type(seat) is not int or not 0 <= seat < len(pols) \
                or pols[seat] != YOU:
            raise SeasaltError(f"{source}: \"policies\" must list every seat's player, with "
                               f"{YOU!r} at the user's \"seat\"")
        if not isinstance(actions, list) or len(actions) > MAX_ACTIONS or \
                not all(type(a) is int for a in actions):
            raise SeasaltError(f"{source}: \"actions\" must be a list of at most {MAX_ACTIONS:,} "
                               f"action ids (whole numbers)")
        if type(obj["seed"]) is not int:
            raise SeasaltError(f"{source}: \"seed\" must be a whole number")
        game = cls(obj["players"], [p for q, p in enumerate(pols) if q != seat],
                   obj["expansion"], obj["target"], obj["seed"], seat)
        for i, a in enumerate(actions):
            if stop is not None:
                stop()
            try:
                game.apply(a, stop=stop)
            except SeasaltError as e:
                raise SeasaltError(f"{source}: action {i + 1} of {len(actions)}: {e}") from None
        if "totals" in obj and obj["totals"] != game.game_file()["totals"]:
            raise SeasaltError(f"{source}: its totals {obj['totals']!r} differ from the game its "
                               f"seed and actions play here ({game.game_file()['totals']})")
        return game

    def at(self, step: object, stop: Callable[[], None] | None = None) -> "Game":
        """The game as it stood before the user's action number `step` + 1 (after `step`
        actions): played again from the seed (a review links its decisions back to them);
        `stop` as from_file's."""
        if type(step) is not int or not 0 <= step <= len(self.actions):
            raise SeasaltError(f"step must be a whole number from 0 to {len(self.actions)}, "
                               f"got {step!r}")
        f = self.game_file()
        del f["totals"]
        return Game.from_file({**f, "actions": f["actions"][:step]}, stop=stop)

    def record(self) -> dict:
        """The rounds played in the shape of analyzer.play.replay.replay() (format_replay prints
        it; omniscient, as every replay is): the finished ones, and in a game not over the round
        in play so far (no end, no scores; `over` false)."""
        n = self.players
        rounds = list(self.done_rounds)
        if not self.over:
            rounds.append(round_record(self.round_no, self.starter, self.openings,
                                       game_events(self.round.tr), n, int(self.deck.size) - 2,
                                       list(self._running)))
        return {
            "seed": self.seed, "stream": STREAM, "players": n,
            "policies": list(self.policies), "expansion": self.expansion, "target": self.target,
            "version": __version__, "rounds_played": len(self.done_rounds),
            "mermaid_win": bool(self.done_rounds and self.done_rounds[-1]["end"] == "mermaids"
                                and self.over),
            "totals": [int(v) for v in self.totals[:n]],
            "winners": [p for p in range(n) if self.winners[p]],
            "opening_piles_known": True, "actions": list(self.actions), "over": self.over,
            "rounds": rounds,
        }


def _packed(d):
    """A kept decision (analyzer.play.review.ReviewedDecision) with its state and trace arrays
    compressed: the bulk of a kept game's memory, a twentieth of it packed (docs/advisor.md)."""
    pack = lambda a: (zlib.compress(a.tobytes(), 1), a.dtype.str, a.shape)    # noqa: E731
    return dataclasses.replace(d, template=pack(d.template), pool=pack(d.pool),
                               trace=pack(d.trace))


def _unpacked(d):
    """The decision of _packed as it was."""
    unpack = lambda p: np.frombuffer(zlib.decompress(p[0]), p[1]).reshape(p[2]).copy()  # noqa
    return dataclasses.replace(d, template=unpack(d.template), pool=unpack(d.pool),
                               trace=unpack(d.trace))


def _seed(seed: object) -> int:
    """A hint's or review's seed: a whole number from 0 to 2**64-1 (as every run's)."""
    if type(seed) is not int:
        raise SeasaltError(f"seed must be a whole number, got {seed!r:.40}", param="seed")
    return check_seed(seed)


def covers(kind: int, option: int, action: int) -> bool:
    """The advisor's option (kernels.legal without copies, or a crab pick named at once) stands
    for the user's legal action: the same action, a pair of the same kinds whichever copies
    it plays, or the search of the pile whose card the option names."""
    if kind == ka.DEC_PLAY:
        return option & ka.BASE_MASK == action & ka.BASE_MASK
    if kind == ka.DEC_CRAB_PILE and option >= 2:
        return action == (option - 2) & 1
    return option == action




def load_game(path: str) -> Game:
    """The game of a game file (Game.from_file), read from `path` (position_input's
    read_game_file: at most its GAME_FILE_BYTES)."""
    from .position_input import read_game_file
    return Game.from_file(read_game_file(path), path)


def _public_log(evs: list[dict], players: int, piles: list, viewer: int, deck: int) -> list[str]:
    """A finished round's events narrated for `viewer` (cards others saw alone hidden); `deck`
    is the deck's size after the deal."""
    return [t for t in narrate(evs, players, piles, deck, viewer)[0] if t]
