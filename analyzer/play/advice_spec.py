"""One way to ask the advisor: `AdviceSpec.build` checks everything an answer depends on (the
position, the models of both sides, robust or not, reading the opponents' hands, samples or a
precision, the seed, playing on) and `run(spec)` answers it: one advice, a robust answer over
several models, or an advice reading the opponents' hands. The command line, the page, `import
seasalt` and the tests build a spec and call run; analyzer.render.advice_text writes the answer's
text, its `to_dict()` its JSON. Building a spec loads no engine, so a mistake is found at once.

    from analyzer.play.advice_spec import AdviceSpec, run
    a = run(AdviceSpec.build(position, opponent="tuned", samples=20_000, seed=1))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..base.errors import SeasaltError
from ..rules.limits import check_budget, flag
from ..rules.policies import check_readable, check_tremble, models, parse_policy
from ..runs.spec import Backend

Models = str | Sequence[str]


def _specs(value: Models) -> tuple[str, ...]:
    """Option values (one spec, SPEC,SPEC, or several values) as the specs they name."""
    return tuple(models([value] if isinstance(value, str) else list(value)))


@dataclass(frozen=True)
class AdviceSpec:
    """A checked question to the advisor (build it with `build`)."""
    position: object                    # a position (the file's JSON as a dict) or a Position
    opponents: tuple[str, ...] = ()     # the opponents' models: none is the baseline
    me: tuple[str, ...] = ()            # yours on later turns: none is the baseline
    robust: bool = False                # every model of the robust sets (analyzer.play.robust)
    reading: str | None = None          # read hands as this model; None: as the opponents' model
    tremble: float | None = None        # when the position has a history; "off": never read
    samples: int | None = None
    precision: float | None = None
    seed: int | None = None
    play_on: bool = True                # weigh ending the turn at the play step

    @classmethod
    def build(cls, position: object, opponent: Models = (), me: Models = (),
              robust: bool = False, reading: str | None = None, tremble: float | None = None,
              samples: int | None = None, precision: float | None = None,
              seed: int | None = None, play_on: bool = True) -> "AdviceSpec":
        """The spec of `seasalt advise POSITION` with these options (their names are the
        command's), checked: a SeasaltError names the option (and the page's control) to fix."""
        check_budget(samples, precision)
        flag(robust, "robust")
        flag(play_on, "play_on")
        opponents, mine = _specs(opponent), _specs(me)
        for spec in opponents + mine:
            parse_policy(spec)
        if tremble is not None:
            check_tremble(tremble)
        spec = cls(position, opponents, mine, robust, reading, tremble, samples, precision, seed,
                   play_on)
        if spec.reads:
            spec.check_reading()
        return spec

    @property
    def reads(self) -> bool:
        """Whether the answer reads the opponents' hands: a position with a `history` unless
        reading is "off", or any position when a model to read with is named."""
        return self.reading != "off" and (
            self.reading is not None
            or isinstance(self.position, dict) and "history" in self.position)

    def check_reading(self) -> None:
        """Reading answers for one model per side, on samples, weighing every option, from
        the round's public history."""
        if self.robust or len(self.opponents) > 1 or len(self.me) > 1:
            raise SeasaltError("--reading answers for one --opponent and one --me model, not "
                               "several or --robust ('--reading off' for those)",
                               page="reading the opponents' hands answers for one model of the "
                                    "opponents and one of your later turns: untick \"also ask "
                                    "several models\" or \"read the opponents' hands\"")
        if self.precision is not None:
            raise SeasaltError("--reading takes --samples, not --precision",
                               page="reading the opponents' hands takes Samples, not Precision: "
                                    "empty the Precision box")
        if not self.play_on:
            raise SeasaltError("--reading weighs every option; leave out --no-play-on",
                               page="reading the opponents' hands weighs every option: tick "
                                    "\"evaluate playing on\"")
        if not isinstance(self.position, dict) or "history" not in self.position:
            raise SeasaltError("--reading needs the round's public history: give the position a "
                               "'history' (docs/advisor.md)")
        model = self.reading or (self.opponents[0] if self.opponents else "baseline")
        try:
            check_readable(model)
        except SeasaltError as e:
            raise SeasaltError(f"--reading: {e}" + ("" if self.reading else
                               " (give --reading MODEL, or '--reading off')"),
                               page=f"reading the opponents' hands: {e}; untick \"read the "
                                    "opponents' hands\" or choose another opponent model") from None


def run(spec: AdviceSpec, backend: Backend | None = None,
        progress: Callable[[int, int], None] | None = None,
        stop: Callable[[], None] | None = None):
    """The advisor's answer to `spec` (analyzer.play.advisor.Advice, or robust.Robust for
    several models), its samples on the Runner of `backend`; `progress(done, total)` as samples
    finish, `stop()` between chunks (it may raise to end the run)."""
    if spec.reads:
        from kernels.policy_slots import DEFAULT_TREMBLE
        from .advisor import DEFAULT_SAMPLES
        from .reading import advise_read
        opponent = spec.opponents[0] if spec.opponents else "baseline"
        return advise_read(spec.position, model=spec.reading or opponent,
                           tremble=DEFAULT_TREMBLE if spec.tremble is None else spec.tremble,
                           samples=DEFAULT_SAMPLES if spec.samples is None else spec.samples,
                           seed=spec.seed, opponent=opponent,
                           me=spec.me[0] if spec.me else "baseline", backend=backend, stop=stop,
                           progress=progress)
    from .robust import advise_models
    return advise_models(spec.position, spec.opponents, spec.me, spec.robust,
                         samples=spec.samples, precision=spec.precision, seed=spec.seed,
                         backend=backend, play_on=spec.play_on, progress=progress, stop=stop)


def advise(position: object, samples: int | None = None, precision: float | None = None,
           opponent: Models = "baseline", me: Models = "baseline", seed: int | None = None,
           backend: Backend | None = None, play_on: bool = True, *, robust: bool = False,
           reading: str | None = None, tremble: float | None = None,
           progress: Callable[[int, int], None] | None = None,
           stop: Callable[[], None] | None = None):
    """`seasalt advise` from Python (`seasalt.advise`): run(AdviceSpec.build(...)) with the
    command's options as keywords."""
    spec = AdviceSpec.build(position, opponent, me, robust, reading, tremble, samples, precision,
                            seed, play_on)
    return run(spec, backend, progress, stop)
