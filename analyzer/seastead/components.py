"""Seastead's components as data: the file format, its validator, and the compiled array.

A components file (TOML, or JSON with the same structure) lists the 20 dive cards, the 4
flotilla tiles with both sides, the 12 dock tiles, the 16 specialists, the 16 decrees and the
setup values; effects are written in a small vocabulary (EFFECTS). `SCHEMA` (JSON Schema,
printed by `seasalt seastead components --schema`) is the structure; `load` checks a file
against it and against the rules' counts and ranges, and reports every problem as one line
(ComponentsError.problems), then compiles the array the kernels read
(kernels.seastead.layout, CP_*). The shipped set (illustrative.toml) is invented.
"""
from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import stat
import sys
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from kernels.seastead import layout as L

from ..base.errors import SeasaltError
from .schema_check import check_schema

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RESOURCES = ("fish", "artifact", "kelp", "metal")
ICONS = RESOURCES + ("any",)
GROUPS = {"shallows": (L.SHALLOWS, 4), "shelf": (L.SHELF, 12), "depths": (L.DEPTHS, 4)}
BUILDINGS = L.BUILDING_NAMES
SECTIONS = {"-": -1, "port": L.PORT, "academy": L.ACADEMY, "shipyard": L.SHIPYARD,
            "any": L.SECTION_ANY}
USES = {"dive": L.USE_DIVE, "build": L.USE_BUILD, "both": L.USE_BOTH}
REACTS = {"none": L.REACT_NONE, "opponent_build": L.REACT_BUILD, "opponent_dive": L.REACT_DIVE}
DECREE_ON = {"build": L.ON_BUILD, "port": L.ON_PORT, "academy": L.ON_ACADEMY,
             "shipyard": L.ON_SHIPYARD, "dive": L.ON_DIVE}
WHO = {"active": L.WHO_ACTIVE, "both": L.WHO_BOTH}
COUNTS = {"dive": L.NDIVE, "flotilla": L.NF, "dock": L.NDOCK, "specialist": L.NSPEC,
          "decree": L.NDECREE}
MIN_COST, MAX_COST = 2, 6
MAX_N = 5                      # the largest N an effect may carry

# The effect vocabulary: "VERB [ARGUMENT] [N]" (N defaults to 1).
# verb: (op, argument kind, meaning)
EFFECTS = {
    "gain": (L.OP_GAIN, "resource", "take N of a resource (or `any`: N choices) from the supply"),
    "cleanup": (L.OP_CLEANUP, None, "take N cleanup tokens (a shortfall is recorded)"),
    "discount": (L.OP_DISCOUNT, None, "pay N less for the build being paid for, else for your "
                                     "next build"),
    "move_ship": (L.OP_MOVE_SHIP, None, "move up to N of your ships, one by one, to empty "
                                       "locations"),
    "move_building": (L.OP_MOVE_BUILDING, "types", "move N of your buildings of the listed "
                                                   "types (academy, shipyard) to empty "
                                                   "locations: no location effect, and a ship "
                                                   "there moves without discount or bonus"),
    "extra_action": (L.OP_EXTRA_ACTION, None, "take N more actions this turn"),
    "decree": (L.OP_DECREE, None, "draw 2 decrees: one enters (replacing the one in force), "
                                  "the other goes under the deck (B sides only)"),
    "swap_demand": (L.OP_SWAP_DEMAND, None, "the column bonus: swap two unlocked demand tokens "
                                            "and lock one of them"),
    "refresh": (L.OP_REFRESH, None, "turn one of your spent specialists face up"),
}

