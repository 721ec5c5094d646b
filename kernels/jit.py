"""The one decorator for engine code: compiled, cached, and without reference counting.

Numba's runtime (NRT) increfs and decrefs array arguments at call boundaries; in this engine,
where many small functions pass the state array around, that was about 70% of the run time.
Engine functions never allocate, so they are compiled with `_nrt=False`; only the batch
drivers, which allocate per-block buffers, use plain `njit`, imported from here so that the
compile cache (kernels/cache.py) is set up before any kernel is defined.

Calls between kernels are real calls (each kernel is its own LLVM module) that pass every array
as several words. Small functions on the per-turn path are therefore marked
`@kernel(forceinline=True)`: LLVM inlines them, which costs little compile time, unlike numba's
IR-level `inline="always"` (reserved for small functions with few call sites). Numba re-optimizes
a kernel in every module that links it, so a big function inlined at many sites (gain) makes
everything above it slow to compile: inline it at hot sites only (see scoring.gain_call).
"""
from llvmlite import ir
from numba import njit, types  # noqa: F401  (njit: the batch drivers' decorator, from here)
from numba.core import cgutils, sigutils
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic

from . import cache  # noqa: F401  (sets numba's cache up for kernel files first)
from .compiling import once  # noqa: F401  (the decorator, from here with the others)


def _canonical(t: types.Type) -> types.Type:
    """The argument type a kernel is compiled for: a constant as its plain type, a narrower
    signed integer as int64 (values read from the int32 state, seats, counts). Unsigned
    integers (random streams) and everything else stay as they are."""
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.signed and t.bitwidth < 64:
        return types.int64
    return t


class KernelDispatcher(CPUDispatcher):
    """A dispatcher that compiles one version per canonical argument types (_canonical), so
    that calls with int32 and int64 seats, or with a constant, share one compiled function
    instead of each costing a compile; the caller's arguments are converted at the call."""

    def compile(self, sig):
        args, ret = sigutils.normalize_signature(sig)
        args = tuple(_canonical(a) for a in args)
        return super().compile(args if ret is None else ret(*args))


def kernel(*args, **options):
    """`@kernel`, `@kernel(forceinline=True)` or `@kernel(inline="always")`:
    njit(cache=True, _nrt=False, forceinline=False, **options), compiled once per canonical
    argument types (KernelDispatcher)."""
    options.setdefault("forceinline", False)
    options["_nrt"] = False
    options["nopython"] = True
    options.setdefault("boundscheck", None)
    cache = options.pop("cache", True)

    def make(fn):
        disp = KernelDispatcher(py_func=fn, locals={}, targetoptions=dict(options))
        if cache:
            disp.enable_caching()
        return disp

    if args and callable(args[0]):
        return make(args[0])
    return make


@intrinsic
def word(typingctx, x):
    """x as a plain int64, never a compile-time literal: a kernel called with a constant
    (`advance(s, PH_TURN, ...)`) then shares the specialization of its other callers instead of
    compiling a copy of itself for that constant. A bool becomes 0 or 1."""
    if not isinstance(x, (types.Integer, types.Boolean)):
        return None

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], sig.args[0], types.int64)

    return types.int64(x), codegen


@intrinsic
def below_bound(typingctx, x, n):
    """`below_bound(x, n)` is x as an int64, with the promise 0 <= x < n given to LLVM
    (llvm.assume). The int64 also gives seats and card types read from the int32 state the type
    that callers from Python pass, so compiled functions taking them get one specialization.

    Numba wraps negative array indices around: every s[i] with a signed i costs a compare and
    a select, unless LLVM can prove i >= 0. That holds for i built from constants, loop counters,
    unsigned table entries (state.KIND_OF) and values promised small here (a seat, a card type,
    a stack length), which removes the check from most state accesses. The promise is not
    checked: a false one is undefined behaviour, so it is made only for values whose range the
    state's invariants guarantee."""
    if not isinstance(x, types.Integer) or not isinstance(n, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = args[0]
        bound = context.cast(builder, args[1], sig.args[1], sig.args[0])
        assume = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [ir.IntType(1)]), "llvm.assume")
        builder.call(assume, [builder.icmp_unsigned("<", v, bound)])
        return context.cast(builder, v, sig.args[0], types.int64)

    return types.int64(x, n), codegen


@intrinsic
def ux(typingctx, x):
    """x as a uint64 array index. Numba wraps negative signed indices around (a shift, an and
    and an add on every access, and LLVM often cannot prove them away); an unsigned index has
    none. Only for indices that are non-negative by construction."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return context.cast(builder, args[0], sig.args[0], types.uint64)

    return types.uint64(x), codegen

