"""The floor plan holds (issue 24; docs/architecture.md): the import graph of kernels/, analyzer/,
reports/ and seasalt/ read from the source itself (every import, also those inside a function),
then three rules checked on it: no cycle between files, no import from a higher room, and no
private name (`_name`) taken from another file. A product file stays under 600 lines."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("kernels", "analyzer", "reports", "seasalt")

# The rooms from the ground up: a file may import from its own room and from rooms listed before
# it, never from one listed after it. The longest matching prefix names a module's room.
ROOMS = ("kernels", "analyzer.base", "analyzer.rules", "analyzer.numbers", "analyzer.render",
         "reports", "analyzer.runs", "analyzer.studies", "analyzer.play", "analyzer.seastead",
         "analyzer.faces", "seasalt")
# Rooms of the few modules outside a room's package: the package's version sits on the ground
# floor, `python -m analyzer` is a face.
PLACED = {"analyzer": "analyzer.base", "analyzer.__main__": "analyzer.faces"}
MAX_LINES = 600


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every Python file of the product packages."""
    out = {}
    for pkg in PACKAGES:
        for f in sorted((root / pkg).rglob("*.py")):
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = f
    return out


def room(module: str) -> str:
    """The room a module lives in (a KeyError for a module outside every room)."""
    if module in PLACED:
        return PLACED[module]
    best = max((r for r in ROOMS if module == r or module.startswith(r + ".")), key=len)
    return best


def imports(mods: dict[str, Path]) -> list[tuple[str, str, str | None, int]]:
    """(importer, imported module, name taken or None, line) for every import of a product
    module by another, including the module attributes read through `import x` / `from p import
    module` aliases (`ckpt._locked` takes `_locked` from analyzer.runs.checkpoint)."""
    out = []
    for mod, f in mods.items():
        is_pkg = f.name == "__init__.py"
        tree = ast.parse(f.read_text(encoding="utf-8"))
        aliases: dict[str, str] = {}          # local name -> product module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name in mods:
                        out.append((mod, a.name, None, node.lineno))
                        if a.asname:
                            aliases[a.asname] = a.name
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".")[: len(mod.split(".")) - (0 if is_pkg else 1)]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if sub in mods:
                        out.append((mod, sub, None, node.lineno))
                        aliases[a.asname or a.name] = sub
                    elif target in mods:
                        out.append((mod, target, a.name, node.lineno))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in aliases):
                out.append((mod, aliases[node.value.id], node.attr, node.lineno))
    return [e for e in out if e[0] != e[1]]


def cycles(mods: dict[str, Path], edges) -> list[list[str]]:
    """The strongly connected components of more than one file (Tarjan, iteratively)."""
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for a, b, _, _ in edges:
        graph[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


MODS = modules()
EDGES = imports(MODS)


def test_the_reader_sees_the_imports_it_must():
    """The graph is not empty by mistake: known imports of each kind are found."""
    got = {(a, b, n) for a, b, n, _ in EDGES}
    assert ("analyzer.studies.simulate", "analyzer.runs.spec", "RunSpec") in got
    assert ("analyzer.runs.backends", "analyzer.runs.checkpoint", None) in got   # a module alias
    assert any(a == "analyzer.faces.play_cli" and b.startswith("analyzer.play.") for a, b, _, _ in EDGES)
    assert ("analyzer.runs.stages", "analyzer.runs.checkpoint", "is_locked") in got   # ckpt.is_locked
    assert all(room(m) in ROOMS for m in MODS)


def test_no_import_cycle():
    assert cycles(MODS, EDGES) == []


def test_cycles_are_found():
    """The cycle finder itself: a two-file and a three-file loop are reported, a chain is not."""
    mods = dict.fromkeys(["a", "b", "c", "d", "e"], Path("x.py"))
    edges = [("a", "b", None, 1), ("b", "a", None, 1), ("c", "d", None, 1), ("d", "e", None, 1),
             ("e", "c", None, 1)]
    assert sorted(cycles(mods, edges)) == [["a", "b"], ["c", "d", "e"]]
    assert cycles(mods, [("a", "b", None, 1), ("b", "c", None, 1)]) == []


def test_no_import_from_a_higher_room():
    up = [f"{a}:{line} imports {b}" for a, b, _, line in EDGES
          if ROOMS.index(room(b)) > ROOMS.index(room(a))]
    assert up == []


def test_no_private_name_across_files():
    private = [f"{a}:{line} takes {b}.{n}" for a, b, n, line in EDGES
               if n and n.startswith("_") and not n.startswith("__")]
    assert private == []


def test_no_product_file_over_600_lines():
    long = {str(f.relative_to(ROOT)): n for f in MODS.values()
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_runners_come_only_from_backend():
    """One way to make a Runner: Backend.runner (analyzer/runs/spec.py); every other file asks a
    Backend for one."""
    makers = []
    for mod, f in MODS.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                fn = node.func
                name = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)
                if name == "Runner":
                    makers.append(f"{mod}:{node.lineno}")
    assert makers == ["analyzer.runs.spec:" + str(_runner_line())]


def _runner_line() -> int:
    """The line of spec.py's own `Runner(` call (Backend.runner)."""
    text = MODS["analyzer.runs.spec"].read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(text, 1) if "return Runner(" in line)


