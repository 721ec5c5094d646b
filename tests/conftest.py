"""Shared helpers for the rules tests.

* `scripted(...)`: `analyzer.rules.setups.build_state` plus the cards that the test does not place
  (`rest`): at the bottom of the deck, under a pile, or left out.
* `run(state, policies, seed)`: play the round traced and check every event with `Replay`.
* `Replay`: an independent reading of docs/rules.md ("A turn" to "Ending a round") and of the
  baseline (docs/players.md) in plain Python. It keeps its own copy of every zone (deck, piles, hands, tables), predicts each event of the
  round from the rules and the baseline, moves the cards, and finally compares its zones,
  scores and end with the engine's state. Every card is therefore accounted for after every
  event, and every decision is the baseline's. Only the rules' own randomness (the stolen card,
  the lobster shuffle) is read from the trace, and checked to be possible.
* `ref_points` / `ref_bonus`: docs/rules.md, "Scoring: card points" written out directly (no
  engine code).
"""
from __future__ import annotations

import os
import tempfile
from collections import Counter

import numpy as np

# Runs keep their finished tasks in a checkpoint directory (analyzer.runs.checkpoint); the tests use
# a fresh one, inherited by the CLI subprocesses they start, so they never see a user's checkpoints.
os.environ["SEASALT_CHECKPOINT_DIR"] = tempfile.mkdtemp(prefix="seasalt-test-checkpoints-")

from analyzer.rules.notation import card_name, parse_cards
from analyzer.rules.policies import parse_policy
from analyzer.rules.setups import build_state, play_traced
from kernels import cards as kc
from kernels import state as ks
from kernels.invariants import state_errors

# ---------------------------------------------------------------------------------------------
# Card tables (names from the catalogue; the catalogue itself is checked against "The cards" in
# test_scoring.py).

NT = kc.NTYPES
KIND_OF = [kc.KINDS[int(kc.TYPE_KIND[t])] for t in range(NT)]
KIND_ID = [int(kc.TYPE_KIND[t]) for t in range(NT)]
COLOUR_ID = [int(kc.TYPE_COLOUR[t]) for t in range(NT)]
NAME = [card_name(t) for t in range(NT)]
T_OF = {NAME[t]: t for t in range(NT)}
K = {name: i for i, name in enumerate(kc.KINDS)}
MERMAID, CRAB, BOAT, FISH, SWIMMER, SHARK = (K[x] for x in
                                            ("mermaid", "crab", "boat", "fish", "swimmer", "shark"))
SHELL, OCTOPUS, PENGUIN, SAILOR = (K[x] for x in ("shell", "octopus", "penguin", "sailor"))
LIGHTHOUSE, SHOAL, COLONY, CAPTAIN = (K[x] for x in ("lighthouse", "shoal", "colony", "captain"))
JELLYFISH, LOBSTER, CAST, STARFISH, SEAHORSE = (K[x] for x in
                                                ("jellyfish", "lobster", "cast_of_crabs",
                                                 "starfish", "seahorse"))
DUO_KINDS = {CRAB, BOAT, FISH, SWIMMER, SHARK, JELLYFISH, LOBSTER}
LEGAL_PAIRS = {frozenset((CRAB,)), frozenset((CRAB, LOBSTER)), frozenset((BOAT,)),
               frozenset((FISH,)), frozenset((SWIMMER, SHARK)), frozenset((SWIMMER, JELLYFISH))}
NKINDS = len(kc.KINDS)
NCOL = len(kc.COLOURS)

STOP, LAST_CHANCE = ks.DECL_STOP, ks.DECL_LAST_CHANCE

# docs/rules.md, "Scoring: card points" collector tables: points for 0, 1, 2, ... cards (the last
# entry is the maximum).
COLLECTIONS = ((SHELL, (0, 0, 2, 4, 6, 8, 10)), (OCTOPUS, (0, 0, 3, 6, 9, 12)),
               (PENGUIN, (0, 1, 3, 5)), (SAILOR, (0, 0, 5)))


