"""Exact situations for tests and examples: build a round state from card lists, play it on with
tracing, and read the events back as readable tuples.

    s = build_state(2, deck="fish:black,crab:black", piles=("shell:black", "boat:black"),
                    hands={0: "crab:yellow,crab:green"})
    end, events = play_traced(s, ["baseline", "baseline"], seed=1)

Card lists use the notation of analyzer.rules.notation. `deck` lists cards **top first**; each pile lists
its cards **bottom first** (the last one is the visible top).
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

from kernels import cards as kc
from kernels import events as ev
from kernels import state as ks
from kernels.engine import play_round
from kernels.game import new_round
from kernels.invariants import state_errors
from kernels.rng import seed_stream
from kernels.scoring import refresh_points

from .notation import card_name, check_copies, parse_cards
from .policies import policy_arrays, seat_policies
from ..rules.limits import check_players

Cards = str | Sequence[str]


def _cards(spec: Cards | None, expansion: str) -> list[int]:
    if spec is None:
        return []
    if not isinstance(spec, str):
        spec = ",".join(spec)
    return parse_cards(spec, expansion)


def build_state(players: int, *, deck: Cards | None = None, piles: tuple[Cards | None, Cards | None] = (None, None),
                hands: Mapping[int, Cards] | None = None, tables: Mapping[int, Cards] | None = None,
                current: int = 0, expansion: str = "base", declared: tuple[int, int] | None = None,
                lock: int = -1, revealed: Sequence[int] = ()) -> np.ndarray:
    """A round state with exactly these cards (nothing is dealt or shuffled). `tables` lists each
    player's played cards; pairs are counted as consecutive cards (a starfish joins the pair before
    it). `declared` = (seat, ks.DECL_STOP or ks.DECL_LAST_CHANCE) for a declaration already made."""
    s = ks.new_state()
    deck_ids = _cards(deck, expansion)
    pile_ids = [_cards(p, expansion) for p in piles]
    hand_ids = {q: _cards(c, expansion) for q, c in (hands or {}).items()}
    table_ids = {q: _cards(c, expansion) for q, c in (tables or {}).items()}
    check_copies([deck_ids, *pile_ids, *hand_ids.values(), *table_ids.values()], expansion)
    check_players(players)
    ks.load_deck(s, players, np.array(deck_ids[::-1], dtype=np.int64), current)
    for j, ids in enumerate(pile_ids):
        for t in ids:
            ks.push_pile(s, j, t)
    for q, ids in hand_ids.items():
        for t in ids:
            ks.gain_card(s, q, t)
    for q, ids in table_ids.items():
        for t in ids:
            ks.gain_card(s, q, t)
            ks.to_table(s, q, t)
        s[ks.NPAIRS + q] = sum(1 for t in ids if kc.IS_DUO_KIND[kc.TYPE_KIND[t]]) // 2
    if declared is not None:
        s[ks.DECLARER], s[ks.DECL] = declared
        if declared[1] == ks.DECL_LAST_CHANCE:
            s[ks.REVEALED + declared[0]] = 1
    for q in revealed:
        s[ks.REVEALED + q] = 1
    s[ks.LOCK] = lock
    refresh_points(s, players)
    return s


def decode(trace: np.ndarray) -> list[tuple]:
    """Trace rows as readable tuples: (event name, player, fields...) with card fields by name."""
    n = int(trace[0, 0])
    if n >= trace.shape[0]:
        raise RuntimeError(f"trace buffer overflow: {n} events, capacity {trace.shape[0] - 1}")
    out = []
    for code, p, *vals in trace[1:n + 1].tolist():
        name, fields = ev.EVENT_FIELDS[code]
        row = [name, p]
        for field, v in zip(fields, vals):
            if not field:
                continue
            if field in ("card", "card2", "other", "starfish"):
                row.append(card_name(v) if v >= 0 else None)
            elif field == "end":
                row.append(ks.END_NAMES[v])
            else:
                row.append(v)
        out.append(tuple(row))
    return out


def trace_buffer(capacity: int, check: bool) -> np.ndarray:
    tr = np.zeros((capacity + 1, 5), dtype=np.int32)
    tr[0, 1] = int(check)
    return tr


def raise_on_violation(tr: np.ndarray, s: np.ndarray, where: str) -> None:
    err = int(tr[0, 2]) or int(state_errors(s))
    if err:
        raise AssertionError(f"{where}: state invariant {err} broken at event {int(tr[0, 3])}")


def play_traced(s: np.ndarray, policies: Sequence[str] = ("baseline",), seed: int = 0,
                capacity: int = 10_000, check: bool = True) -> tuple[str, list[tuple]]:
    """Play the round in `s` (modified in place) to its end; return (end name, events).
    With `check`, the state's invariants are verified after every event (AssertionError)."""
    pk, pp = policy_arrays(seat_policies(list(policies), int(s[ks.NPLAYERS])))
    tr = trace_buffer(capacity, check)
    end = play_round(s, pk, pp, seed_stream(seed), tr)
    if check:
        raise_on_violation(tr, s, "scripted round")
    return ks.END_NAMES[end], decode(tr)


def check_random_rounds(players: int, rounds: int, seed: int = 0, expansion: str = "base",
                        policies: Sequence[str] = ("baseline",)) -> dict[str, int]:
    """Play `rounds` rounds from fresh shuffles, verifying every invariant after every action
    (AssertionError on the first violation). Returns how the rounds ended, for coverage checks."""
    pk, pp = policy_arrays(seat_policies(list(policies), players))
    deck = kc.deck_types(expansion)
    s = ks.new_state()
    rng = seed_stream(seed)
    ends = dict.fromkeys(ks.END_NAMES[1:], 0)
    events = np.zeros(len(ev.EVENT_NAMES), dtype=np.int64)
    for i in range(rounds):
        tr = trace_buffer(2_000, True)
        end = new_round(s, players, deck, i % players, pk, pp, rng, tr)
        raise_on_violation(tr, s, f"round {i}")
        ends[ks.END_NAMES[end]] += 1
        n = min(int(tr[0, 0]), tr.shape[0] - 1)
        events += np.bincount(tr[1:n + 1, 0], minlength=len(ev.EVENT_NAMES))
    ends.update({f"events:{name}": int(events[c]) for c, name in enumerate(ev.EVENT_NAMES)})
    return ends
