"""Two changes to how numba compiles the kernels, for compile time only (a cold `seasalt warmup`
was about 200 CPU-seconds); neither changes what a kernel computes.

* Kernels compiled once and called by their symbol (`@once`). Numba links a copy
  of every compiled callee into each caller's LLVM module, where it is optimized and turned into
  machine code again: the engine was re-emitted in every library above it. A `once` kernel's
  code exists once in the process; a caller keeps only its declaration, which the JIT resolves to
  that code, and records it among its needs. A caller read from the compile cache loads its
  needs first (`load_needs`, from kernels.cache) so that the JIT finds every symbol its machine
  code calls; if one is missing (the callee was compiled anew since), the caller is compiled
  again instead. Such calls are per round or per rollout: inlining across them gained nothing.
* Inlining (`inline="always"`) without copying the callee's variables once per block. Numba's
  InlineWorker.inline_ir deep-copies the callee's IR block by block, each copy with its own copy
  of the function's whole scope (every variable): quadratic in the callee's size, and a fifth of
  a cold warmup. Here the blocks are copied in one deepcopy, which keeps their one shared scope
  as the callee's IR has it (numba's inliner asserts that there is one, and uses only that);
  and the callee's front end (bytecode to IR, with its own inlining done) run once per function
  instead of once per call site: each site gets that IR under a new identity (its variables
  renamed apart as before), which the inliner copies before changing anything."""
from __future__ import annotations

import importlib
import inspect
import textwrap

from numba.core import codegen, cpu


def once(dispatcher):
    """`@once` above `@kernel` or `@njit`: the kernel compiled once in the process, its callers
    calling that code by its symbol (module doc). For kernels called per round, rollout or
    sample, not per step: no caller can inline it."""
    add = dispatcher.add_overload

    def add_overload(cres):
        f = dispatcher.py_func
        cres.library.seasalt_once = (f.__module__, f.__qualname__, tuple(cres.signature.args),
                                     cres.fndesc.mangled_name)
        add(cres)
    dispatcher.add_overload = add_overload
    return dispatcher


def needs(library) -> dict:
    """The `once` kernels whose symbols `library`'s code calls, by symbol."""
    return getattr(library, "seasalt_needs", {})


def _add_linking_library(original):
    def add_linking_library(self, library):
        own = self.__dict__.setdefault("seasalt_needs", {})
        once = getattr(library, "seasalt_once", None)
        if once is None:
            own.update(needs(library))
            return original(self, library)
        library._ensure_finalized()
        self._reload_init.update(library._reload_init)
        own[once[3]] = once
    add_linking_library.seasalt_patch = True
    return add_linking_library


def load_needs(found: tuple, target_context) -> bool:
    """Compile or load each needed `once` kernel; whether the JIT now defines every symbol (a
    caller whose needs are not all there must be compiled again, not loaded)."""
    engine = target_context.codegen()._engine
    for module, name, args, symbol in found:
        getattr(importlib.import_module(module), name).compile(args)
        if not engine.is_symbol_defined(symbol):
            return False
    return True


_PER_BLOCK_COPY = """\
    kernel_copy.blocks = {}
    for block_label, block in the_ir.blocks.items():
        new_block = copy.deepcopy(the_ir.blocks[block_label])
        kernel_copy.blocks[block_label] = new_block
"""
_ONE_COPY = """\
    kernel_copy.blocks = copy.deepcopy(the_ir.blocks)
"""


def _inline_ir_copying_once():
    """numba's InlineWorker.inline_ir with its copy_ir copying the blocks in one deepcopy, or
    None if this numba's inline_ir is not the one read here (then it is left as it is)."""
    from numba.core import inline_closurecall
    worker = inline_closurecall.InlineWorker
    source = textwrap.dedent(inspect.getsource(worker.inline_ir))
    per_block = textwrap.indent(_PER_BLOCK_COPY, "    ")
    if getattr(worker.inline_ir, "seasalt_patch", False) or source.count(per_block) != 1:
        return None
    namespace = vars(inline_closurecall)    # (its globals: the function's own, as numba's)
    exec(compile(source.replace(per_block, textwrap.indent(_ONE_COPY, "    ")),
                 inline_closurecall.__file__, "exec"), namespace)
    patched = namespace.pop("inline_ir")
    patched.seasalt_patch = True
    return patched


_FRONT_ENDS: dict = {}


def _front_end_once(original):
    """InlineWorker.run_untyped_passes, its IR kept per function and compile setting."""
    def run_untyped_passes(self, func, enable_ssa=False):
        self.flags.enable_ssa = enable_ssa          # (as numba's does, for what follows)
        key = (func, id(self.typingctx), id(self.targetctx), repr(self.flags),
               repr(self.locals))
        func_ir = _FRONT_ENDS.get(key)
        if func_ir is None:
            func_ir = _FRONT_ENDS[key] = original(self, func, enable_ssa)
        fresh = func_ir.copy()                      # (its blocks copied before any change:
        fresh.func_id = func_ir.func_id.derive()    #  inline_ir's copy_ir)
        return fresh
    run_untyped_passes.seasalt_patch = True
    return run_untyped_passes


def install() -> None:
    """Patch numba's code library (`once` kernels linked by symbol) now, and its inliner when
    numba first loads its typing and lowering registries (before anything is compiled): the
    inliner's module imports some 50 ms of numba that a process running cached kernels never
    needs (kernels.cache)."""
    lib = codegen.CPUCodeLibrary
    if not getattr(lib.add_linking_library, "seasalt_patch", False):
        lib.add_linking_library = _add_linking_library(lib.add_linking_library)
    context = cpu.CPUContext
    load = context.load_additional_registries
    if getattr(load, "seasalt_patch", False):
        return

    def load_additional_registries(self):
        load(self)
        if not _INLINER:
            _install_inliner()
    load_additional_registries.seasalt_patch = True
    context.load_additional_registries = load_additional_registries


_INLINER: list = []         # [True] once the inliner is patched (numba refreshes at every compile)


def _install_inliner() -> None:
    """The inliner's two changes (module doc)."""
    from numba.core import inline_closurecall
    worker = inline_closurecall.InlineWorker
    patched = _inline_ir_copying_once()
    if patched is not None:
        worker.inline_ir = patched
    if not getattr(worker.run_untyped_passes, "seasalt_patch", False):
        worker.run_untyped_passes = _front_end_once(worker.run_untyped_passes)
    _INLINER.append(True)