# What the run layer must not know: the studies, commands, games and players built on it. Each
# batch declares its own driver, block, width and task size; the run layer only cuts and runs
# tasks. (Compiling ahead, `seasalt warmup`, is the run layer's own concern.)
FEATURES = ("advise", "advisor", "review", "replay", "seastead", "paired", "search", "guide",
            "sweep", "tournament", "luck", "expert", "optimize", "calibrat", "serve", "practice",
            "reading")
FEATURE_WORD = re.compile(r"(?<![a-z])(" + "|".join(FEATURES) + ")")


def code_words(f: Path) -> list[tuple[int, str]]:
    """(line, word) for every name, attribute, import and string of a file's code; docstrings
    and comments are prose and not read."""
    tree = ast.parse(f.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant) and isinstance(n.body[0].value.value, str)}
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            out.append((n.lineno, n.id))
        elif isinstance(n, ast.Attribute):
            out.append((n.lineno, n.attr))
        elif isinstance(n, ast.arg):
            out.append((n.lineno, n.arg))
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            out.append((n.lineno, n.name))
        elif isinstance(n, ast.alias):
            out.append((getattr(n, "lineno", 0), n.asname or n.name))
        elif isinstance(n, ast.ImportFrom) and n.module:
            out.append((n.lineno, n.module))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            out.append((n.lineno, n.value))
    return out


def test_the_run_layer_names_no_feature():
    """analyzer/runs/ runs any batch: no study, command or player is named in its code."""
    named = [f"{mod}:{line} {word!r}" for mod, f in MODS.items()
             if room(mod) == "analyzer.runs"
             for line, word in code_words(f)
             if FEATURE_WORD.search(word.lower())]
    assert named == []


def test_the_feature_check_reads_code_not_prose(tmp_path):
    """code_words finds a name, an attribute, an import and a string, not a docstring or a
    comment."""
    f = tmp_path / "m.py"
    f.write_text('"""About the advisor."""\nfrom x import advise  # the guide\n'
                 'def f():\n    """A sweep."""\n    return y.seastead, "search"\n')
    words = {w for _, w in code_words(f)}
    assert {"advise", "seastead", "search", "x", "f", "y"} <= words
    assert not any("guide" in w or "sweep" in w or "About" in w for w in words)


def test_advice_is_asked_one_way():
    """The command line, the page and `import seasalt` ask the advisor through
    analyzer.play.advice_spec (AdviceSpec.build, then run): none calls one of the advisor's
    inner ways (one model, several, reading) by itself."""
    inner = {("analyzer.play.advisor", "advise"), ("analyzer.play.robust", "advise_models"),
             ("analyzer.play.robust", "advise_robust"), ("analyzer.play.reading", "advise_read")}
    found = [f"{a}:{line} takes {b}.{n}" for a, b, n, line in EDGES
             if (b, n) in inner and room(a) in ("analyzer.faces", "seasalt")]
    assert found == []
    assert ("analyzer.faces.play_cli", "analyzer.play.advice_spec", "AdviceSpec") in {
        (a, b, n) for a, b, n, _ in EDGES}