_RES_LIST = {"type": "array", "items": {"enum": list(ICONS)}, "maxItems": 10}
_EFFECT_LIST = {"type": "array", "items": {"type": "string"}, "maxItems": L.MAX_EFFECTS}
_SIDE = {
    "type": "object", "required": ["locations", "docks"], "additionalProperties": False,
    "properties": {
        "locations": {"type": "array", "minItems": L.NL, "maxItems": L.NL, "items": {
            "type": "object", "required": ["cost"], "additionalProperties": False,
            "properties": {"cost": {"type": "integer", "minimum": MIN_COST, "maximum": MAX_COST},
                           "effects": _EFFECT_LIST,
                           "mandatory": {"type": "boolean"}}}},
        "docks": {"type": "array", "maxItems": L.MAX_SLOTS, "items": {
            "type": "array", "minItems": 4, "maxItems": 4,
            "items": {"type": "integer", "minimum": -1, "maximum": L.NL - 1}}},
    }}
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Seastead components",
    "type": "object", "required": ["meta", "setup", "dive", "flotilla", "dock", "specialist",
                                   "decree"],
    "additionalProperties": False,
    "properties": {
        "meta": {"type": "object", "required": ["name", "invented"], "additionalProperties": False,
                 "properties": {"name": {"type": "string", "minLength": 1},
                                "invented": {"type": "boolean"},
                                "notes": {"type": "string"}}},
        "setup": {"type": "object", "additionalProperties": False,
                  "required": ["start_resources"],
                  "properties": {
                      "start_resources": {"type": "array", "minItems": 2, "maxItems": 2,
                                          "items": _RES_LIST},
                      "solo_extra_resources": _RES_LIST,
                      "specialist_display": {"type": "integer", "minimum": 1,
                                             "maximum": L.MAX_SPEC_DISPLAY},
                      "dock_display": {"type": "integer", "minimum": 1, "maximum": L.MAX_DISPLAY},
                      "cleanup_tokens": {"type": "integer", "minimum": 1, "maximum": 100},
                      "resources_per_type": {"type": "integer", "minimum": 1, "maximum": 100},
                      "dock_resource_max": {"type": "integer", "minimum": 0, "maximum": 10},
                      "boss_base_points": {"type": "integer", "minimum": 0, "maximum": 200},
                      "boss_points_per_building": {"type": "integer", "minimum": 0,
                                                   "maximum": 20},
                      "cleanup_shortfall_scores": {"type": "boolean"}}},
        "dive": {"type": "array", "minItems": L.NDIVE, "maxItems": L.NDIVE, "items": {
            "type": "object", "required": ["group", "halves"], "additionalProperties": False,
            "properties": {"group": {"enum": list(GROUPS)},
                           "halves": {"type": "array", "minItems": 2, "maxItems": 2,
                                      "items": _RES_LIST}}}},
        "flotilla": {"type": "array", "minItems": L.NF, "maxItems": L.NF, "items": {
            "type": "object", "required": ["name", "a", "b"], "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1}, "a": _SIDE, "b": _SIDE}}},
        "dock": {"type": "array", "minItems": L.NDOCK, "maxItems": L.NDOCK, "items": {
            "type": "object", "required": ["name", "resource", "sections", "points"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1},
                           "resource": {"enum": list(RESOURCES)},
                           "sections": {"type": "array", "minItems": 4, "maxItems": 4,
                                        "items": {"enum": list(SECTIONS)}},
                           "points": {"type": "integer", "minimum": 0, "maximum": 10}}}},
        "specialist": {"type": "array", "minItems": L.NSPEC, "maxItems": L.NSPEC, "items": {
            "type": "object", "required": ["name", "points", "use", "effects"],
            "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1},
                           "points": {"type": "integer", "minimum": 0, "maximum": 10},
                           "use": {"enum": list(USES)},
                           "react": {"enum": list(REACTS)},
                           "solo": {"type": "boolean"},
                           "effects": _EFFECT_LIST}}},
        "decree": {"type": "array", "minItems": L.NDECREE, "maxItems": L.NDECREE, "items": {
            "type": "object", "required": ["name", "on", "effects"], "additionalProperties": False,
            "properties": {"name": {"type": "string", "minLength": 1},
                           "on": {"enum": list(DECREE_ON)},
                           "who": {"enum": list(WHO)},
                           "effects": _EFFECT_LIST}}},
    },
}
SETUP_DEFAULTS = {"solo_extra_resources": ["any"], "specialist_display": 3, "dock_display": 3,
                  "cleanup_tokens": 20, "resources_per_type": 10, "dock_resource_max": 3,
                  "boss_base_points": 20, "boss_points_per_building": 3,
                  "cleanup_shortfall_scores": True}


MAX_BYTES = 4 << 20             # a components file is a few kB
MAX_PROBLEMS = 10               # lines printed; the rest counted on one more line


