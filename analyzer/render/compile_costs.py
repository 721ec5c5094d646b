"""What compiling the engine costs, measured once: the README, `--help`, docs/compile.md and the
status line all quote these figures (analyzer.runs.compiling shows them while compiling). Kept
apart from numba so that `seasalt --help` answers without importing it."""
from __future__ import annotations


# What compiling costs, measured on this project's machine kind (2 cores, 24 GiB): the one place
# these figures live. docs/compile.md quotes the phrases below word for word and `--help` and the
# status line print them (tests/faces/test_first_hour.py checks both); after a compile change,
# measure again with `python scripts/compile_times.py --out docs/compile-times.md` (each
# command's first run with an empty cache) and edit only these numbers.
COMPILE = {
    "warmup_wall_s": 91,           # a cold `seasalt warmup`, wall clock (docs/compile-times.md)
    "warmup_cpu_s": 91,            # ... its CPU time
    "warmup_peak_gb": 0.8,         # ... its peak memory (maximum resident set)
    "simulate_s": 9,               # a first `seasalt simulate` with nothing compiled, CPU-s
    # each command's first run with nothing compiled, CPU-s (docs/compile-times.md): what its
    # status line promises. "engine": a study of other players than the baseline (sweep,
    # tournament, optimize, guide; measured with a threshold sweep); "search": a search player.
    "first_run_s": {"simulate": 9, "engine": 8, "score": 2, "replay": 26,
                    "advise": 44, "serve": 44, "review": 51, "search": 47,
                    "seastead": 24},
    "machine": "a 2-core machine",
}


def about(seconds: float) -> str:
    """A duration as the status line and the docs say it: about N s (to the nearest 10 s from a
    minute on), or about N minutes from two minutes on."""
    if seconds >= 120:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds:.0f} s" if seconds < 60 else f"about {round(seconds, -1):.0f} s"


# "about 6 minutes (369 s wall, 367 CPU seconds and 4.4 GB of memory at its peak on an idle
# 2-core machine; longer on a busy one)"
WARMUP_COST = (f"{about(COMPILE['warmup_wall_s'])} ({COMPILE['warmup_wall_s']} s wall, "
               f"{COMPILE['warmup_cpu_s']} CPU seconds and {COMPILE['warmup_peak_gb']} GB of "
               f"memory at its peak on {COMPILE['machine']}; longer on a busy one)")
SIMULATE_COST = f"{about(COMPILE['simulate_s'])}"
WARMUP_SHORT = about(COMPILE["warmup_wall_s"])

def readme_text() -> str:
    """docs/compile.md's summary of what compiling costs, from COMPILE (analyzer.studies.guide_pages
    writes it there)."""
    import textwrap
    f = COMPILE["first_run_s"]
    text = (f"The engine is compiled on its first use on a machine and loaded from "
            f"`~/.cache/seasalt` afterwards (about a second); an edit of a kernel file "
            f"recompiles only the kernels that import it. A first `seasalt simulate` compiles for "
            f"{SIMULATE_COST}, a first `seasalt advise` (or `seasalt serve`) for "
            f"{about(f['advise'])}, a first run with a search player for {about(f['search'])} "
            f"(CPU time; docs/compile-times.md has every command); `seasalt warmup` compiles "
            f"every command's kernels up front, {WARMUP_COST}, and shows each kernel as it "
            f"compiles. A first run without it says on its status line what it compiles and about "
            f"how long that takes, then how long it took; the speeds printed never include "
            f"compiling. (The figures: analyzer/render/compile_costs.py, COMPILE.)")
    return textwrap.fill(text, 100, break_on_hyphens=False)


NOTICE = (f"compiling the engine, first run here only (simulate: {SIMULATE_COST}; every command: "
          f"{WARMUP_SHORT})")
# The commands whose kernels are those of another: the general engine's players, the advisor's.
SAME_KERNELS = {"sweep": "engine", "tournament": "engine", "optimize": "engine", "guide": "engine"}


def first_run_key(args: list[str]) -> str | None:
    """The COMPILE["first_run_s"] entry of a command line (None: not measured): its command, a
    search player named in it, a sweep's or tournament's general engine."""
    command = next((a for a in args if not a.startswith("-")), None)
    if command is None:
        return None
    if any("search(" in a or a == "search" for a in args):
        return "search"
    specs = [b for a, b in zip(args, args[1:]) if a in ("--policy", "-P")]
    specs += [a.split("=", 1)[1] for a in args if a.startswith("--policy=")]
    if command == "simulate" and any(not spec.startswith("baseline") for spec in specs):
        return "engine"                 # another player than the baseline: the general engine
    key = SAME_KERNELS.get(command, command)
    return key if key in COMPILE["first_run_s"] else None


def command_notice(command: str, key: str | None, kernel: str | None = None) -> str:
    """The status line while a command compiles: its own estimate (COMPILE), and the kernel
    compiling now."""
    own = (about(COMPILE["first_run_s"][key]) if key
           else f"warmup: every command, {WARMUP_SHORT}")
    head = f"compiling the engine for {command}, first run here only ({own})"
    return head + (f": {kernel}" if kernel else "")
