"""The policy registry: names, parameters, defaults and ranges of the compiled players, and the
parser of compact specs such as `baseline(stop_at=9,last_chance_at=12)`.

A spec becomes (kind, parameter vector) for kernels.policies, which dispatches on the kind.
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from kernels import policy_slots as slots
from kernels.reading_kinds import READABLE_KINDS

from ..base.errors import SeasaltError
from .limits import check_review
from .expert import weights as expert_weights, weights_hash


@dataclass(frozen=True)
class Param:
    name: str
    slot: int
    default: float
    low: float
    high: float
    doc: str
    integer: bool = True


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    kind: int
    doc: str
    params: tuple[Param, ...] = field(default_factory=tuple)
    by_players: dict[int, str] | None = None    # a name that stands for one entry per count
    weights_for: int = 0        # the expert of that player count: its weights fill the vector

    @property
    def alias(self) -> bool:
        return self.by_players is not None

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        names = [p.name for p in self.params]
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
        if not names:
            raise SeasaltError(f"policy {self.name!r} has no parameter {name!r}; it has none")
        raise SeasaltError(f"policy {self.name!r} has no parameter {name!r}" + (
            f"; valid: {', '.join(names)}" if len(", ".join(names)) <= 40 else
            f" (did you mean {close[0]!r}?)" if close else
            f"; 'seasalt policies {self.name}' lists all {len(names)}"))


REGISTRY: dict[str, PolicyInfo] = {
    "baseline": PolicyInfo(
        "baseline", slots.BASELINE,
        "The reference player (docs/players.md): greedy draws by card-point gain, plays every "
        "effect pair, declares at stop_at (LAST CHANCE at last_chance_at). Uses the memory view "
        "of the piles for its crab pick, nothing else hidden.",
        (Param("stop_at", slots.STOP_AT, 7, 0, 100, "declare at this many card points (below 7 acts as 7)"),
         Param("last_chance_at", slots.LAST_CHANCE_AT, 10, 0, 100,
               "call LAST CHANCE instead of STOP from this many card points")),
    ),
    "threshold": PolicyInfo(
        "threshold", slots.THRESHOLD,
        "The baseline's greedy player with knobs (kernels/heuristics.py): when to declare and "
        "to call LAST CHANCE (own points, lead over the opponents' visible tables and hand sizes, "
        "players, deck size), when to take a discard, which pairs to play, mermaid and colour "
        "chasing, whom to steal from, where to bury. With its defaults it plays like the "
        "baseline. Sees its own hand and the public state, plus the pile contents for its crab "
        "pick (perfect memory, like the baseline).",
        (Param("stop_at", slots.T_STOP_AT, 7, 0, 100, "declare at this many card points (below 7 acts as 7)"),
         Param("last_chance_at", slots.T_LAST_CHANCE_AT, 10, 0, 100,
               "call LAST CHANCE instead of STOP from this many card points"),
         Param("last_chance_margin", slots.T_LC_MARGIN, 99, -20, 99,
               "also call LAST CHANCE when own points exceed every opponent's estimate by this "
               "much (99: never)"),
         Param("hand_value", slots.T_HAND_VALUE, 1.0, 0, 5,
               "estimated card points per card in an opponent's hidden hand", integer=False),
         Param("lc_max_players", slots.T_LC_MAX_PLAYERS, 4, 2, 4,
               "margin-based LAST CHANCE only with at most this many players"),
         Param("lc_min_deck", slots.T_LC_MIN_DECK, 0, 0, 66,
               "margin-based LAST CHANCE only with at least this many cards in the deck"),
         Param("take_at", slots.T_TAKE_AT, 1.0, -10, 20,
               "take a discard-pile top whose value (gain + bonuses) reaches this", integer=False),
         Param("mermaid_bonus", slots.T_MERMAID_BONUS, 0.0, -10, 20,
               "value added to a mermaid when choosing a card", integer=False),
         Param("colour_weight", slots.T_COLOUR_WEIGHT, 0.0, -10, 20,
               "value added to a card of the player's largest colour group", integer=False),
         Param("play_fish", slots.T_PLAY_FISH, 1, 0, 1, "play fish pairs (1) or hold them (0)"),
         Param("play_crab", slots.T_PLAY_CRAB, 1, 0, 1, "play crab pairs (1) or hold them (0)"),
         Param("play_lobster", slots.T_PLAY_LOBSTER, 1, 0, 1, "play crab+lobster (1) or hold (0)"),
         Param("play_steal", slots.T_PLAY_STEAL, 1, 0, 1, "play swimmer+shark (1) or hold (0)"),
         Param("play_lock", slots.T_PLAY_LOCK, 1, 0, 1, "play swimmer+jellyfish (1) or hold (0)"),
         Param("play_boat", slots.T_PLAY_BOAT, 1, 0, 1, "play boat pairs (1) or hold them (0)"),
         Param("steal_from", slots.T_STEAL_FROM, 0, 0, 2,
               "steal from: 0 the most cards, 1 the best visible table, 2 the next player"),
         Param("bury", slots.T_BURY, 0, 0, 1,
               "unkept card onto: 0 the pile with fewer cards, 1 the better top (denial)")),
    ),
    "search": PolicyInfo(
        "search", slots.SEARCH,
        "Searches every decision (kernels/search.py): deals of the cards its seat cannot see, "
        "drawn from what it has observed (docs/rules.md, Hidden information; never the true deck "
        "or hands), every legal action tried on each deal, the round played out by rollout "
        "players (itself: threshold with rollout_stop_at / rollout_last_chance_at; opponents: "
        "model_stop_at / model_last_chance_at) and valued by the chance of winning the game from "
        "the running totals; keeps the rollout player's own choice unless another action is "
        "better by `confidence` standard errors. Cost per decision grows with samples x legal "
        "actions.",
        (Param("samples", slots.S_SAMPLES, 64, 1, 100_000, "deals searched per decision"),
         Param("confidence", slots.S_CONFIDENCE, 1.0, 0, 10,
               "standard errors by which an action must beat the rollout player's own choice",
               integer=False),
         Param("continuations", slots.S_CONTINUATIONS, 4, 1, 1000,
               "rest-of-game runs per rollout, sampled from rounds of the rollout players"),
         Param("rollout_stop_at", slots.S_ROLLOUT_STOP_AT, 7, 0, 100,
               "its own rollout player declares at this many points"),
         Param("rollout_last_chance_at", slots.S_ROLLOUT_LC_AT, 7, 0, 100,
               "... and calls LAST CHANCE from this many"),
         Param("model_stop_at", slots.S_MODEL_STOP_AT, 7, 0, 100,
               "the opponents' model declares at this many points"),
         Param("model_last_chance_at", slots.S_MODEL_LC_AT, 10, 0, 100,
               "... and calls LAST CHANCE from this many (7 and 10: the baseline)"),
         Param("read", slots.S_READ, 0, 0, 1,
               "1: read hands (kernels/reading.py): deals weighted by how likely the opponents' "
               "model makes the choices seen in the round so far"),
         Param("tremble", slots.S_TREMBLE, slots.DEFAULT_TREMBLE, slots.MIN_TREMBLE, 1,
               "reading: the weight of a deal per observed choice the model would not make",
               integer=False),
         Param("rollout_expert", slots.S_ROLLOUT_EXPERT, 0, 0, 1,
               "1: its own rollout player is the expert (the rollout_* knobs then do nothing)"),
         Param("model_expert", slots.S_MODEL_EXPERT, 0, 0, 1,
               "1: the opponents' model is the expert (the model_* knobs then do nothing)")),
    ),
    **{f"expert{n}": PolicyInfo(
        f"expert{n}", slots.EXPERT,
        f"The player distilled from the search player for {n} players (kernels/expert.py, "
        "docs/expert.md): at every decision it scores each legal action with a linear function "
        "of what its seat can see, weights learned from the search's estimates by `seasalt "
        "train` (kernels/expert_weights.json). As fast as a bot, far stronger than the baseline.",
        weights_for=n) for n in (2, 3, 4)},
    "random": PolicyInfo(
        "random", slots.RANDOM,
        "Uniformly random among the legal actions at every decision point (every copy of a pair "
        "and every card of a searched pile counts as its own action): a floor and a test tool.",
    ),
}


def _preset(name: str, base: str, doc: str, **defaults: float) -> PolicyInfo:
    """A registered name for `base` with other defaults (same kernel, same parameters)."""
    info = REGISTRY[base]
    unknown = set(defaults) - {p.name for p in info.params}
    assert not unknown, unknown
    params = tuple(replace(p, default=defaults.get(p.name, p.default)) for p in info.params)
    return PolicyInfo(name, info.kind, f"{doc} (= {base} with " + ", ".join(
        f"{k}={v}" for k, v in defaults.items()) + ")", params)


REGISTRY.update({
    "gambler": _preset("gambler", "threshold",
                       "Calls LAST CHANCE whenever its points lead every opponent's visible "
                       "estimate by 3", last_chance_margin=3, hand_value=1),
    "denier": _preset("denier", "threshold",
                      "Buries the better pile top and steals from the best visible table",
                      bury=1, steal_from=1),
    "mermaid_hunter": _preset("mermaid_hunter", "threshold",
                              "Values mermaids and its largest colour group above their points",
                              mermaid_bonus=3, colour_weight=0.5),
})

def _tuned() -> None:
    """tuned2/3/4 (analyzer.rules.tuned) and `tuned`, the one of the player count in play."""
    from .tuned import TUNED
    for p, t in TUNED.items():
        REGISTRY[f"tuned{p}"] = _preset(f"tuned{p}", "threshold", t.doc(), **t.values)
    REGISTRY["tuned"] = PolicyInfo(
        "tuned", slots.THRESHOLD,
        "The tuned player of the player count in play: " + ", ".join(
            f"tuned{p} with {p} players" for p in TUNED) + " (analyzer.rules.tuned: each found by "
        "seasalt optimize against baseline opponents). It takes threshold's parameters, set on "
        "that player: tuned(stop_at=8) with 3 players is tuned3(stop_at=8).",
        (), by_players={p: f"tuned{p}" for p in TUNED})


_tuned()
REGISTRY["expert"] = PolicyInfo(
    "expert", slots.EXPERT, "The expert of the player count in play: expert2, expert3 or expert4.",
    by_players={n: f"expert{n}" for n in (2, 3, 4)})
REGISTRY["search_expert"] = _preset(
    "search_expert", "search", "The search player with the expert as its own rollout player and "
    "as its model of the opponents", rollout_expert=1, model_expert=1)

_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


@dataclass(frozen=True)
class Policy:
    """A parsed spec: the registry entry and every parameter's value (defaults filled in)."""
    info: PolicyInfo
    values: tuple[tuple[str, float], ...]

    @property
    def spec(self) -> str:
        """Canonical spec string, all parameters spelled out (an alias such as `tuned`, whose
        player depends on the player count: only the parameters given)."""
        args = ",".join(f"{n}={format_value(v)}" for n, v in self.values)
        return f"{self.info.name}({args})" if args or (self.info.params and not self.info.alias) \
            else self.info.name

    @property
    def short(self) -> str:
        """The spec with only the parameters that differ from the defaults (for display)."""
        if self.info.alias:
            return self.spec
        args = ",".join(f"{n}={format_value(v)}" for (n, v), p in zip(self.values, self.info.params)
                        if v != p.default)
        return f"{self.info.name}({args})" if args else self.info.name

    def vector(self) -> np.ndarray:
        if self.info.alias:
            raise SeasaltError(f"{self.info.name!r} stands for one player per player count "
                               f"({', '.join(self.info.by_players.values())}): it needs the count")
        vec = np.zeros(slots.MAX_PARAMS, dtype=np.float64)
        if self.info.weights_for:
            vec[:slots.E_SIZE] = expert_weights(self.info.weights_for)
        for (name, value) in self.values:
            vec[self.info.param(name).slot] = value
        return vec


