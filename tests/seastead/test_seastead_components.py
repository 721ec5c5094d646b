"""Seastead components files: the shipped (invented) set loads and is labelled as invented, the
template and a JSON copy load to the same components, and every malformed file is refused with
one `error:` line per problem and exit status 2, through the real console script."""
from __future__ import annotations

import copy
import json
import os
import subprocess

import pytest
from click.testing import CliRunner

from analyzer.faces.cli import main
from analyzer.seastead.components import (SCHEMA, ComponentsError, Setup, from_dict,
                                          illustrative_text, load, parse_effect)
from kernels.seastead import layout as L

from cli_helpers import SEASALT


@pytest.fixture
def data():
    return copy.deepcopy(load().data)


def problems(data) -> list[str]:
    with pytest.raises(ComponentsError) as e:
        from_dict(data, "x.toml", "0" * 64)
    return e.value.problems


def test_illustrative_set_loads_and_says_it_is_invented():
    c = load()
    assert c.invented and "INVENTED" in c.label and "invented" in c.name.lower()
    assert "INVENTED" in illustrative_text().split("\n", 5)[3] or "INVENTED" in illustrative_text()[:400]
    d = c.data
    assert [len(d[k]) for k in ("dive", "flotilla", "dock", "specialist", "decree")] == [20, 4, 12, 16, 16]
    assert [sum(1 for x in d["dive"] if x["group"] == g) for g in ("shallows", "shelf", "depths")] == [4, 12, 4]
    assert {"Founder", "Trawler", "Investor", "Agent", "Wrecker", "Architect"} <= set(c.names("specialist"))
    for tile in d["flotilla"]:
        for side in "ab":
            costs = [x["cost"] for x in tile[side]["locations"]]
            assert len(costs) == 6 and min(costs) >= 2 and max(costs) <= 6


def test_compiled_array_holds_the_file(data):
    c = load()
    assert c.cp[L.FL_COST + (1 * 2 + 0) * L.NL + 2] == data["flotilla"][1]["a"]["locations"][2]["cost"]
    assert list(c.cp[L.DV_HALF + (4 * 2) * 5:L.DV_HALF + (4 * 2) * 5 + 5]) == [2, 0, 1, 0, 0]
    assert c.cp[L.SP_PTS + 10] == data["specialist"][10]["points"]
    lid = L.LIST_SPEC + 0                                   # Founder: discount 2
    assert c.cp[L.EF_LEN + lid] == 1
    assert list(c.cp[L.EF + lid * L.MAX_EFFECTS * 3:L.EF + lid * L.MAX_EFFECTS * 3 + 3]) == \
        [L.OP_DISCOUNT, 0, 2]


def test_json_copy_and_template_load_to_the_same_components(tmp_path, data):
    j = tmp_path / "box.json"
    j.write_text(json.dumps(data))
    assert (load(str(j)).cp == load().cp).all()
    t = tmp_path / "box.toml"
    r = CliRunner().invoke(main, ["seastead", "components", "--template"])
    t.write_text(r.stdout)
    assert r.exit_code == 0 and (load(str(t)).cp == load().cp).all()


def test_effect_vocabulary():
    assert parse_effect("gain any 2") == (L.OP_GAIN, 4, 2)
    assert parse_effect("gain kelp") == (L.OP_GAIN, 2, 1)
    assert parse_effect("move_building academy,shipyard") == (L.OP_MOVE_BUILDING, 6, 1)
    assert parse_effect("cleanup 3") == (L.OP_CLEANUP, 0, 3)
    for bad in ("gian fish", "gain", "gain gold", "cleanup 9", "move_building port", "discount x"):
        with pytest.raises(ValueError):
            parse_effect(bad)


@pytest.mark.parametrize("break_it, words", [
    (lambda d: d["specialist"][3].pop("use"), ["specialist[4]", "missing field 'use'"]),
    (lambda d: d["flotilla"][0]["a"]["locations"][2].update(cost=7), ["flotilla[1].a.locations[3].cost", "out of range [2, 6]"]),
    (lambda d: d["flotilla"][2]["b"]["locations"][0].update(cost=1), ["out of range"]),
    (lambda d: d["specialist"][5]["effects"].append("teleport 2"), ["unknown effect 'teleport'"]),
    (lambda d: d["decree"][0].update(effects=["gain gold"]), ["decree[1]", "needs a resource"]),
    (lambda d: d["dive"][0].update(halves=[["fish", "kelp"], ["kelp", "fish"]]), ["same resources"]),
    (lambda d: d["dock"].append(d["dock"][0]), ["dock: expected exactly 12"]),
    (lambda d: d["dock"][0].update(sections=["port", "pier", "-", "-"]), ["'pier' is not one of"]),
    (lambda d: d["meta"].pop("invented"), ["missing field 'invented'"]),
    (lambda d: d.update(extra=1), ["unknown field 'extra'"]),
    (lambda d: d["setup"].update(dock_display=9), ["setup.dock_display", "out of range"]),
    (lambda d: d["specialist"][3]["effects"].append("extra_action"), ["off one's turn"]),
    (lambda d: d["decree"][0]["effects"].append("extra_action"), ["decree[1]", "off one's turn"]),
    (lambda d: d["flotilla"][0]["a"]["docks"][0].__setitem__(1, 6), ["out of range [-1, 5]"]),
    (lambda d: d["setup"].update(specialist_display=17), ["specialist_display", "[1, 16]"]),
    # the specialists the rules text names, and what it says of them
    (lambda d: d["specialist"][0].update(solo=True), ["'Founder'", "solo mode removes Founder"]),
    (lambda d: d["specialist"][6].update(solo=False),
     ["specialist[7] 'Navigator'", "only Founder, Trawler, Investor, Agent leave"]),
    (lambda d: d["specialist"][2].pop("react"), ["'Investor'", "on the opponent's turn"]),
    (lambda d: d["specialist"][6].update(react="opponent_dive"),
     ["'Navigator'", "only Investor and Agent react"]),
    (lambda d: d["specialist"][4].update(effects=["cleanup 1"]),
     ["'Wrecker'", "moves an academy or a shipyard"]),
    (lambda d: d["specialist"][5].update(name="Builder"), ["the rules name Architect", "got 0"]),
])
def test_validator_names_each_problem(data, break_it, words):
    break_it(data)
    got = problems(data)
    assert len(got) == 1, got
    for w in words:
        assert w in got[0], (w, got[0])


