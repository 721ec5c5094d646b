"""The engine's fast special cases against the plain rule they stand for.

`kernels.scoring.gain` is the delta of card points written without re-scoring; here it must
equal card_points(with the card) - card_points(without) for every card type, on random hands and
tables (base and Extra Salt, with and without mermaids, starfish, the seahorse).
"""
import numpy as np
import pytest

from kernels import cards as kc
from kernels import state as ks
from kernels.scoring import card_points, gain

# Legal pairs as (kind, kind), for random tables.
_PAIRS = ((kc.CRAB, kc.CRAB), (kc.BOAT, kc.BOAT), (kc.FISH, kc.FISH), (kc.SWIMMER, kc.SHARK),
          (kc.CRAB, kc.LOBSTER), (kc.SWIMMER, kc.JELLYFISH))


def _random_state(rng, expansion):
    """Player 0 holds a random hand from a shuffled deck and has a few random pairs on the table
    (some with a starfish); player 1 holds a few cards so that per-player offsets are exercised."""
    deck = list(rng.permutation(kc.deck_types(expansion)))
    s = ks.new_state()
    ks.clear(s, 2)
    for _ in range(int(rng.integers(0, 4))):
        kinds = _PAIRS[int(rng.integers(len(_PAIRS)))]
        if kinds[1] in (kc.LOBSTER, kc.JELLYFISH) and expansion == "base":
            continue
        cards = []
        for k in kinds + ((kc.STARFISH,) if expansion != "base" and rng.random() < 0.3 else ()):
            t = next((c for c in deck if kc.TYPE_KIND[c] == k), None)
            if t is None:
                break
            deck.remove(t)
            cards.append(t)
        else:
            for t in cards:
                ks.gain_card(s, 0, t)
                ks.to_table(s, 0, t)
            s[ks.NPAIRS] += 1
            continue
        deck.extend(cards)
    for _ in range(int(rng.integers(0, 16))):
        ks.gain_card(s, 0, deck.pop())
    for _ in range(int(rng.integers(0, 5))):
        ks.gain_card(s, 1, deck.pop())
    return s


@pytest.mark.parametrize("expansion", ["base", "extra-salt"])
def test_gain_is_the_card_points_delta(expansion):
    rng = np.random.default_rng(20240611)
    for _ in range(1500):
        s = _random_state(rng, expansion)
        for p in (0, 1):
            before = card_points(s, p)
            for t in range(kc.NTYPES):
                after = s.copy()
                ks.gain_card(after, p, t)
                assert gain(s, p, t) == card_points(after, p) - before, (p, kc.type_name(t))
