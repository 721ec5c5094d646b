"""One game, action by action, as a human reads it: `seasalt replay --seed S --players P`.

The game is `kernels.game.play_game` with a trace buffer, played on the random stream
`kernels.rng.seed_stream(seed, 0)`. That is the stream of block 0 of a batch run, and a batch
block starts with its first game, so the replayed game is game 0 of `simulate --games N --seed S`
(and of `simulate_games`) with the same players, policies, expansion and target.

The trace holds the whole game, played once: each round starts with its deal event (the starter
and the cards flipped to start piles A and B), then every action.

The replay is omniscient: it shows every card, including those only one player saw (the card
kept from a deck draw, a crab's pick, a stolen card, ...); those are written in [brackets].
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from kernels import cards as kc
from kernels import events as ev
from kernels import state as ks
from kernels.game import GS_SIZE, play_game
from kernels.actions import DEC_NAMES
from kernels import search as ksr
from kernels.rng import seed_stream

from .. import __version__
from ..rules.notation import card_name
from ..base.errors import SeasaltError
from ..rules.policies import expert_meta, policy_arrays, rollout_arrays
from .game_spec import ReplaySpec
from .search_seat import logged_decisions

STREAM = "kernels.rng.seed_stream(seed, 0)"
FIRST_CAPACITY = 100_000
MAX_CAPACITY = 5_000_000
LOG_CAPACITY = 200_000      # actions weighed by search seats in one game
PILES = "AB"
# what a pair is played for, in words, by its kinds (kernels.cards PAIRS)
PAIR_EFFECT = {frozenset([k1, k2]): {"crab_lobster": "crab+lobster", "swimmer_shark": "steal",
                                     "swimmer_jellyfish": "lock"}.get(effect, effect)
               for effect, k1, k2 in kc.PAIRS}
END_TEXT = {"stop": "STOP", "last_chance_won": "LAST CHANCE won", "last_chance_lost": "LAST CHANCE lost",
            "void": "void round", "mermaids": "four mermaids"}


class TraceOverflow(SeasaltError):
    """The game needed more trace rows than the buffer holds."""


def game_events(tr: np.ndarray) -> list[dict]:
    n = int(tr[0, 0])
    out = []
    for code, p, *vals in tr[1:n + 1].tolist():
        name, fields = ev.EVENT_FIELDS[code]
        e = {"event": name, "seat": p}
        for field, v in zip(fields, vals):
            if not field:
                continue
            if field in ("card", "card2", "other", "starfish"):
                e[field] = card_name(v) if v >= 0 else None
            elif field == "end":
                e[field] = ks.END_NAMES[v]
            else:
                e[field] = v
        out.append(e)
    return out


def traced_game(players, deck, target, pk, pp, seed, capacity):
    s = ks.new_state()
    tr = np.zeros((capacity + 1, 5), dtype=np.int32)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    rounds, mermaids = play_game(s, players, deck, target, pk, pp, seed_stream(seed, 0), tr,
                                 totals, winners, np.zeros(GS_SIZE, dtype=np.int64))
    return tr, int(rounds), bool(mermaids), totals[:players].tolist(), winners[:players].tolist()


def chosen_actions(log: np.ndarray) -> list[int]:
    """The actions the search seats chose, in the game's order, from a decision log
    (kernels.search.LOG_WIDTH rows: each weighed action, the chosen one flagged); a decision
    with one legal action is not weighed, so not logged."""
    return [int(row[2]) for row in log[1:int(log[0, 0]) + 1] if row[6]]


def play_search(players, deck, target, pk, pp, rpk, rpp, seed, capacity):
    """traced_game with search seats (kernels.search.play_game_search, as in block 0 of a
    `simulate --games` run with them): also the decision log."""
    s = ks.new_state()
    tr = np.zeros((capacity + 1, 5), dtype=np.int32)
    totals = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    winners = np.zeros(ks.MAX_PLAYERS, dtype=np.int64)
    know = np.zeros((ks.MAX_PLAYERS, ksr.K_SIZE), dtype=np.int64)
    full = np.bincount(deck, minlength=kc.NTYPES).astype(np.int64)
    tables = np.zeros((ks.MAX_PLAYERS, ks.MAX_PLAYERS, ksr.TABLE_ROUNDS, ksr.T_WIDTH), np.int32)
    srng = np.zeros((ks.MAX_PLAYERS, 4), dtype=np.uint64)
    d, x, w, f, rrng = ksr.workspace(players)
    tr0 = np.zeros((0, 5), dtype=np.int32)
    ksr.seed_search(srng, tables, x, players, deck, pk, rpk, rpp, np.uint64(seed), 0, tr0)
    log = np.zeros((LOG_CAPACITY, ksr.LOG_WIDTH), dtype=np.float64)
    rounds, mermaids = ksr.play_game_search(
        s, players, deck, target, pk, pp, rpk, rpp, seed_stream(seed, 0), srng, tr, know, full,
        tables, totals, winners, np.zeros(GS_SIZE, dtype=np.int64), d, x, w, f, rrng, log, False)
    return (tr, int(rounds), bool(mermaids), totals[:players].tolist(),
            winners[:players].tolist(), log)


def replay(seed: int, players: int, policies: Sequence[str] = ("baseline",),
           expansion: str = "base", target: int | None = None,
           capacity: int | None = None) -> dict:
    """Play one game traced and return it round by round (JSON-ready). `capacity` is the trace
    size in events; None grows it as needed (up to MAX_CAPACITY), an explicit value raises
    TraceOverflow (a SeasaltError) if the game needs more."""
    return run(ReplaySpec.build(players, policies, seed, expansion, target, capacity))


def run(rs: ReplaySpec) -> dict:
    """replay() of a built spec: its game's game 0 (the first game of a run of it, whatever its
    count)."""
    spec, capacity = rs.game, rs.capacity
    players, seed, expansion, target = spec.players, spec.seed, spec.expansion, spec.target
    pols = list(spec.policies)
    pk, pp = policy_arrays(pols)
    deck = kc.deck_types(expansion)
    rpk, rpp = rollout_arrays(pols)
    cap = FIRST_CAPACITY if capacity is None else capacity
    while True:
        if rpk is None:
            tr, nrounds, mermaids, totals, winners = traced_game(players, deck, target, pk, pp, seed, cap)
        else:
            tr, nrounds, mermaids, totals, winners, log = play_search(
                players, deck, target, pk, pp, rpk, rpp, seed, cap)
            if int(log[0, 0]) >= LOG_CAPACITY:
                raise TraceOverflow(f"the game has more than {LOG_CAPACITY:,} weighed actions; "
                                    f"replay a shorter game (a lower --target)")
        needed = int(tr[0, 0])
        if needed <= cap:
            break
        if capacity is not None or needed > MAX_CAPACITY:
            raise TraceOverflow(f"the game needs {needed:,} trace events, more than the trace "
                                f"capacity of {(capacity or MAX_CAPACITY):,}; replay a shorter game "
                                f"(a lower --target)")
        cap = needed            # the same seed plays the same game: exactly this many events
    weighed = {} if rpk is None else _weighed_by_event(log)
    out_rounds = []
    running = [0] * players
    for i, (deal, first, evs) in enumerate(split_rounds(game_events(tr))):
        if i >= nrounds or not evs or evs[-1]["event"] != "round_end":
            raise RuntimeError("trace does not split into the game's rounds")
        decisions = [dict(dec, before_event=k - first) for k in range(first, first + len(evs))
                     for dec in weighed.get(k, [])]
        out_rounds.append(round_record(i + 1, deal["seat"], [deal["card"], deal["card2"]], evs,
                                       players, deal["deck"], running,
                                       decisions if rpk is not None else None))
    if len(out_rounds) != nrounds:
        raise RuntimeError("trace does not split into the game's rounds")
    if running != totals:
        raise RuntimeError(f"round scores add up to {running}, play_game says {totals}")
    return {
        "seed": seed, "stream": STREAM, "players": players,
        "policies": [p.spec for p in pols], "expansion": expansion, "target": target,
        "version": __version__, **expert_meta(pols), "rounds_played": nrounds, "mermaid_win": mermaids,
        "totals": totals, "winners": [q for q in range(players) if winners[q]],
        "opening_piles_known": True,
        "rounds": out_rounds,
    }


def split_rounds(events: list[dict]) -> list[tuple[dict, int, list[dict]]]:
    """A game's events (game_events) round by round: (its deal event, the index in `events` of
    its first event after the deal, those events up to its round_end)."""
    out = []
    for i, e in enumerate(events):
        if e["event"] == "deal":
            out.append((e, i + 1, []))
        elif not out:
            raise RuntimeError("the trace does not start with a deal")
        else:
            out[-1][2].append(e)
    return out


def round_record(number: int, starter: int, piles: list, evs: list[dict], players: int,
                 deck: int, running: list[int], decisions: list | None = None) -> dict:
    """One round of a replay (JSON-ready): its events (each given its `text`), scores, the
    running totals (`running` is updated in place), the final hands and tables. `deck` is the
    deck's size after the deal; `decisions` the search seats' weighed actions, if any. A round
    still in play (a game file saved mid-game) has its events so far, no end and no scores."""
    texts, table = narrate(evs, players, piles, deck)
    for e, t in zip(evs, texts):
        e["text"] = t
    end = evs[-1] if evs and evs[-1]["event"] == "round_end" else {"end": None, "ender": None}
    scores = [{"seat": e["seat"], "points": e["points"], "card_points": e["card_points"],
               "colour_bonus": e["bonus"]} for e in evs if e["event"] == "score"]
    for sc in scores:
        running[sc["seat"]] += sc["points"]
    return {
        "round": number, "starter": starter, "opening_piles": piles,
        **({"search_decisions": decisions} if decisions is not None else {}),
        "deck": deck, "end": end["end"], "ender": end["ender"],
        "scores": scores, "totals": list(running),
        "hands": [sorted(table.hands[q].elements()) for q in range(players)],
        "tables": [[list(g) for g in groups] for groups in table.tables],
        "events": evs,
    }


def _weighed_by_event(log: np.ndarray) -> dict[int, list[dict]]:
    """The search decisions of a decision log grouped by the index of the event that follows
    them in the game's trace: {event index: [{seat, decision, options: [...]}, ...]}."""
    out: dict[int, list[dict]] = {}
    rows = logged_decisions(log)
    i = 0
    while i < len(rows):            # one decision: consecutive rows of one event and kind
        j = i + 1
        while j < len(rows) and (rows[j]["event"], rows[j]["decision"]) == \
                (rows[i]["event"], rows[i]["decision"]):
            j += 1
        group = rows[i:j]
        decision = {"seat": group[0]["seat"], "decision": DEC_NAMES[group[0]["decision"]],
                    "options": [{k: r[k] for k in ("words", "value", "se", "deals", "chosen",
                                                    "rollout_choice")} for r in group]}
        if "ess" in group[0]:           # search(read=1): the effective sample size of its deals
            decision["ess"] = group[0]["ess"]
        out.setdefault(group[0]["event"], []).append(decision)
        i = j
    return out


