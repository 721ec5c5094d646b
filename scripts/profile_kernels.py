"""Where a compiled run spends its time, by kernel function and by source line (issue 29).

    python scripts/profile_kernels.py                          # 2-player baseline rounds
    python scripts/profile_kernels.py --players 4 --count 3000000
    python scripts/profile_kernels.py --search 64 --count 200  # rounds with a search seat 0

Numba's compiled code has no symbols for a profiler, so this script does the mapping itself:

1. the driver (kernels.batch.run_rounds, or kernels.search_batch.run_search) is compiled with
   debug line information (NUMBA_DEBUGINFO=1) into a fresh cache, and the assembly of its
   library and of every `once` kernel it calls (kernels.compiling: the engine's round is one,
   compiled in its own library) written out;
2. the same code, loaded from that cache, runs under `perf record -e cpu-clock` (a software
   clock: it works where hardware counters are not exposed), and the process dumps each
   library's machine code from the address of its first function;
3. each assembly is assembled with `as` and disassembled with its line table (`objdump -dl`),
   each dump is disassembled as raw bytes, and the two instruction streams are aligned by
   their mnemonics (difflib: jump and nop encodings differ, the instructions do not);
4. each sample's address is charged to the source line of its instruction, and lines to the
   kernel function that encloses them (read from the kernel files with ast).

Needs Linux `perf`, GNU binutils (`as`, `objdump`) and the project's venv. Lines are those of
optimized, inlined code: a sample is charged where LLVM put the instruction, which is roughly,
not exactly, the line that caused it (a load's latency is often charged to its first user).
"""
from __future__ import annotations

import argparse
import ast
import collections
import difflib
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Runs in the child processes: compile (mode "asm") or run and dump the JIT code (mode "run").
CHILD = r"""
import ctypes, json, sys, time
import numba
numba.set_num_threads(1)
import numpy as np
from kernels import batch, cards, search_batch as sb
from analyzer.rules.policies import policy_arrays, rollout_arrays, seat_policies
mode, out, players, count, policy, samples = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    int(sys.argv[4]), sys.argv[5], int(sys.argv[6])
deck = cards.deck_types("base")
if samples:
    pols = seat_policies([f"search(samples={samples})"] + [policy] * (players - 1), players)
    pk, pp = policy_arrays(pols)
    rpk, rpp = rollout_arrays(pols)
    buf = np.zeros((-(-count // sb.SEARCH_ROUND_BLOCK), batch.R_SIZE), np.int64)
    run = lambda n, b: sb.run_search(False, players, deck, n, 40, pk, pp, rpk, rpp,
                                     np.uint64(1), 0, b)
    driver = sb.run_search
else:
    pk, pp = policy_arrays(seat_policies([policy], players))
    buf = np.zeros((-(-count // batch.ROUND_BLOCK), batch.R_SIZE), np.int64)
    run = lambda n, b: batch.run_rounds(players, deck, n, pk, pp, np.uint64(1), 0, b)
    driver = batch.driver_for(players, deck, pk)     # the compiled driver run_rounds calls
run(8, buf[:1])
if mode == "asm":          # the driver's library, then every `once` kernel it needs, once each
    import importlib
    from kernels.compiling import needs
    libs, todo, seen = [], [(f"{driver.py_func.__module__}.{driver.py_func.__name__}", c.library)
                            for c in driver.overloads.values()], set()
    while todo:
        label, lib = todo.pop(0)
        libs.append({"label": label, "asm": f"{out}.{len(libs)}.s"})
        open(libs[-1]["asm"], "w").write(lib.get_asm_str())
        for symbol, (module, name, args, _) in needs(lib).items():
            if symbol not in seen:
                seen.add(symbol)
                d = getattr(importlib.import_module(module), name)
                todo.append((f"{module}.{name}", d.overloads[args].library))
    json.dump(libs, open(out, "w"))
    sys.exit()
t = time.perf_counter(); run(count, buf); print(time.perf_counter() - t, file=sys.stderr)
from numba.core.registry import cpu_target
engine = cpu_target.target_context.codegen()._engine
libs = json.load(open(sys.argv[7]))
maps = [[int(x, 16) for x in line.split()[0].split("-")] for line in open("/proc/self/maps")]
for lib in libs:           # each library's code from its first function, as laid out in memory
    lib["addr"] = a = engine.get_function_address(lib["symbol"])
    end = next(hi for lo, hi in maps if lo <= a < hi)          # never read past its mapping
    lib["bin"] = f"{out}.{a:x}.bin"
    open(lib["bin"], "wb").write(ctypes.string_at(a, min(lib["size"], end - a)))
json.dump(libs, open(out, "w"))
"""

INSN = re.compile(r"^\s+([0-9a-f]+):\s+(\S+)")


def _child(mode: str, out: pathlib.Path, args, env, prefix=(), plan: str = "") -> None:
    cmd = [*prefix, sys.executable, "-c", CHILD, mode, str(out), str(args.players),
           str(args.count), args.policy, str(args.search), plan]
    subprocess.run(cmd, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def _line_table(asm: pathlib.Path) -> tuple[list[tuple[str, str | None]], str, int]:
    """(mnemonic, 'file.py:line') of every instruction of a library's assembly, in order; the
    name of its first function and the size of its code."""
    text = re.sub(r'(?m)^(\s*\.file\s+\d+) "([^"]*)" "([^"]*)"', r'\1 "\2/\3"', asm.read_text())
    fixed = asm.with_suffix(".fixed.s")
    fixed.write_text(text)                     # DWARF 5 .file lines, for older assemblers
    obj = asm.with_suffix(".o")
    subprocess.run(["as", str(fixed), "-o", str(obj)], check=True)
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-l", str(obj)],
                         check=True, capture_output=True, text=True).stdout
    out, src, first, end = [], None, None, 0
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:", line)
        if m and first is None:
            first = m.group(1)
            continue
        m = re.match(r"^(/\S+):(\d+)", line)
        if m:
            path = m.group(1)
            name = path.split("/kernels/", 1)[1] if "/kernels/" in path else pathlib.Path(path).name
            src = f"{name}:{m.group(2)}"
            continue
        m = INSN.match(line)
        if m:
            out.append((m.group(2), src))
            end = int(m.group(1), 16)
    return out, first, end + 16


