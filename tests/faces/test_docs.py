"""The user documentation says what the program does: docs/rules.md's card table is the engine's
catalogue, its worked examples score as printed, docs/players.md lists every registered player and
parameter, and nothing a user reads points to a file that is not in the repository."""
from __future__ import annotations

import pathlib
import re
import sys

import pytest
from click.testing import CliRunner

from analyzer.rules.notation import parse_cards
from analyzer.faces.cli import main
from analyzer.rules.policies import REGISTRY, format_value
from analyzer.rules.score import score_hand
from kernels import cards as kc

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
PLAYERS = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(text: str, begin: str, end: str) -> list[list[str]]:
    """The cells of the markdown table rows between two HTML comments (header rows dropped)."""
    body = text[text.index(begin):text.index(end)]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in body.splitlines() if line.startswith("|")]
    return rows[2:]


def test_rules_card_table_is_the_catalogue():
    rows = _section(RULES, "<!-- cards:", "<!-- end cards -->")
    assert len(rows) == len(kc.CATALOGUE)
    for row, (kind, category, expansion, colours) in zip(rows, kc.CATALOGUE):
        name, cat, copies, cols = row
        assert name.split()[0] == kind
        assert ("(Extra Salt)" in name) == (expansion == "extra-salt"), name
        assert cat == category
        assert int(copies) == sum(n for _, n in colours)
        assert cols == ", ".join(f"{c} {n}" for c, n in colours)
        # the printed name in brackets is an accepted alias
        alias = re.search(r"\((?!Extra Salt)([^)]*)\)", name)
        if alias:
            assert parse_cards(alias.group(1), "extra-salt") == parse_cards(kind, "extra-salt")
    totals = {e: int(kc.copies_in(e).sum()) for e in kc.EXPANSIONS}
    assert (f"{totals['base']} cards in the base game, {totals['extra-salt']} with Extra Salt"
            in RULES)


def test_rules_worked_examples_score_as_printed():
    rows = _section(RULES, "<!-- examples:", "<!-- end examples -->")
    assert len(rows) == 15
    for number, hand, table, points, bonus in rows:
        hand, table = hand.replace(" ", ""), table.replace(" ", "")
        expansion = "extra-salt" if re.search("starfish|seahorse|lobster|cast_of", hand + table) \
            else "base"
        got = score_hand(hand, table, expansion)
        want = (int(points.split(":")[0]), int(bonus))
        assert (got["card_points"], got["colour_bonus"]) == want, number


def test_players_reference_is_generated_from_the_registry():
    sys.path.insert(0, str(ROOT / "scripts"))
    from players_doc import updated
    assert updated(PLAYERS) == PLAYERS, \
        "docs/players.md is out of date: run python scripts/players_doc.py"


def test_players_reference_lists_every_policy_and_parameter_with_default_and_range():
    for info in REGISTRY.values():
        section = PLAYERS[PLAYERS.index(f"### `{info.name}`"):]
        section = section[:section.index("\n### ") if "\n### " in section else len(section)]
        for p in info.params:
            row = next(line for line in section.splitlines() if line.startswith(f"| `{p.name}` |"))
            cells = [c.strip().strip("*") for c in row.strip("|").split("|")]
            assert cells[1] == format_value(p.default), (info.name, p.name)
            assert cells[2].startswith(f"{format_value(p.low)}..{format_value(p.high)}")
            assert cells[3] == p.doc


PAGES = ["docs/usage.md", "docs/strategy.md", "docs/advisor.md", "docs/seastead.md",
         "docs/internals.md"]