def test_named_specialists_match_their_turkish_names_too(data):
    for i, name in ((0, "Kurucu"), (1, "TÜCCAR"), (2, "Yatırımcı (Investor)"), (3, "Ajan")):
        data["specialist"][i]["name"] = name
    assert (from_dict(data, "x.toml", "0" * 64).cp == load().cp).all()
    data["specialist"][7]["name"] = "Founder's Heir"          # a second Founder
    assert any("the rules name Founder" in p and "got 2" in p for p in problems(data))


def test_group_counts(data):
    data["dive"][0]["group"] = "shelf"
    assert problems(data) == ["x.toml: dive: expected 4 shallows cards, got 3",
                              "x.toml: dive: expected 12 shelf cards, got 13"]
    data["dive"][0]["group"] = "shallows"
    data["dive"].pop()
    assert problems(data) == ["x.toml: dive: expected exactly 20 entries, got 19",
                              "x.toml: dive: expected 4 depths cards, got 3"]


def test_several_problems_give_one_line_each_through_the_console_script(tmp_path, data):
    data["flotilla"][0]["a"]["locations"][0]["cost"] = 9
    data["specialist"][0]["effects"] = ["summon kraken"]
    data["dock"][0]["resource"] = "gold"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    r = subprocess.run([SEASALT, "seastead", "components", "--components", str(path)],
                       capture_output=True, text=True, env={**os.environ, "COLUMNS": "100"})
    lines = r.stderr.splitlines()
    assert r.returncode == 2 and r.stdout == "" and len(lines) == 3, r.stderr
    assert all(x.startswith(f"error: {path}: ") for x in lines)
    assert "Traceback" not in r.stderr
    # every command that takes --components refuses it the same way, before running anything
    r = subprocess.run([SEASALT, "seastead", "simulate", "--games", "10", "--components", str(path)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 3


@pytest.mark.parametrize("content, suffix, words", [
    ("[meta\nname = 1", ".toml", "not valid TOML"),
    ("{", ".json", "not valid JSON"),
    ("x", ".yaml", "expected a .toml or .json file"),
])
def test_unreadable_files_are_one_error_line(tmp_path, content, suffix, words):
    path = tmp_path / f"c{suffix}"
    path.write_text(content)
    r = CliRunner().invoke(main, ["seastead", "components", "--components", str(path)])
    assert r.exit_code == 2 and r.stdout == ""
    assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("error: ") and words in r.stderr
    r = CliRunner().invoke(main, ["seastead", "components", "--components", str(tmp_path / "no.toml")])
    assert r.exit_code == 2 and "cannot read" in r.stderr


def test_components_command_summary_schema_json():
    r = CliRunner().invoke(main, ["seastead", "components"])
    assert r.exit_code == 0 and "valid" in r.stdout and "INVENTED" in r.stdout
    assert max(len(x) for x in r.stdout.splitlines()) <= 100
    r = CliRunner().invoke(main, ["seastead", "components", "--schema"])
    assert json.loads(r.stdout) == SCHEMA
    r = CliRunner().invoke(main, ["seastead", "components", "--json"])
    assert json.loads(r.stdout)["components_invented"] is True


@pytest.mark.parametrize("setup, words", [
    (Setup(sides="ABAA"), "at least 2 B"),
    (Setup(sides="AAA"), "4 letters"),
    (Setup(solo=True, sides="BBBB"), "A sides only"),
    (Setup(decree="Census"), "only with B sides"),
    (Setup(sides="BBBB", decree="Nope"), "unknown decree"),
])
def test_bad_setups(setup, words):
    with pytest.raises(Exception) as e:
        setup.array(load())
    assert words in str(e.value)
    assert (Setup(sides="BABA", decree="Census").array(load()) == [0, 1, 0, 1, 0, 10]).all()