def _raw(path: str) -> list[tuple[int, str]]:
    """(offset, mnemonic) of the dumped machine code."""
    dis = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                          "--no-show-raw-insn", path], check=True, capture_output=True,
                         text=True).stdout
    return [(int(m.group(1), 16), m.group(2)) for m in map(INSN.match, dis.splitlines()) if m]


def _aligned(addr: int, raw: list[tuple[int, str]], table: list[tuple[str, str | None]]
             ) -> tuple[int, int, dict[int, str | None]]:
    """(first address, end, address -> source line) of a library's dumped code, aligned with
    its assembly by mnemonics; the end is past the last instruction matched."""
    norm = lambda m: m.rstrip("qlwb").replace("movabs", "mov")
    match = difflib.SequenceMatcher(None, [norm(m) for _, m in raw],
                                    [norm(m) for m, _ in table], autojunk=False)
    where: dict[int, str | None] = {}
    end = 0
    for i, j, n in match.get_matching_blocks():
        for k in range(n):
            where[addr + raw[i + k][0]] = table[j + k][1]
            end = max(end, raw[i + k][0] + 16)
    last = None
    for off, _ in raw:                      # unmatched instructions: the line before them
        if off < end:
            last = where.setdefault(addr + off, last)
    return addr, addr + end, where


def _functions() -> dict[str, list[tuple[int, int, str]]]:
    """Kernel file (relative to kernels/) -> (first line, last line, name) of every def."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for f in (ROOT / "kernels").rglob("*.py"):
        name = f.relative_to(ROOT / "kernels").as_posix()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.FunctionDef):
                spans.setdefault(name, []).append((node.lineno, node.end_lineno, node.name))
    return spans


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--count", type=int, default=3_000_000, help="rounds to run under perf")
    ap.add_argument("--policy", default="baseline", help="the bots in every (other) seat")
    ap.add_argument("--search", type=int, default=0, help="samples of a search seat 0 (0: none)")
    ap.add_argument("--functions", type=int, default=30, help="rows of the by-function table")
    ap.add_argument("--lines", type=int, default=30, help="rows of the by-line table")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        env = dict(os.environ, NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=str(tmp / "cache"),
                   PYTHONPATH=str(ROOT))
        _child("asm", tmp / "libs.json", args, env)
        libs = json.loads((tmp / "libs.json").read_text())
        for lib in libs:
            lib["table"], lib["symbol"], size = _line_table(pathlib.Path(lib["asm"]))
            lib["size"] = size + size // 4 + 64        # room for the assembler's shorter jumps
        plan = tmp / "plan.json"
        plan.write_text(json.dumps([{k: lib[k] for k in ("label", "symbol", "size")}
                                    for lib in libs]))
        perf = tmp / "perf.data"
        _child("run", tmp / "dumped.json", args, env,
               ("perf", "record", "-q", "-e", "cpu-clock", "-F", "5000", "-o", str(perf)),
               str(plan))
        ips = collections.Counter(int(x, 16) for x in subprocess.run(
            ["perf", "script", "-i", str(perf), "-F", "ip"], check=True, capture_output=True,
            text=True).stdout.split())
        dumped = json.loads((tmp / "dumped.json").read_text())
        spans_of = []                 # (first address, end, {address: source line}) per library
        for lib, d in zip(libs, dumped):
            spans_of.append(_aligned(d["addr"], _raw(d["bin"]), lib["table"]))
    spans = _functions()

    def function(loc: str | None) -> str:
        if loc is None:
            return "?"
        name, n = loc.split(":")
        inside = [(a, f) for a, b, f in spans.get(name, []) if a <= int(n) <= b]
        return f"{name}:{max(inside)[1]}" if inside else loc

    by_line: collections.Counter = collections.Counter()
    for ip, c in ips.items():
        for lo, hi, where in spans_of:
            if lo <= ip < hi:
                by_line[where.get(ip)] += c
                break
    total = sum(by_line.values())
    by_fn: collections.Counter = collections.Counter()
    for loc, c in by_line.items():
        by_fn[function(loc)] += c
    print(f"{total:,} samples in the driver's code and the kernels it calls once-compiled "
          f"({', '.join(lib['label'] for lib in libs)}); {sum(ips.values()):,} in the process")
    print(f"\n{'samples':>8} {'share':>6}  kernel function")
    for name, c in by_fn.most_common(args.functions):
        print(f"{c:8,} {100 * c / total:5.1f}%  {name}")
    print(f"\n{'samples':>8} {'share':>6}  source line")
    for loc, c in by_line.most_common(args.lines):
        text = ""
        if loc and loc.count(":") == 1 and (ROOT / "kernels" / loc.split(":")[0]).is_file():
            name, n = loc.split(":")
            text = (ROOT / "kernels" / name).read_text().splitlines()[int(n) - 1].strip()[:60]
        print(f"{c:8,} {100 * c / total:5.1f}%  {str(loc):18} {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