def test_no_dangling_references_for_users():
    """The README, the docs/ pages it sends to and every --help text name files that exist in
    the repository; every relative link of those pages resolves."""
    texts = {"README.md": README}
    for name in PAGES:
        texts[name] = (ROOT / name).read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)#:]+)\)", texts[name]):
            assert (ROOT / "docs" / link).exists(), (name, link)
    for link in re.findall(r"\]\(([^)#:]+)\)", README):
        assert (ROOT / link).exists(), ("README.md", link)
    runner = CliRunner()
    for name in main.list_commands(None):
        texts[f"seasalt {name} --help"] = runner.invoke(main, [name, "--help"]).stdout
    texts["seasalt --help"] = runner.invoke(main, ["--help"]).stdout
    for where, text in texts.items():
        for ref in set(re.findall(r"[\w./-]+\.md\b", text)):
            assert (ROOT / ref).is_file() or (ROOT / "docs" / ref).is_file(), (where, ref)
        assert "RULES.md" not in text and "BASELINE_POLICY.md" not in text, where


def test_rules_and_players_are_linked_from_readme_and_help():
    assert "docs/rules.md" in README and "docs/players.md" in README
    runner = CliRunner()
    assert "docs/rules.md" in runner.invoke(main, ["--help"]).stdout
    assert "docs/rules.md" in runner.invoke(main, ["score", "--help"]).stdout
    assert "docs/players.md" in runner.invoke(main, ["policies", "--help"]).stdout


@pytest.mark.parametrize("text, name", [
    ("Shoal of Fish", "shoal"), ("shoal_of_fish", "shoal"), ("Penguin Colony", "colony"),
    ("penguin-colony", "colony"), ("Cast of Crabs", "cast_of_crabs"), ("shell:gray", "shell:grey"),
    ("Octopus:Light Blue", "octopus:light_blue"), ("sea horse", "seahorse"),
])
def test_card_aliases(text, name):
    assert parse_cards(text, "extra-salt") == parse_cards(name, "extra-salt")


def test_unknown_card_suggests_the_nearest_name():
    r = CliRunner().invoke(main, ["score", "--hand", "shoal_of_fsh"])
    assert r.exit_code == 2 and "did you mean 'shoal'" in r.stderr


# --- one source for the figures the README, docs/ and the guide share (issue 30, item 4) ---------

def test_the_readme_and_docs_quote_the_guide_from_its_own_files():
    """Every figure the README and docs/strategy.md share with the strategy guide is written from
    the guide's CSVs (analyzer.studies.guide_pages.figure_blocks): the marked blocks are exactly
    what those files give, and the guide's page says the same numbers."""
    from analyzer.studies.guide_pages import MARKED, figure_blocks, refresh
    blocks = figure_blocks(ROOT)
    quoted = set()
    for name in MARKED:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert refresh(text, blocks) == text, \
            f"{name} is out of date: python -m analyzer.studies.guide_pages"
        quoted |= set(re.findall(r"<!-- guide:(\w+) -->", text))
    assert quoted == set(blocks)                              # every block is quoted somewhere
    guide = (ROOT / "docs" / "guide" / "index.html").read_text(encoding="utf-8")
    for rate in re.findall(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", blocks["tuned"] + blocks["headline"]):
        assert rate in guide, rate                            # the guide's page shows it too
    # and every other rate with its interval that docs/strategy.md quotes is on the guide's page
    strategy = (ROOT / "docs" / "strategy.md").read_text(encoding="utf-8")
    rates = re.findall(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", strategy)
    assert len(rates) >= 15 and [r for r in rates if r not in guide] == []
    # the README no longer has a grid or a tuned table of its own
    assert "| stop_at |" not in README and "tuned vs baseline |" not in README


def test_the_figure_blocks_follow_the_files(tmp_path):
    """The generator reads the files: a changed CSV changes the quoted figure (so the test
    above can fail)."""
    import shutil
    from analyzer.studies.guide_pages import figure_blocks
    data = tmp_path / "docs" / "guide" / "data"
    shutil.copytree(ROOT / "docs" / "guide" / "data", data)
    import pandas as pd
    before = figure_blocks(tmp_path)["grid"]
    grid = pd.read_csv(data / "grid.csv")
    grid.loc[0, ["win_rate", "win_rate_lo", "win_rate_hi"]] = [0.9999, 0.999, 1.0]
    grid.to_csv(data / "grid.csv", index=False)
    after = figure_blocks(tmp_path)["grid"]
    assert after != before and "**100.0**" in after