class ComponentsError(SeasaltError):
    """A components file with problems: one line per problem in `problems` (at most
    MAX_PROBLEMS, then one line that counts the rest)."""

    def __init__(self, problems: list[str]):
        if len(problems) > MAX_PROBLEMS + 1:
            source = problems[0].split(": ", 1)[0]
            problems = problems[:MAX_PROBLEMS] + [
                f"{source}: and {len(problems) - MAX_PROBLEMS:,} more problems like these"]
        self.problems = problems
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(problems[0] + more)


@dataclass
class Components:
    """A validated components set: its data, its names and the compiled array for the kernels."""
    name: str
    invented: bool
    source: str                 # the file, or "illustrative" for the shipped set
    sha256: str                 # of the file's bytes
    data: dict
    cp: np.ndarray = field(repr=False)

    @property
    def label(self) -> str:
        """How every output names the set."""
        tag = "INVENTED, not the published cards" if self.invented else "transcribed by their owner"
        return f"{self.name} - {tag}"

    def names(self, what: str) -> list[str]:
        return [x["name"] for x in self.data[what]]

    def dive_label(self, card: int) -> str:
        c = self.data["dive"][card]
        return f"{c['group']} #{card} [{' '.join(c['halves'][0])} | {' '.join(c['halves'][1])}]"

    def meta(self) -> dict:
        return {"components": self.name, "components_invented": self.invented,
                "components_sha256": self.sha256, "components_source": self.source}


# ---------------------------------------------------------------------------------------------
# effects

def parse_effect(text: str) -> tuple[int, int, int]:
    """An effect string as (op, argument, n); raises ValueError with the reason."""
    words = str(text).split()
    if not words:
        raise ValueError("empty effect")
    verb = words[0]
    if verb not in EFFECTS:
        raise ValueError(f"unknown effect {verb!r} (valid: {', '.join(EFFECTS)})")
    op, arg_kind, _ = EFFECTS[verb]
    rest = words[1:]
    arg = 0
    if arg_kind == "resource":
        if not rest or rest[0] not in ICONS:
            raise ValueError(f"{verb!r} needs a resource: {', '.join(ICONS)}")
        arg = ICONS.index(rest[0])
        rest = rest[1:]
    elif arg_kind == "types":
        kinds = rest[0].split(",") if rest else []
        if not kinds or any(k not in ("academy", "shipyard") for k in kinds):
            raise ValueError(f"{verb!r} needs building types among academy, shipyard "
                             f"(comma-separated), got {rest[0] if rest else 'none'!r}")
        arg = sum(1 << BUILDINGS.index(k) for k in kinds)
        rest = rest[1:]
    n = 1
    if rest:
        if len(rest) > 1 or not rest[0].isdigit():
            raise ValueError(f"cannot read {text!r}: expected {verb}"
                             f"{' ARGUMENT' if arg_kind else ''} [N]")
        n = int(rest[0])
        if not (1 <= n <= MAX_N):
            raise ValueError(f"{text!r}: N must be between 1 and {MAX_N}")
    return op, arg, n


def _effects(items: list, where: str, problems: list[str]) -> list[tuple[int, int, int]]:
    out = []
    for i, text in enumerate(items):
        try:
            out.append(parse_effect(text))
        except ValueError as e:
            problems.append(f"{where}.effects[{i + 1}]: {e}")
    return out


def _res_counts(items: list) -> list[int]:
    counts = [0] * 5
    for x in items:
        counts[ICONS.index(x)] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# loading and compiling

def _dive_checks(data: dict, problems: list[str]) -> None:
    groups = {g: 0 for g in GROUPS}
    for i, card in enumerate(data["dive"]):
        groups[card["group"]] += 1
        h0, h1 = card["halves"]
        if not h0 and not h1:
            problems.append(f"dive[{i + 1}]: both halves are empty")
        elif sorted(h0) == sorted(h1):
            problems.append(f"dive[{i + 1}]: its two halves show the same resources")
    for g, (_, want) in GROUPS.items():
        if groups[g] != want:
            problems.append(f"dive: expected {want} {g} cards, got {groups[g]}")


def _flotilla_checks(data: dict, problems: list[str]) -> None:
    for i, tile in enumerate(data["flotilla"]):
        for side in ("a", "b"):
            sd = tile[side]
            where = f"flotilla[{i + 1}].{side}"
            for j, loc in enumerate(sd["locations"]):
                _effects(loc.get("effects", []), f"{where}.locations[{j + 1}]", problems)
                if loc.get("mandatory") and not loc.get("effects"):
                    problems.append(f"{where}.locations[{j + 1}]: mandatory without effects")
            for k, slot in enumerate(sd["docks"]):
                used = [x for x in slot if x >= 0]
                if not used:
                    problems.append(f"{where}.docks[{k + 1}]: no location (use -1 only for "
                                    f"unused sections)")
                if len(set(used)) != len(used):
                    problems.append(f"{where}.docks[{k + 1}]: a location appears twice")