def ref_score(hk, ak, col, table_duo, table_star):
    """docs/rules.md, "Scoring: card points" card points from hand kind counts, hand+table kind
    counts, hand+table colour counts, the number of duo cards on the table and of starfish on the
    table."""
    m = ak[MERMAID]
    mermaids = sum(sorted(col, reverse=True)[:m]) if m else 0
    held = (min((hk[CRAB] + hk[LOBSTER]) // 2, hk[CRAB]) + min(hk[SWIMMER], hk[SHARK] + hk[JELLYFISH])
            + hk[BOAT] // 2 + hk[FISH] // 2)
    duos = table_duo // 2 + held + 2 * table_star + 2 * min(hk[STARFISH], held)
    coll = sum(pts[ak[k]] for k, pts in COLLECTIONS)
    if hk[SEAHORSE]:
        best = 0
        for k, pts in COLLECTIONS:
            n = ak[k]
            if 1 <= n < len(pts) - 1:
                best = max(best, pts[n + 1] - pts[n])
        coll += best
    mult = (ak[LIGHTHOUSE] * ak[BOAT] + ak[SHOAL] * ak[FISH] + 2 * ak[COLONY] * ak[PENGUIN]
            + 3 * ak[CAPTAIN] * ak[SAILOR] + ak[CAST] * ak[CRAB])
    return mermaids + duos + coll + mult


def _counts(hand_types, table_types):
    hk = [0] * NKINDS
    ak = [0] * NKINDS
    col = [0] * NCOL
    tduo = tstar = 0
    for t in hand_types:
        hk[KIND_ID[t]] += 1
        ak[KIND_ID[t]] += 1
        col[COLOUR_ID[t]] += 1
    for t in table_types:
        ak[KIND_ID[t]] += 1
        col[COLOUR_ID[t]] += 1
        tduo += KIND_ID[t] in DUO_KINDS
        tstar += KIND_ID[t] == STARFISH
    return hk, ak, col, tduo, tstar


def ref_points(hand, table=(), expansion="extra-salt"):
    """Card points of card lists in notation (docs/rules.md, "Scoring: card points", written out
    independently)."""
    return ref_score(*_counts(parse_cards(_join(hand), expansion), parse_cards(_join(table), expansion)))


def ref_bonus(hand, table=(), expansion="extra-salt"):
    _, _, col, _, _ = _counts(parse_cards(_join(hand), expansion), parse_cards(_join(table), expansion))
    return max(col)


def _join(cards):
    if cards is None:
        return ""
    return cards if isinstance(cards, str) else ",".join(cards)


def _split(cards):
    if cards is None:
        return []
    if isinstance(cards, str):
        return [c.strip() for c in cards.split(",") if c.strip()]
    return list(cards)


# ---------------------------------------------------------------------------------------------
# Scripted states.

def rest_of(expansion="base", *groups):
    """Names of every card of the expansion's deck not listed in `groups` (catalogue order)."""
    copies = kc.copies_in(expansion).copy()
    for g in groups:
        for t in parse_cards(_join(g), expansion):
            copies[t] -= 1
    assert (copies >= 0).all(), "a card is listed more often than it exists"
    return [NAME[t] for t in range(NT) for _ in range(int(copies[t]))]


def scripted(players, *, deck=(), piles=((), ()), hands=None, tables=None, rest="deck",
             current=0, expansion="base", declared=None, lock=-1, revealed=()):
    """build_state with the unlisted cards placed by `rest`: "deck" (below the listed deck
    cards), "A" / "B" (under that pile), or None (left out of the round)."""
    deck = _split(deck)
    pa, pb = (_split(p) for p in piles)
    hands = {q: _split(c) for q, c in (hands or {}).items()}
    tables = {q: _split(c) for q, c in (tables or {}).items()}
    if rest is not None:
        extra = rest_of(expansion, deck, pa, pb, *hands.values(), *tables.values())
        if rest == "deck":
            deck = deck + extra
        elif rest == "A":
            pa = extra + pa
        elif rest == "B":
            pb = extra + pb
        else:
            raise ValueError(rest)
    return build_state(players, deck=deck, piles=(pa, pb), hands=hands, tables=tables,
                       current=current, expansion=expansion, declared=declared, lock=lock,
                       revealed=revealed)


def run(s, policies=("baseline",), seed=0):
    """Play the round in `s` traced; verify every event with Replay; return (end, events)."""
    replay = Replay(s, policies)
    # The engine's check mode (state_errors after every event) counts the cards too, so it is
    # only meaningful when the state holds the whole deck.
    end, events = play_traced(s, list(policies), seed=seed, check=replay.complete)
    replay.check(events, s)
    return end, events


def points_of(s, players=None):
    n = int(s[ks.NPLAYERS]) if players is None else players
    return [int(s[ks.POINTS + q]) for q in range(n)]


def hand_of(s, p):
    """Player p's hand as a sorted list of card names."""
    return sorted(NAME[t] for t in range(NT) for _ in range(int(s[ks.HT + p * NT + t])))


def table_of(s, p):
    return sorted(NAME[t] for t in range(NT) for _ in range(int(s[ks.TT + p * NT + t])))


def pile_of(s, j):
    n = int(s[ks.PILE_LEN + j])
    return [NAME[int(t)] for t in s[ks.PILE + j * kc.MAX_DECK: ks.PILE + j * kc.MAX_DECK + n]]


def deck_of(s):
    """Deck top first."""
    n = int(s[ks.DECK_LEN])
    return [NAME[int(t)] for t in s[ks.DECK:ks.DECK + n]][::-1]


def score_events(*rows):
    return [("score",) + tuple(r) for r in rows]


# ---------------------------------------------------------------------------------------------
# The replay checker.

class Replay:
    """Predicts and verifies a traced round event by event (docs/rules.md + docs/players.md (the
    baseline))."""

    def __init__(self, s, policies=("baseline",)):
        s = np.asarray(s)
        self.n = n = int(s[ks.NPLAYERS])
        policies = list(policies)
        if len(policies) == 1:
            policies = policies * n
        self.params = []
        for spec in policies:
            vals = dict(parse_policy(spec).values)
            self.params.append((max(7.0, vals["stop_at"]), vals["last_chance_at"]))
        self.deck = [int(t) for t in s[ks.DECK:ks.DECK + s[ks.DECK_LEN]]]  # bottom .. top
        self.ordered = True
        self.piles = [[int(t) for t in s[ks.PILE + j * kc.MAX_DECK:ks.PILE + j * kc.MAX_DECK
                                         + s[ks.PILE_LEN + j]]] for j in range(2)]
        self.hand = [[int(s[ks.HT + p * NT + t]) for t in range(NT)] for p in range(ks.MAX_PLAYERS)]
        self.table = [[int(s[ks.TT + p * NT + t]) for t in range(NT)] for p in range(ks.MAX_PLAYERS)]
        self.hk, self.ak, self.col, self.tduo, self.tstar = [], [], [], [], []
        for p in range(ks.MAX_PLAYERS):
            hand = [t for t in range(NT) for _ in range(self.hand[p][t])]
            table = [t for t in range(NT) for _ in range(self.table[p][t])]
            hk, ak, col, tduo, tstar = _counts(hand, table)
            self.hk.append(hk)
            self.ak.append(ak)
            self.col.append(col)
            self.tduo.append(tduo)
            self.tstar.append(tstar)
        self.revealed = [int(s[ks.REVEALED + p]) for p in range(ks.MAX_PLAYERS)]
        self.lock = int(s[ks.LOCK])
        self.decl = int(s[ks.DECL])
        self.declarer = int(s[ks.DECLARER])
        self.decl_points = int(s[ks.DECL_POINTS])
        self.cur = int(s[ks.CUR])
        self.turns = int(s[ks.TURNS])
        self.census0 = self._census()
        self.complete = any(self.census0 == Counter({t: int(n) for t, n in enumerate(kc.copies_in(e))
                                                     if n}) for e in kc.EXPANSIONS)
        self.events, self.i = [], 0

    # -- zones ---------------------------------------------------------------------------
    def _census(self):
        c = Counter(self.deck) + Counter(self.piles[0]) + Counter(self.piles[1])
        for p in range(ks.MAX_PLAYERS):
            for t in range(NT):
                if self.hand[p][t] or self.table[p][t]:
                    c[t] += self.hand[p][t] + self.table[p][t]
        return c

    def _gain(self, p, t):
        self.hand[p][t] += 1
        k, c = KIND_ID[t], COLOUR_ID[t]
        self.hk[p][k] += 1
        self.ak[p][k] += 1
        self.col[p][c] += 1

    def _lose(self, p, t):
        self._fail_if(self.hand[p][t] <= 0, f"player {p} does not hold {NAME[t]}")
        self.hand[p][t] -= 1
        k, c = KIND_ID[t], COLOUR_ID[t]
        self.hk[p][k] -= 1
        self.ak[p][k] -= 1
        self.col[p][c] -= 1

    def _to_table(self, p, t):
        self._fail_if(self.hand[p][t] <= 0, f"player {p} does not hold {NAME[t]} to play it")
        self.hand[p][t] -= 1
        self.table[p][t] += 1
        k = KIND_ID[t]
        self.hk[p][k] -= 1
        self.tduo[p] += k in DUO_KINDS
        self.tstar[p] += k == STARFISH

    def pts(self, p):
        return ref_score(self.hk[p], self.ak[p], self.col[p], self.tduo[p], self.tstar[p])

    def gain(self, p, t, now):
        self._gain(p, t)
        v = self.pts(p)
        self._lose(p, t)
        return v - now

    def bonus(self, p):
        return max(self.col[p])

    def hlen(self, p):
        return sum(self.hk[p])

    # -- event stream ----------------------------------------------------------------------
    def _fail_if(self, cond, msg):
        if cond:
            raise AssertionError(f"event #{self.i} {self._peek()!r}: {msg}\nevents so far: "
                                 f"{self.events[max(0, self.i - 12):self.i]}")

    def _peek(self):
        return self.events[self.i] if self.i < len(self.events) else None

    def next(self, name=None):
        ev = self._peek()
        self._fail_if(ev is None, f"the trace ended, expected {name}")
        if name is not None:
            self._fail_if(ev[0] != name, f"expected a {name!r} event")
        self.i += 1
        return ev

    def expect(self, want):
        ev = self._peek()
        self._fail_if(ev != want, f"expected {want!r}")
        self.i += 1
        return ev

    # -- deck ------------------------------------------------------------------------------
    def _deck_take(self, name):
        """Remove the card named by an event from the top of the deck (or, once a lobster has
        shuffled it, from anywhere in it)."""
        self._fail_if(name is None or name not in T_OF, f"bad card {name!r}")
        t = T_OF[name]
        if self.ordered:
            self._fail_if(self.deck[-1] != t, f"the deck top is {NAME[self.deck[-1]]}, not {name}")
            self.deck.pop()
        else:
            self._fail_if(t not in self.deck, f"{name} is not in the deck")
            self.deck.remove(t)
        return t

    # -- the round ---------------------------------------------------------------------------
    def check(self, events, final=None):
        self.events = list(events)
        self.i = 0
        while True:
            p = self.cur
            locked = self.lock >= 0 and self.lock != p
            fin = self.decl == LAST_CHANCE
            self._fail_if(fin and p == self.declarer, "the LAST CHANCE caller plays again")
            self.expect(("turn", p, int(locked), int(fin)))
            self.turns += 1
            if locked:
                if self.deck:
                    ev = self.next("locked_draw")
                    self._fail_if(ev[1] != p, "wrong player")
                    self._gain(p, self._deck_take(ev[2]))
                else:
                    self.expect(("locked_draw", p, None))
            else:
                while True:
                    self.draw_step(p)
                    r = self.play_step(p, fin)
                    if r != "extra":
                        break
                    self.expect(("extra_turn", p))
            if self.ak[p][MERMAID] == 4:
                self.expect(("mermaid_win", p))
                self.finish("mermaids", p, final)
                return
            nxt = (p + 1) % self.n
            if self.decl == STOP:
                self.score(p, final)
                return
            if self.decl == LAST_CHANCE:
                if p != self.declarer:
                    self.expect(("reveal", p))
                    self.revealed[p] = 1
                if nxt == self.declarer:
                    self.score(self.declarer, final)
                    return
            elif not self.deck:
                self.finish("void", p, final)
                return
            if self.lock == nxt:
                self.expect(("lock_off", nxt))
                self.lock = -1
            self.cur = nxt

    def draw_step(self, p):
        now = self.pts(p)
        piles = self.piles
        best_j, best_g = -1, -99
        for j in range(2):
            if piles[j]:
                g = self.gain(p, piles[j][-1], now)
                if g > best_g:
                    best_j, best_g = j, g
        if not self.deck:
            if best_j < 0:                     # "A turn", edge case 2: deck and both piles empty
                self.expect(("take_nothing", p))
                return
            from_pile = True                   # edge case 2, baseline draw rule 1
        else:
            from_pile = best_j >= 0 and best_g >= 1   # baseline draw rule 2 (edge case 3: no pile)
        if from_pile:
            t = piles[best_j].pop()
            self.expect(("take_pile", p, NAME[t], best_j))
            self._gain(p, t)
            return
        if len(self.deck) == 1:                # edge case 1: keep the only card, discard nothing
            ev = self.next("keep")
            self._fail_if(ev[1] != p or ev[3] is not None, "one-card draw must discard nothing")
            self._gain(p, self._deck_take(ev[2]))
            return
        if self.ordered:
            c1, c2 = self.deck[-1], self.deck[-2]
            kept, other = (c1, c2) if self.gain(p, c1, now) >= self.gain(p, c2, now) else (c2, c1)
            self.expect(("keep", p, NAME[kept], NAME[other]))
            self.deck.pop()
            self.deck.pop()
        else:
            ev = self.next("keep")
            self._fail_if(ev[1] != p or ev[3] is None, "a two-card draw")
            kept = self._deck_take(ev[2])
            other = self._deck_take(ev[3])
            self._fail_if(self.gain(p, kept, now) < self.gain(p, other, now), "kept the worse card")
        self._gain(p, kept)
        na, nb = len(piles[0]), len(piles[1])
        if (na == 0) != (nb == 0):             # "A turn": exactly one empty pile takes it
            j = 0 if na == 0 else 1
        elif na == 0:                          # both empty: A (engines), baseline: A
            j = 0
        else:                                  # baseline: fewer cards, tie A
            j = 1 if nb < na else 0
        self.expect(("discard", p, NAME[other], j))
        piles[j].append(other)

    def _first(self, p, kind):
        for t in range(NT):
            if KIND_ID[t] == kind and self.hand[p][t] > 0:
                return t
        self._fail_if(True, f"player {p} holds no {kc.KINDS[kind]}")

    def play_pair(self, p, k1, k2):
        t1 = self._first(p, k1)
        self._to_table(p, t1)
        t2 = self._first(p, k2)
        self._to_table(p, t2)
        assert frozenset((k1, k2)) in LEGAL_PAIRS
        self.expect(("pair", p, NAME[t1], NAME[t2]))

    def steal_target(self, p):
        best, best_len = -1, 0
        for i in range(1, self.n):
            q = (p + i) % self.n
            if not self.revealed[q] and self.hlen(q) > best_len:
                best, best_len = q, self.hlen(q)
        return best

    def play_step(self, p, fin):
        stop_at, lc_at = self.params[p]
        while True:
            if self.ak[p][MERMAID] == 4:
                return "mermaids"
            h = self.hk[p]
            deck = len(self.deck)
            piles = len(self.piles[0]) + len(self.piles[1])
            if h[FISH] >= 2 and deck > 0:
                self.play_pair(p, FISH, FISH)
                ev = self.next("fish_draw")
                self._fail_if(ev[1] != p, "wrong player")
                self._gain(p, self._deck_take(ev[2]))
            elif h[CRAB] >= 2 and piles > 0:
                self.play_pair(p, CRAB, CRAB)
                now = self.pts(p)
                bj, bi, bg = -1, -1, -99
                for j in range(2):
                    for i in range(len(self.piles[j]) - 1, -1, -1):
                        g = self.gain(p, self.piles[j][i], now)
                        if g > bg:
                            bj, bi, bg = j, i, g
                t = self.piles[bj].pop(bi)
                self.expect(("crab_take", p, NAME[t], bj))
                self._gain(p, t)
            elif h[CRAB] >= 1 and h[LOBSTER] >= 1 and deck > 0:
                self.play_pair(p, CRAB, LOBSTER)
                seen = min(5, deck)
                if self.ordered:
                    now = self.pts(p)
                    bi, bg = 0, -99
                    for i in range(seen):
                        g = self.gain(p, self.deck[-1 - i], now)
                        if g > bg:
                            bi, bg = i, g
                    t = self.deck.pop(len(self.deck) - 1 - bi)
                    self.expect(("lobster_keep", p, NAME[t], seen))
                else:
                    ev = self.next("lobster_keep")
                    self._fail_if(ev[1] != p or ev[3] != seen, f"expected {seen} cards seen")
                    t = self._deck_take(ev[2])
                self._gain(p, t)
                if len(self.deck) > 1:
                    self.ordered = False       # the whole deck is shuffled
            elif h[SWIMMER] >= 1 and h[SHARK] >= 1 and self.steal_target(p) >= 0:
                q = self.steal_target(p)
                self.play_pair(p, SWIMMER, SHARK)
                ev = self.next("steal")
                self._fail_if(ev[1] != p or ev[2] != q, f"the victim must be player {q}")
                t = T_OF.get(ev[3], -1)
                self._fail_if(t < 0 or self.hand[q][t] <= 0, "stolen card not in the victim's hand")
                self._lose(q, t)
                self._gain(p, t)
            elif h[SWIMMER] >= 1 and h[JELLYFISH] >= 1:
                self.play_pair(p, SWIMMER, JELLYFISH)
                self.expect(("lock_on", p))
                self.lock = p
            elif not fin and self.decl == ks.DECL_NONE and self.pts(p) >= stop_at:
                pts = self.pts(p)
                kind = LAST_CHANCE if pts >= lc_at else STOP
                self.expect(("declare", p, kind, pts))
                self.decl, self.declarer, self.decl_points = kind, p, pts
                if kind == LAST_CHANCE:
                    self.expect(("reveal", p))
                    self.revealed[p] = 1
                return "end"
            elif h[BOAT] >= 2 and deck + piles > 0:
                self.play_pair(p, BOAT, BOAT)
                return "extra"
            else:
                return "end"

    def score(self, ender, final):
        n = self.n
        pts = [self.pts(q) for q in range(n)]
        bon = [self.bonus(q) for q in range(n)]
        if self.decl == STOP:
            end = "stop"
            got = pts
        else:
            c = self.declarer
            won = pts[c] >= max(pts[q] for q in range(n) if q != c)
            end = "last_chance_won" if won else "last_chance_lost"
            got = [(pts[q] + bon[q] if won else bon[q]) if q == c else (bon[q] if won else pts[q])
                   for q in range(n)]
        for q in range(n):
            self.expect(("score", q, got[q], pts[q], bon[q]))
        self.points = got
        self.finish(end, ender, final)

    def finish(self, end, ender, final):
        self.expect(("round_end", ender, end, ender))
        self._fail_if(self.i != len(self.events), "events after the end of the round")
        self.end, self.ender = end, ender
        if end in ("void", "mermaids"):
            self.points = [0] * self.n
        # Conservation: the zones hold exactly the cards they started with.
        assert self._census() == self.census0, "cards were created or lost"
        if final is not None:
            self.compare(np.asarray(final))

    def compare(self, s):
        """The engine's final state equals the replayed one, zone by zone."""
        deck = [int(t) for t in s[ks.DECK:ks.DECK + s[ks.DECK_LEN]]]
        if self.ordered:
            assert deck == self.deck, "deck order differs"
        else:
            assert sorted(deck) == sorted(self.deck), "deck contents differ"
        for j in range(2):
            pile = [int(t) for t in s[ks.PILE + j * kc.MAX_DECK:ks.PILE + j * kc.MAX_DECK
                                      + s[ks.PILE_LEN + j]]]
            assert pile == self.piles[j], f"pile {'AB'[j]} differs"
        for p in range(ks.MAX_PLAYERS):
            assert [int(x) for x in s[ks.HT + p * NT:ks.HT + (p + 1) * NT]] == self.hand[p], \
                f"hand of {p} differs"
            assert [int(x) for x in s[ks.TT + p * NT:ks.TT + (p + 1) * NT]] == self.table[p], \
                f"table of {p} differs"
            assert int(s[ks.HLEN + p]) == self.hlen(p)
            assert int(s[ks.NPAIRS + p]) * 2 == self.tduo[p], f"pairs on the table of {p}"
        # The engine's derived caches (counts by kind and colour, cached points) are checked by
        # its own consistency check; it also counts the cards, so only for complete states.
        if self.complete:
            assert state_errors(s) == 0, f"state_errors {state_errors(s)}"
        assert ks.END_NAMES[int(s[ks.END])] == self.end
        assert int(s[ks.ENDER]) == self.ender
        assert points_of(s) == self.points
        assert int(s[ks.TURNS]) == self.turns
        assert int(s[ks.DECL]) == self.decl and int(s[ks.DECLARER]) == self.declarer
        if self.decl:
            assert int(s[ks.DECL_POINTS]) == self.decl_points
        for p in range(self.n):
            assert int(s[ks.REVEALED + p]) == self.revealed[p], f"revealed flag of {p}"