# ---------------------------------------------------------------------------------------------
# narration

def _cards(counter: Counter) -> str:
    items = sorted(counter.elements())
    return ", ".join(items) if items else "(none)"


class _Table:
    """Who holds what during a round, rebuilt from the events."""

    def __init__(self, players: int, piles: list | None, deck: int):
        self.hands = [Counter() for _ in range(players)]
        self.tables: list[list[list[str]]] = [[] for _ in range(players)]   # groups played
        self.piles = [[piles[0]], [piles[1]]] if piles else [["?"], ["?"]]
        self.deck = deck
        self.lock = -1

    def pile_text(self, j: int) -> str:
        p = self.piles[j]
        if not p:
            return f"{PILES[j]} empty"
        return f"{PILES[j]} {p[-1]}" + (f" (+{len(p) - 1} below)" if len(p) > 1 else "")

    def take_from_pile(self, j: int, card: str) -> None:
        p = self.piles[j]
        for i in range(len(p) - 1, -1, -1):
            if p[i] == card:
                del p[i]
                return
        if "?" in p:                      # an opening card not given (narrate without piles)
            p.remove("?")

    def state(self) -> str:
        return f"deck {self.deck} | {self.pile_text(0)} | {self.pile_text(1)}"


def narrate(evs: list[dict], players: int, piles: list | None, deck: int,
             viewer: int | None = None) -> tuple[list[str], _Table]:
    """One phrase per event (empty for the bookkeeping ones), tracking hands, piles and deck;
    returns the phrases and the final hands, tables and piles. With a `viewer` seat, a card only its
    holder saw is named only if the viewer saw it (docs/rules.md, "Hidden information": its own
    draws, picks and lobster card, a steal it made or suffered); otherwise it is "a card"."""
    t = _Table(players, piles, deck)

    def _b(card: str | None, *seen_by: int) -> str:
        return f"[{card}]" if viewer is None or viewer in seen_by else "a card"
    texts = []
    for e in evs:
        name, p = e["event"], e["seat"]
        text = ""
        if name == "turn":
            flags = []
            if e["locked"]:
                flags.append(f"locked by seat {t.lock}'s jellyfish")
            if e["final"]:
                flags.append("final turn after LAST CHANCE")
            text = f"seat {p}'s turn ({t.state()})" + (f" [{'; '.join(flags)}]" if flags else "")
        elif name == "keep":
            t.hands[p][e["card"]] += 1
            if e["other"] is None:
                t.deck -= 1
                text = f"draws the last card of the deck: {_b(e['card'], p)}"
            else:
                t.deck -= 2
                text = f"draws two cards from the deck, keeps {_b(e['card'], p)}"
        elif name == "discard":
            t.piles[e["pile"]].append(e["card"])
            text = f"puts {e['card']} on pile {PILES[e['pile']]}"
        elif name == "take_pile":
            t.take_from_pile(e["pile"], e["card"])
            t.hands[p][e["card"]] += 1
            text = f"takes {e['card']} from pile {PILES[e['pile']]}"
        elif name == "take_nothing":
            text = "cannot draw: the deck and both piles are empty"
        elif name == "locked_draw":
            if e["card"] is None:
                text = "locked, and the deck is empty: draws nothing"
            else:
                t.deck -= 1
                t.hands[p][e["card"]] += 1
                text = f"locked: draws {_b(e['card'], p)} from the deck and does nothing else"
        elif name in ("pair", "trio"):
            cards = [e["card"], e["card2"]] + ([e["starfish"]] if name == "trio" else [])
            for c in cards:
                t.hands[p][c] -= 1
                if not t.hands[p][c]:
                    del t.hands[p][c]
            t.tables[p].append(cards)
            kinds = frozenset(c.split(":")[0] for c in cards[:2])
            if name == "trio":
                text = f"plays the trio {' + '.join(cards)} (no effect)"
            else:
                text = f"plays {' + '.join(cards)} ({PAIR_EFFECT.get(kinds, 'pair')})"
        elif name == "crab_take":
            if e["card"] is None:
                text = "both piles are empty: nothing to take"
            else:
                t.take_from_pile(e["pile"], e["card"])
                t.hands[p][e["card"]] += 1
                text = f"searches pile {PILES[e['pile']]} and takes {_b(e['card'], p)}"
        elif name == "fish_draw":
            if e["card"] is None:
                text = "the deck is empty: draws nothing"
            else:
                t.deck -= 1
                t.hands[p][e["card"]] += 1
                text = f"draws {_b(e['card'], p)} from the deck"
        elif name == "steal":
            if e["victim"] < 0:
                text = "nobody has a hidden card to steal"
            else:
                q = e["victim"]
                t.hands[q][e["card"]] -= 1
                if not t.hands[q][e["card"]]:
                    del t.hands[q][e["card"]]
                t.hands[p][e["card"]] += 1
                text = f"steals {_b(e['card'], p, q)} from seat {q}"
        elif name == "lobster_keep":
            if e["card"] is None:
                text = "the deck is empty: nothing to see"
            else:
                t.deck -= 1
                t.hands[p][e["card"]] += 1
                text = (f"looks at the top {e['seen']} cards of the deck, keeps {_b(e['card'], p)} "
                        f"and shuffles the rest back")
        elif name == "lock_on":
            t.lock = p
            text = "locks the others: until seat {}'s next turn they only draw one card".format(p)
        elif name == "lock_off":
            text = f"seat {t.lock}'s jellyfish lock ends"
            t.lock = -1
        elif name == "extra_turn":
            text = "boat: takes another turn"
        elif name == "declare":
            what = "says STOP" if e["kind"] == ks.DECL_STOP else "calls LAST CHANCE"
            text = f"{what} with {e['points']} card points"
        elif name == "reveal":
            text = f"reveals: {_cards(t.hands[p])}"
        elif name == "mermaid_win":
            text = "holds all four mermaids and wins the game"
        elif name == "round_end":
            text = _end_text(e, evs, t)
        elif name == "score":
            table = "; ".join(" + ".join(g) for g in t.tables[p]) or "(none)"
            text = (f"seat {p}: {e['card_points']} card points, colour bonus {e['bonus']} "
                    f"-> scores {e['points']}   (hand: {_cards(t.hands[p])}; table: {table})")
        texts.append(text)
    return texts, t