def _card_checks(data: dict, problems: list[str]) -> None:
    for what in ("specialist", "decree"):
        seen = set()
        for i, item in enumerate(data[what]):
            where = f"{what}[{i + 1}] {item['name']!r}"
            effs = _effects(item["effects"], where, problems)
            if not item["effects"]:
                problems.append(f"{where}: no effects")
            if item["name"] in seen:
                problems.append(f"{where}: the name is used twice")
            seen.add(item["name"])
            off_turn = (item.get("react", "none") != "none" if what == "specialist"
                        else item.get("who", "active") == "both")
            if off_turn and any(op == L.OP_EXTRA_ACTION for op, _, _ in effs):
                problems.append(f"{where}: an extra action cannot be given off one's turn (a "
                                f"reacting specialist, a decree for both players)")


# The specialists the rules text names (English and Turkish names, matched as words of a card's
# name, any case) and what it says about them: four leave the game in solo ("Kurucu
# (Founder)/Tüccar (Trawler)/Yatırımcı (Investor)/Ajan (Agent) uzman kartları ... kutudan
# çıkarılır"), Investor and Agent alone may be used on the opponent's turn ("istisna olarak
# ... sıra sizde değilken de kullanılabilir"), Wrecker and Architect move academies and
# shipyards ("akademi/tersane binalarını -limanları değil- taşımanıza izin verir").
NAMED_SPECIALISTS = {"Founder": ("founder", "kurucu"), "Trawler": ("trawler", "tüccar"),
                     "Investor": ("investor", "yatırımcı"), "Agent": ("agent", "ajan"),
                     "Wrecker": ("wrecker",), "Architect": ("architect",)}
SOLO_REMOVED = ("Founder", "Trawler", "Investor", "Agent")
OFF_TURN = ("Investor", "Agent")
MOVERS = ("Wrecker", "Architect")


def named_specialist(name: str) -> str | None:
    """Which specialist of NAMED_SPECIALISTS a card's name is, if any."""
    words = set(re.findall(r"\w+", str(name).casefold()))
    for canon, aliases in NAMED_SPECIALISTS.items():
        if words & set(aliases):
            return canon
    return None


def _named_checks(data: dict, problems: list[str]) -> None:
    """The specialists the text names are there, once each, and do what it says of them; no
    other card leaves in solo or reacts off-turn."""
    found: dict[str, int] = {}
    for i, sp in enumerate(data["specialist"]):
        canon = named_specialist(sp["name"])
        where = f"specialist[{i + 1}] {sp['name']!r}"
        if canon is not None:
            found[canon] = found.get(canon, 0) + 1
        if canon in SOLO_REMOVED and sp.get("solo", True):
            problems.append(f"{where}: the solo mode removes {canon} from the game (solo = false)")
        elif canon not in SOLO_REMOVED and not sp.get("solo", True):
            problems.append(f"{where}: only {', '.join(SOLO_REMOVED)} leave the game in solo "
                            f"(solo = true, or leave it out)")
        reacts = sp.get("react", "none") != "none"
        if canon in OFF_TURN and not reacts:
            problems.append(f"{where}: {canon} may be used on the opponent's turn (react = "
                            f"opponent_build or opponent_dive)")
        elif canon not in OFF_TURN and reacts:
            problems.append(f"{where}: only {' and '.join(OFF_TURN)} react to the opponent's "
                            f"action (react = none, or leave it out)")
        if canon in MOVERS and not any(op == L.OP_MOVE_BUILDING for op, _, _ in
                                       _effects(sp["effects"], where, [])):
            problems.append(f"{where}: {canon} moves an academy or a shipyard (an effect "
                            f"move_building academy,shipyard)")
    for canon, aliases in NAMED_SPECIALISTS.items():
        if found.get(canon, 0) != 1:
            problems.append(f"specialist: the rules name {canon} ({'/'.join(aliases)}): expected "
                            f"one card so named, got {found.get(canon, 0)}")