# One way into every study (analyzer/faces/studies.py): a spec built and checked once, and a run
# that takes it.
from analyzer.faces.studies import STUDIES  # noqa: E402

SPEC_NAMES = {st.spec.split(":")[1] for st in STUDIES}
STUDY_MODULES = sorted({w.split(":")[0] for st in STUDIES for w in (st.spec, st.run)})
WORK = ("runner", "Staged")       # what starts a study's work: a Runner, a staged study


def first_annotation(fn: ast.FunctionDef) -> str:
    """The last dotted part of a function's first parameter's annotation ('' for none)."""
    args = fn.args.posonlyargs + fn.args.args
    if not args or args[0].annotation is None:
        return ""
    return ast.unparse(args[0].annotation).strip("'\"").split(".")[-1]


def test_each_study_has_one_spec_and_one_run():
    """Every study's spec is a frozen dataclass with a `build` classmethod (the checks, once),
    and its run takes that spec first."""
    import dataclasses
    import inspect
    assert len(STUDIES) >= 18 and len({st.name for st in STUDIES}) == len(STUDIES)
    assert len(SPEC_NAMES) == len(STUDIES)          # one spec per study, no spec shared
    for st in STUDIES:
        spec, run = st.spec_class(), st.run_function()
        assert dataclasses.is_dataclass(spec) and spec.__dataclass_params__.frozen, st.name
        assert isinstance(inspect.getattr_static(spec, "build"), classmethod), st.name
        first = next(iter(inspect.signature(run).parameters.values()))
        assert str(first.annotation).split(".")[-1] == spec.__name__, st.name


def starts_work(fn: ast.FunctionDef) -> bool:
    """Does the function itself make a Runner (`x.runner(...)`) or a Staged study?"""
    for n in ast.walk(fn):
        if isinstance(n, ast.Call):
            f = n.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
            if name in WORK:
                return True
    return False


def test_a_study_starts_work_only_from_its_spec():
    """In a study's modules, every public function that starts work (a Runner, a staged study)
    takes a built spec first: no keyword path around the checks."""
    found = []
    for mod in STUDY_MODULES:
        tree = ast.parse(MODS[mod].read_text(encoding="utf-8"))
        for fn in tree.body:
            if (isinstance(fn, ast.FunctionDef) and not fn.name.startswith("_")
                    and starts_work(fn) and first_annotation(fn) not in SPEC_NAMES):
                found.append(f"{mod}.{fn.name}")
    assert found == []


def test_the_work_check_sees_what_it_must():
    """starts_work finds a runner made from a spec's backend; first_annotation reads a
    quoted, dotted annotation."""
    tree = ast.parse('def run(spec: "g.GuideSpec", p=None):\n'
                     '    return spec.backend.runner(p).run([])\n'
                     'def words(n: int):\n    return n\n')
    run, words = tree.body
    assert starts_work(run) and first_annotation(run) == "GuideSpec"
    assert not starts_work(words) and first_annotation(words) == "int"


def test_every_command_runs_its_study_through_its_run():
    """Each study with a command is run by a face through the study's own run (the paired
    experiments have no command: the guide runs them)."""
    taken = {(b, n) for a, b, n, _ in EDGES if room(a) == "analyzer.faces"}
    missing = [st.name for st in STUDIES if st.name != "paired"
               and tuple(st.run.split(":")) not in taken]
    assert missing == []


def test_seasalt_runs_any_study_from_its_spec():
    """`seasalt.run(spec)` is the study's own run; each spec class is seasalt's by its name."""
    import seasalt
    from analyzer.faces.studies import study_of
    for st in STUDIES:
        assert getattr(seasalt, st.spec.split(":")[1]) is st.spec_class()
    assert study_of(seasalt.RunSpec.build(2, "rounds", 10, seed=1)).name == "simulate"
    import pytest
    with pytest.raises(TypeError, match="not a study's spec"):
        seasalt.run({"players": 2})
