"""What the README, docs/ and the code's docstrings cite is there: every relative link, every
repository path and dotted module name, every section of docs/rules.md they name. The README is
short and starts where a user starts (the install before any `seasalt` command), and neither it
nor docs/ speaks of development history (issue numbers, commit hashes: CHANGELOG.md holds it)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CODE = [f for d in ("analyzer", "kernels", "reports", "scripts", "tests", "seasalt")
        for f in sorted((ROOT / d).rglob("*.py")) if f.name != Path(__file__).name]
PACKAGES = ("analyzer", "kernels", "reports", "seasalt")
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
HEADINGS = set(re.findall(r"^## (.+)$", RULES, re.M))
_EDGE = RULES[RULES.index("## Edge cases"):]
EDGE_CASES = len(re.findall(r"^\d+\. ", _EDGE[:_EDGE.index("\n## ")], re.M))

# A path of the repository as text cites it: a top folder, then a lower-case name.
PATH = re.compile(r"(?<![\w/.~-])((?:analyzer|kernels|reports|scripts|tests|docs|seasalt)/"
                  r"[a-z_][\w./-]*[\w/])(?![\w-])")
DOTTED = re.compile(r"(?<![\w./])((?:analyzer|kernels|reports)(?:\.[A-Za-z_]\w*)+)")
# Cited, but made by a documented step (`git apply docs/oracle-bound.patch` creates the script),
# or an example of a name in a comment.
NOT_FILES = {"scripts/oracle_bound.py", "kernels.x"}


def modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for f in (ROOT / pkg).rglob("*.py"):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = f
    return out


MODULES = modules()


def missing(text: str) -> list[str]:
    """The paths and dotted names `text` cites that are not in the repository. A path may be the
    stem of files (docs/reading-study for .md and .json); a dotted name is a module, or a module
    and one name it defines (a class and its attribute for two)."""
    out = []
    for m in PATH.finditer(text):
        p = m.group(1).rstrip("/.")
        here = ROOT / p
        if p.endswith(("_", "-")) or here.exists() or list(here.parent.glob(here.name + "*")):
            continue
        out.append(p)
    for m in DOTTED.finditer(text):
        name = m.group(1)
        parts = name.split(".")
        k = next((k for k in range(len(parts), 0, -1) if ".".join(parts[:k]) in MODULES), 0)
        rest = parts[k:]
        if rest and (rest[0].startswith("__") or rest[-1].endswith("_")):
            continue                                   # __file__; a prefix (DEC_*)
        source = MODULES[".".join(parts[:k])].read_text(encoding="utf-8") if k else ""
        if not k or (rest and not re.search(rf"^\s*(def |class )?{re.escape(rest[0])}\b|"
                                            rf"\b{re.escape(rest[0])}\s*[:=(,]", source, re.M)):
            out.append(name)
        elif len(rest) > 1 and not re.search(rf"^class {re.escape(rest[0])}\b", source, re.M):
            out.append(name)
    return sorted(set(out) - NOT_FILES)


def test_the_readme_is_short_and_installs_before_its_first_command():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 110
    fence = [i for i, x in enumerate(lines) if x.lstrip().startswith("```")]
    code = [i for a, b in zip(fence[::2], fence[1::2]) for i in range(a + 1, b)]
    install = next(i for i in code if "pip install" in lines[i])
    first = next(i for i in code if re.search(r"(^|\$ |&& )seasalt \w", lines[i]))
    assert install < first, (install, first)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_docs_speak_of_the_tool_not_its_history(doc):
    text = doc.read_text(encoding="utf-8")
    assert re.findall(r"\b(?:issues?|stop) \d+\b", text, re.I) == []
    # a commit: 7 to 12 hex digits with a letter and a digit (not a checkpoint file's name)
    commits = [h for h in re.findall(r"(?<![\w/.-])[0-9a-f]{7,12}(?![\w/.-])", text)
               if re.search(r"[a-f]", h) and re.search(r"\d", h)]
    assert commits == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_of_the_docs_resolves(doc):
    text = doc.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", text)
    assert [x for x in links if not (doc.parent / x).exists()] == []


@pytest.mark.parametrize("where", DOCS + CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_cited_path_and_module_exists(where):
    text = where.read_text(encoding="utf-8")
    assert missing(text) == []
    assert not re.search(r"(?<![\w\"'])(RULES|BASELINE_POLICY|DESIGN)\.md", text), \
        "cite docs/rules.md or docs/players.md: the project's own notes are not in the repository"


@pytest.mark.parametrize("where", DOCS + CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_cited_sections_of_the_rules_exist(where):
    text = where.read_text(encoding="utf-8")
    cited = [" ".join(s.replace("#", " ").split())       # a name may wrap in a comment
             for s in re.findall(r'docs/rules\.md,\s+"([^"]+)"', text)]
    assert [s for s in cited if s not in HEADINGS] == []
    numbers = [int(n) for n in re.findall(r"\bedge cases? (\d+)", text)]
    assert all(1 <= n <= EDGE_CASES for n in numbers), numbers


def test_the_checker_finds_what_is_missing():
    assert missing("see analyzer/nowhere.py and analyzer.backends") == \
        ["analyzer.backends", "analyzer/nowhere.py"]
    assert missing("analyzer/play/advisor.py, analyzer.play.advisor.Tally, docs/reading-study") \
        == []
    assert EDGE_CASES == 18 and "Ending a round" in HEADINGS