def _semantic(data: dict, problems: list[str]) -> None:
    """Checks beyond the structure: group counts, distinct halves, effects, dock slots, names.
    Each part runs as far as the structure allows, so one file's problems are listed together."""
    for part in (_dive_checks, _flotilla_checks, _card_checks, _named_checks):
        try:
            part(data, problems)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass                          # the structural check has reported why


def _compile(data: dict) -> np.ndarray:
    cp = np.zeros(L.CP_SIZE, dtype=np.int32)
    for c, card in enumerate(data["dive"]):
        cp[L.DV_GROUP + c] = GROUPS[card["group"]][0]
        for h in range(2):
            cp[L.DV_HALF + (c * 2 + h) * 5:L.DV_HALF + (c * 2 + h) * 5 + 5] = \
                _res_counts(card["halves"][h])
    lists = np.zeros((L.MAX_LISTS, L.MAX_EFFECTS, 3), dtype=np.int32)
    lens = np.zeros(L.MAX_LISTS, dtype=np.int32)

    def put(lid: int, effects: list[str]) -> None:
        for r, text in enumerate(effects):
            lists[lid, r] = parse_effect(text)
        lens[lid] = len(effects)

    cp[L.FL_SLOT:L.FL_SLOT + L.NF * 2 * L.MAX_SLOTS * 4] = -1
    for f, tile in enumerate(data["flotilla"]):
        for sd, side in enumerate(("a", "b")):
            base = f * 2 + sd
            for i, loc in enumerate(tile[side]["locations"]):
                cp[L.FL_COST + base * L.NL + i] = loc["cost"]
                cp[L.FL_MAND + base * L.NL + i] = int(loc.get("mandatory", False))
                put(L.LIST_LOC + base * L.NL + i, loc.get("effects", []))
            for k, slot in enumerate(tile[side]["docks"]):
                at = L.FL_SLOT + (base * L.MAX_SLOTS + k) * 4
                cp[at:at + 4] = slot
    for d, dock in enumerate(data["dock"]):
        cp[L.DK_RES + d] = RESOURCES.index(dock["resource"])
        cp[L.DK_SEC + d * 4:L.DK_SEC + d * 4 + 4] = [SECTIONS[x] for x in dock["sections"]]
        cp[L.DK_PTS + d] = dock["points"]
    for i, sp in enumerate(data["specialist"]):
        cp[L.SP_PTS + i] = sp["points"]
        cp[L.SP_USE + i] = USES[sp["use"]]
        cp[L.SP_REACT + i] = REACTS[sp.get("react", "none")]
        cp[L.SP_SOLO + i] = int(sp.get("solo", True))
        put(L.LIST_SPEC + i, sp["effects"])
    for i, dc in enumerate(data["decree"]):
        cp[L.DC_ON + i] = DECREE_ON[dc["on"]]
        cp[L.DC_WHO + i] = WHO[dc.get("who", "active")]
        put(L.LIST_DECREE + i, dc["effects"])
    su = {**SETUP_DEFAULTS, **data["setup"]}
    for p in range(2):
        cp[L.SU_START + 5 * p:L.SU_START + 5 * p + 5] = _res_counts(su["start_resources"][p])
    cp[L.SU_SOLO_EXTRA:L.SU_SOLO_EXTRA + 5] = _res_counts(su["solo_extra_resources"])
    for key, at in (("specialist_display", L.SU_SPEC_DISPLAY), ("dock_display", L.SU_DOCK_DISPLAY),
                    ("cleanup_tokens", L.SU_CLEANUP), ("resources_per_type", L.SU_RES_PER_TYPE),
                    ("dock_resource_max", L.SU_DOCK_MAX), ("boss_base_points", L.SU_BOSS_BASE),
                    ("boss_points_per_building", L.SU_BOSS_PER),
                    ("cleanup_shortfall_scores", L.SU_SHORT_SCORES)):
        cp[at] = int(su[key])
    cp[L.EF_LEN:L.EF_LEN + L.MAX_LISTS] = lens
    cp[L.EF:L.EF + lists.size] = lists.ravel()
    return cp