def _end_text(e: dict, evs: list[dict], t: _Table) -> str:
    end, q = e["end"], e["ender"]
    if end == "stop":
        return f"round over: seat {q} said STOP; everyone scores their card points"
    if end == "void":
        return f"round over: the deck ran out on seat {q}'s turn; void round, nobody scores"
    if end == "mermaids":
        return f"round over: seat {q} holds four mermaids"
    pts = {s["seat"]: s["card_points"] for s in evs if s["event"] == "score"}
    best = max(v for s, v in pts.items() if s != q)
    if end == "last_chance_won":
        return (f"round over: seat {q}'s LAST CHANCE wins ({pts[q]} card points, best opponent "
                f"{best}): seat {q} scores card points + colour bonus, the others only their "
                f"colour bonus")
    return (f"round over: seat {q}'s LAST CHANCE fails ({pts[q]} card points, an opponent has "
            f"{best}): seat {q} scores only the colour bonus, the others their card points")


def replay_frame(r: dict):
    """The replay's events as a tidy DataFrame: one row per event (round, index, event, seat,
    its fields, text), each with the game's seed, configuration and version."""
    from ..render.tidy_frames import frame, join_specs
    rows = []
    for rd in r["rounds"]:
        for i, e in enumerate(rd["events"]):
            rows.append({"round": rd["round"], "index": i, **e})
    meta = {"command": "replay", "seed": r["seed"], "players": r["players"],
            "policies": join_specs(r["policies"]), "expansion": r["expansion"],
            "target": r["target"], "version": r["version"]}
    return frame(rows, meta)
