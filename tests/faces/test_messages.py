"""Messages point at something that exists and speak the user's words (issue 30, item 8): a rule
is cited by a file and section that are in the repository, an illegal table says whose table it
is, the advice's reason names actions as the table shows them, and the usual mistakes are one
`error:` line of at most 100 columns."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.play.advisor import advise
from analyzer.faces.cli import main
from analyzer.play.position_template import EXAMPLE
from analyzer.render.text_tables import WIDTH

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
HEADINGS = re.findall(r"^## (.+)$", RULES, re.M)


def error_line(args, tmp_path=None, **position) -> str:
    if position:
        f = tmp_path / "p.json"
        f.write_text(json.dumps(dict(EXAMPLE, **position)))
        args = ["advise", str(f), *args]
    r = CliRunner().invoke(main, args)
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    assert "Traceback" not in r.stderr
    return lines[0]


def cited_sections(line: str) -> list[str]:
    return re.findall(r'docs/rules\.md, "([^"]+)"', line)


def test_four_mermaids_cite_a_section_of_docs_rules_md(tmp_path):
    mine = error_line([], tmp_path, hand="mermaid,mermaid,mermaid,mermaid,shell:green,crab:green")
    theirs = error_line([], tmp_path, hand="shell:green,crab:dark_blue,shell:black,shell:yellow,"
                        "octopus:yellow,penguin:purple", opponents=[
        {"seat": 1, "table": "fish:black,fish:green", "hand_size": 5,
         "known": "mermaid,mermaid,mermaid,mermaid"}])
    for line in (mine, theirs):
        assert "RULES.md" not in line and "§" not in line
        assert cited_sections(line) and all(s in HEADINGS for s in cited_sections(line)), line


@pytest.mark.parametrize("where, whose", [("mine", "on your table"),
                                          ("theirs", "on seat 1's table"),
                                          ("score", "on the table")])
def test_an_illegal_table_says_whose_it_is(tmp_path, where, whose):
    if where == "mine":
        line = error_line([], tmp_path, table="boat:black,crab:black")
    elif where == "theirs":
        line = error_line([], tmp_path, opponents=[
            {"seat": 1, "table": "fish:black,shark:green", "hand_size": 5}])
    else:
        line = error_line(["score", "--hand", "mermaid", "--table", "crab:black,boat:yellow"])
    assert line.startswith("error: illegal table: ") and whose in line, line
    assert len(line) <= WIDTH


def test_the_reason_names_actions_in_words_not_internal_names():
    from analyzer.render.review_text import compact
    draw = json.loads((ROOT / "docs" / "example_draw.json").read_text())
    for position in (EXAMPLE, draw):
        a = advise(position, samples=400, seed=1)
        d = a.as_dict() if hasattr(a, "as_dict") else None
        reason = d["reason"] if d else a.reason
        assert not re.search(r"\b(pile_[AB]|last_chance|play_on|stop)\b", reason), reason
        assert any(f"({compact(o['words'].split(' (')[0])})" in reason
                   for o in a.options.values()), reason


MISTAKES = [
    ["score", "--hand", "mermaid", "--table", "crab:black,boat:yellow"],
    ["score", "--hand", "mermaid,mermaid,mermaid,mermaid,mermaid"],
    ["score", "--hand", "shoal_of_fsh"], ["score", "--hand", "octopus_x"],
    ["score", "--hand", "shell"],
    ["score", "--hand", "mermaid", "--table", "lighthouse"],
    ["simulate", "-p", "5", "--rounds", "9"], ["simulate", "-p", "2"],
    ["simulate", "-p", "2", "--rounds", "9", "--policy", "threshold(stop_at=999)"],
    ["simulate", "-p", "2", "--rounds", "9", "--policy", "threshold(stop_att=8)"],
    ["simulate", "-p", "2", "--rounds", "9", "--policy", "baseline(nope=1)"],
    ["simulate", "-p", "2", "--rounds", "-3"],
    ["simulate", "-p", "2", "--games", "10", "--table", "mermaids"],
    ["simulate", "-p", "2", "--rounds", "9", "--expansion", "salt"],
    ["sweep", "--sweep", "stop_at=7..8", "--players", "7"],
    ["tournament", "--policy", "baseline"], ["replay", "--seed", "1", "-p", "2", "--policy",
                                             "search(samples=0)"],
    ["advise", "--me", "search", "docs/example_position.json"],
    ["advise", "docs/example_position.json", "--samples", "0"],
]


@pytest.mark.parametrize("args", MISTAKES, ids=lambda a: " ".join(a)[:40])
def test_the_usual_mistakes_are_one_short_error_line(args, monkeypatch):
    monkeypatch.chdir(ROOT)
    line = error_line(args)
    assert len(line) <= WIDTH, f"{len(line)} columns: {line}"


@pytest.mark.parametrize("where, position", [
    ("hand", {"hand": "lobster,crab:black,shell:green"}),
    ("history turn 1: card", {"history": [{"seat": 1, "draw": "A", "card": "lobster"}]}),
])
def test_an_extra_salt_card_in_a_base_file_names_the_files_field(tmp_path, where, position):
    """The fix is in the file, where the user is: `advise` has no --expansion option."""
    line = error_line([], tmp_path, **position)
    assert line.startswith(f"error: {where}: lobster is an Extra Salt card") and \
        '"expansion": "extra-salt"' in line and "--expansion" not in line, line


def test_an_extra_salt_card_on_the_command_line_names_the_option():
    line = error_line(["score", "--hand", "lobster,crab:black"])
    assert line.endswith("add --expansion extra-salt"), line