def from_dict(data, source: str, sha256: str) -> Components:
    """Validate parsed data (a TOML or JSON document) and compile it."""
    problems: list[str] = []
    check_schema(data, SCHEMA, [], problems)
    if isinstance(data, dict):
        _semantic(data, problems)
    if not problems:
        su = {**SETUP_DEFAULTS, **data["setup"]}
        need = max(sum(1 for x in r if x != "any") for r in su["start_resources"])
        if need > su["resources_per_type"]:
            problems.append("setup.start_resources: more resources than the supply holds")
    if problems:
        raise ComponentsError([f"{source}: {p}" for p in problems])
    data = {**data, "setup": {**SETUP_DEFAULTS, **data["setup"]}}
    return Components(data["meta"]["name"], data["meta"]["invented"], source, sha256, data,
                      _compile(data))


def illustrative_text() -> str:
    """The shipped, invented component set (also the `--template`)."""
    return resources.files(__package__).joinpath("illustrative.toml").read_text(encoding="utf-8")


def _read(p: pathlib.Path, path: str) -> bytes:
    """The bytes of a components file: a regular file (a link to one is fine) of at most
    MAX_BYTES, read no further than that (a link to /dev/zero, a pipe: refused, never read
    without end)."""
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise SeasaltError(f"--components {path!r}: cannot read: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SeasaltError(f"--components {path!r}: not a regular file")
            raw = f.read(MAX_BYTES + 1)
        except OSError as e:
            raise SeasaltError(f"--components {path!r}: cannot read: {e.strerror or e}") \
                from None
    if len(raw) > MAX_BYTES:
        raise SeasaltError(f"--components {path!r}: over {MAX_BYTES >> 20} MiB; a components "
                           f"file is a few kB")
    return raw


def load(path: str | None = None) -> Components:
    """The components file at `path` (.toml or .json), or the shipped illustrative set."""
    if path is None:
        text = illustrative_text()
        raw, source, fmt = text.encode(), "illustrative", ".toml"
    else:
        p = pathlib.Path(path)
        fmt = p.suffix.lower()
        if fmt not in (".toml", ".json"):
            raise SeasaltError(f"--components {path!r}: expected a .toml or .json file")
        raw = _read(p, path)
        source = str(path)
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text) if fmt == ".toml" else json.loads(text)
    except UnicodeDecodeError:
        raise SeasaltError(f"{source}: not UTF-8 text") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise ComponentsError([f"{source}: not valid {fmt[1:].upper()}: {e}"]) from None
    except RecursionError:
        raise ComponentsError([f"{source}: not valid {fmt[1:].upper()}: nested too deeply"]) \
            from None
    except ValueError as e:                 # e.g. an integer of more than 4300 digits
        raise ComponentsError([f"{source}: not valid {fmt[1:].upper()}: "
                               f"{' '.join(str(e).split())[:120]}"]) from None
    return from_dict(data, source, hashlib.sha256(raw).hexdigest())


# ---------------------------------------------------------------------------------------------
# game configurations

@dataclass(frozen=True)
class Setup:
    """A game configuration: solo or not, the side of each tile, the starting decree."""
    solo: bool = False
    sides: str = "AAAA"
    decree: str | None = None

    def array(self, comps: Components) -> np.ndarray:
        """cfg for kernels.seastead.engine.setup; validates against the rules' variants."""
        sides = self.sides.upper()
        if len(sides) != L.NF or set(sides) - {"A", "B"}:
            raise SeasaltError(f"--sides must be 4 letters A or B (one per flotilla tile, in "
                               f"the components' order), got {self.sides!r}")
        nb = sides.count("B")
        if nb == 1:
            raise SeasaltError("--sides: mixing A and B sides needs at least 2 B sides "
                               "(advanced rules)")
        if self.solo and nb:
            raise SeasaltError("solo mode uses the A sides only (--sides AAAA)")
        decree = -1
        if self.decree is not None:
            if not nb:
                raise SeasaltError("--decree applies only with B sides (decrees are used with "
                                   "them only)")
            names = comps.names("decree")
            if self.decree not in names:
                raise SeasaltError(f"unknown decree {self.decree!r}; valid: {', '.join(names)}")
            decree = names.index(self.decree)
        return np.array([int(self.solo)] + [int(c == "B") for c in sides] + [decree],
                        dtype=np.int64)

    def describe(self) -> str:
        if self.solo:
            return "solo against the Rebel Seastead (A sides)"
        text = f"2 players, sides {self.sides.upper()}"
        return text + (f", starting decree {self.decree}" if self.decree else "")