def format_value(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def parse_policy(spec: str, registry: dict[str, PolicyInfo] | None = None,
                 lister: str = "seasalt policies", players: int | None = None) -> Policy:
    """Parse `name` or `name(param=value,...)` against `registry` (default: Sea Salt & Paper's
    REGISTRY, which the command `lister` describes); unknown names, parameters or values
    raise. A name that stands for one player per player count (`tuned`) becomes that player
    when `players` is given, else it stays the alias (its parameters checked) until
    seat_policies resolves it."""
    registry = REGISTRY if registry is None else registry
    if not isinstance(spec, str):
        raise SeasaltError(f"a player must be given as text such as 'baseline(stop_at=8)', got "
                           f"{spec!r}")
    m = _SPEC.match(spec)
    if not m:
        raise SeasaltError(f"cannot parse policy spec {spec!r}; expected NAME or NAME(param=value,...)")
    name, args = m.group(1), m.group(2)
    if name not in registry:
        close = difflib.get_close_matches(name, sorted(registry), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise SeasaltError(f"unknown policy {name!r}{hint}; valid: {', '.join(sorted(registry))} "
                           f"('{lister}' describes them)")
    info = registry[name]
    # an alias takes the parameters of the players it stands for (checked against the first)
    pinfo = registry[next(iter(info.by_players.values()))] if info.alias else info
    values = {p.name: float(p.default) for p in pinfo.params}
    seen = set()
    for item in (args or "").split(","):
        if not item.strip():
            continue
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq:
            raise SeasaltError(f"policy {name!r}: expected param=value, got {item.strip()!r}")
        p = pinfo.param(key)
        if key in seen:
            raise SeasaltError(f"policy {name!r}: parameter {key!r} given twice")
        seen.add(key)
        try:
            value = float(raw)
        except ValueError:
            raise SeasaltError(f"policy {name!r}: {key}={raw.strip()!r} is not a number") from None
        if p.integer and not value.is_integer():
            raise SeasaltError(f"policy {name!r}: {key} must be a whole number, got {raw.strip()}")
        if not (p.low <= value <= p.high):
            raise SeasaltError(f"policy {name!r}: {key}={raw.strip()} is out of range "
                               f"[{format_value(p.low)}, {format_value(p.high)}]")
        values[key] = value
    if info.alias:
        if players is not None and players in info.by_players:
            given = ",".join(f"{p.name}={format_value(values[p.name])}" for p in pinfo.params
                             if p.name in seen)
            target = info.by_players[players]
            return parse_policy(f"{target}({given})" if given else target, registry)
        return Policy(info, tuple((p.name, values[p.name]) for p in pinfo.params
                                  if p.name in seen))
    return Policy(info, tuple((p.name, values[p.name]) for p in info.params))


def short_spec(spec: str) -> str:
    """Display form of a spec: the name and only its non-default parameters."""
    return parse_policy(spec).short


def seat_policies(specs: Sequence[str | Policy], players: int) -> list[Policy]:
    """One spec (or parsed policy) for every seat, or exactly one per seat."""
    if isinstance(specs, (str, Policy)) or not isinstance(specs, Iterable):
        fix = f": write [{specs!r}]" if isinstance(specs, str) else ""
        raise SeasaltError(f"policies must be a list (one player for every seat, or one per "
                           f"seat), got {specs!r}{fix}", param="policies")
    specs = list(specs)
    if not specs:
        specs = ["baseline"]
    if len(specs) == 1:
        specs = list(specs) * players
    if len(specs) != players:
        raise SeasaltError(f"give one --policy for all seats or one per seat: got {len(specs)} "
                           f"for {players} players")
    return [resolve(s, players) for s in specs]


def resolve(policy: str | Policy, players: int) -> Policy:
    """A spec parsed, or a parsed policy kept as it is, for `players` players (an alias such as
    `tuned` becomes its player for that count)."""
    if isinstance(policy, Policy):
        return parse_policy(policy.spec, players=players) if policy.info.alias else policy
    return parse_policy(policy, players=players)


def rollout_arrays(policies: list[Policy]) -> tuple[np.ndarray, np.ndarray] | tuple[None, None]:
    """For runs with search seats: (rpk int64[P, P], rpp float64[P, P, MAX_PARAMS]), row o the
    players search seat o rolls out with (for itself a threshold player with its rollout knobs,
    or the expert with rollout_expert=1; for the others its model knobs, or the expert with
    model_expert=1); (None, None) without search seats."""
    players = len(policies)
    if not any(p.info.kind == slots.SEARCH for p in policies):
        return None, None
    rpk = np.zeros((players, players), dtype=np.int64)
    rpp = np.zeros((players, players, slots.MAX_PARAMS), dtype=np.float64)
    for o, pol in enumerate(policies):
        if pol.info.kind != slots.SEARCH:
            continue
        v = dict(pol.values)
        me = parse_policy(f"expert{players}" if v["rollout_expert"] else
                          f"threshold(stop_at={format_value(v['rollout_stop_at'])},"
                          f"last_chance_at={format_value(v['rollout_last_chance_at'])})")
        them = parse_policy(f"expert{players}" if v["model_expert"] else
                            f"threshold(stop_at={format_value(v['model_stop_at'])},"
                            f"last_chance_at={format_value(v['model_last_chance_at'])})")
        k, pp = policy_arrays([me if q == o else them for q in range(players)])
        rpk[o], rpp[o] = k, pp
    return rpk, rpp


def kernel_kind(policy: Policy) -> int:
    """The compiled kind that plays `policy`. A threshold player whose knobs other than stop_at
    and last_chance_at have the threshold's own defaults makes every decision the baseline with
    those two makes (kernels/heuristics.py; the margin default 99 is beyond any lead), so the
    baseline's shorter kernel plays it (tests/rules/test_threshold.py compares their counters)."""
    if policy.info.kind == slots.THRESHOLD and not policy.info.alias:
        defaults = {p.name: float(p.default) for p in REGISTRY["threshold"].params}
        if all(v == defaults[n] for n, v in policy.values
               if n not in ("stop_at", "last_chance_at")):
            return slots.BASELINE
    return policy.info.kind


def policy_arrays(policies: list[Policy]) -> tuple[np.ndarray, np.ndarray]:
    """(kinds int64[P], params float64[P, MAX_PARAMS]) for the kernels (kernel_kind: the
    baseline's slots for stop_at and last_chance_at are the threshold's)."""
    assert (slots.T_STOP_AT, slots.T_LAST_CHANCE_AT) == (slots.STOP_AT, slots.LAST_CHANCE_AT)
    kinds = np.array([kernel_kind(p) for p in policies], dtype=np.int64)
    params = np.stack([p.vector() for p in policies])
    return kinds, params


def uses_expert(policy: Policy) -> bool:
    """The player is the expert, or a search player that rolls out or models with it."""
    v = dict(policy.values)
    return policy.info.kind == slots.EXPERT or (policy.info.kind == slots.SEARCH and bool(
        v.get("rollout_expert") or v.get("model_expert")))


def expert_meta(policies: Sequence[Policy]) -> dict:
    """{"expert_weights": hash of the weights file} for a run any of whose players uses the
    expert (its metadata then names the weights it played with), else {}."""
    return {"expert_weights": weights_hash()} if any(map(uses_expert, policies)) else {}


def check_models(pols: Sequence[Policy]) -> None:
    """The models that play on after a decision must be bots (the engine asks them itself)."""
    for p in pols:
        if p.info.kind in slots.EXTERNAL_KINDS:
            raise SeasaltError(f"{p.info.name!r} cannot continue a deal: only bots "
                               "can (baseline, threshold, presets, random)")


def check_readable(spec: str) -> None:
    """Hand reading reads a model that draws no random number (kernels.reading_kinds)."""
    if parse_policy(spec).info.kind not in READABLE_KINDS:
        names = ", ".join(n for n, i in REGISTRY.items()
                          if i.kind in READABLE_KINDS and not n[-1].isdigit())
        raise SeasaltError(f"{spec!r} cannot be read (its choices draw random numbers); "
                           f"read as one of {names}")


def check_tremble(tremble: float) -> None:
    """The reading model's tremble is a probability: 0.001 .. 1 (1: no reading)."""
    if not slots.MIN_TREMBLE <= tremble <= 1:
        raise SeasaltError(f"--tremble must be between {slots.MIN_TREMBLE} and 1, got {tremble}")


def review_models(pols: Sequence[Policy], players: int) -> list[Policy]:
    """The players a review continues a deal with: each seat's own bot, a search seat the
    expert (distilled from the search player: only compiled bots continue a deal)."""
    return [resolve("expert", players) if p.info.kind == slots.SEARCH else p for p in pols]


def check_review_options(spec, seat: int, samples: int, reading: str,
                         tremble: float | None) -> None:
    """A review's options against its game's spec (analyzer.runs.spec.RunSpec): the seat, the
    samples, bots to play on (a search seat's: the expert), and the hand reading's model and
    tremble."""
    check_review(spec.players, seat, samples)
    models = review_models(list(spec.policies), spec.players)
    check_models(models)
    reading_models(reading, tremble, *policy_arrays(models), spec.players)


def reading_models(reading: str, tremble: float | None, pk: np.ndarray, pp: np.ndarray,
                   players: int) -> tuple[tuple | None, dict | None, float]:
    """A review's hand reading, checked: the models the opponents are read with (None: "off";
    "own": the seats' own pk/pp; else every seat as that policy spec), the review's `reading`
    entry and the tremble (None: the default)."""
    tremble = slots.DEFAULT_TREMBLE if tremble is None else tremble
    check_tremble(tremble)
    if reading == "off":
        return None, None, tremble
    if reading == "own":
        return (pk, pp), {"model": "own", "tremble": tremble}, tremble
    pol = seat_policies([reading], players)
    return policy_arrays(pol), {"model": pol[0].spec, "tremble": tremble}, tremble


def split_models(text: str) -> list[str]:
    """Several player specs in one option value: commas outside parentheses separate them
    (`baseline,threshold(stop_at=9,last_chance_at=8)` is two)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    if any(not s for s in out):
        raise SeasaltError(f"empty player spec in {text!r}; separate specs with commas")
    return out


def models(values: Sequence[str]) -> list[str]:
    """The specs of repeated and comma-separated option values, in order, each once."""
    out: list[str] = []
    for v in values:
        for s in split_models(v):
            if s not in out:
                out.append(s)
    return out
