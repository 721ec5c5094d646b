"""Every study seasalt runs, declared once: its spec (a frozen dataclass whose `build` checks
everything a user can get wrong, once) and its run (`run(spec, ...)`: the study's one way in).

    spec = TournamentSpec.build(["baseline", "tuned"], players=2, games=4000, seed=1)
    df, header = seasalt.run(spec)          # the same as analyzer.studies.tournament.run(spec)

The command line, the page and `import seasalt` build a study's spec and call its run; the
keyword functions (simulate_rounds, sweep, tournament, replay, review, ...) are that too, in one
line. Modules are named here, not imported: `seasalt --help` and a bad option stay quick.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Study:
    """A study: its name (the command's words), its spec class and its run function, each as
    "module:name"."""
    name: str
    spec: str
    run: str

    @staticmethod
    def _load(where: str) -> Any:
        module, name = where.split(":")
        return getattr(importlib.import_module(module), name)

    def spec_class(self) -> type:
        return self._load(self.spec)

    def run_function(self):
        return self._load(self.run)


STUDIES: tuple[Study, ...] = (
    Study("simulate", "analyzer.runs.spec:RunSpec", "analyzer.studies.simulate:run"),
    Study("sweep", "analyzer.studies.sweep:SweepSpec", "analyzer.studies.sweep:run"),
    Study("tournament", "analyzer.studies.tournament:TournamentSpec",
          "analyzer.studies.tournament:run"),
    Study("paired", "analyzer.studies.paired:PairedSpec", "analyzer.studies.paired:run"),
    Study("optimize", "analyzer.studies.optimize:OptimizeSpec", "analyzer.studies.optimize:run"),
    Study("guide", "analyzer.studies.guide:GuideSpec", "analyzer.studies.guide_pages:run"),
    Study("train", "analyzer.studies.train:TrainSpec", "analyzer.studies.train:run"),
    Study("replay", "analyzer.play.game_spec:ReplaySpec", "analyzer.play.replay:run"),
    Study("advise", "analyzer.play.advice_spec:AdviceSpec", "analyzer.play.advice_spec:run"),
    Study("review", "analyzer.play.game_spec:ReviewSpec", "analyzer.play.review:run"),
    Study("review --game", "analyzer.play.review_many:GamesReviewSpec",
          "analyzer.play.review_many:run"),
    Study("calibrate", "analyzer.play.calibrate:CalibrateSpec", "analyzer.play.calibrate:run"),
    Study("seastead simulate", "analyzer.seastead.runs:SeasteadRunSpec",
          "analyzer.seastead.runs:run_games"),
    Study("seastead tournament", "analyzer.seastead.runs:SeasteadTournamentSpec",
          "analyzer.seastead.runs:run_tournament"),
    Study("seastead report", "analyzer.seastead.report:SeasteadReportSpec",
          "analyzer.seastead.report:run"),
    Study("seastead replay", "analyzer.seastead.replay:SeasteadReplaySpec",
          "analyzer.seastead.replay:run"),
    Study("seastead advise", "analyzer.seastead.advice:SeasteadAdviceSpec",
          "analyzer.seastead.advice:run"),
    Study("seastead review", "analyzer.seastead.review:SeasteadReviewSpec",
          "analyzer.seastead.review:run"),
)


def study_of(spec: object) -> Study:
    """The study whose spec `spec` is (a TypeError for anything else)."""
    name = f"{type(spec).__module__}:{type(spec).__name__}"
    for s in STUDIES:
        if s.spec == name:
            return s
    raise TypeError(f"not a study's spec: {type(spec).__name__}; build one with a spec's "
                    f"build(), e.g. RunSpec.build(...)")


def run(spec: object, *args, **kwargs):
    """Run any study from its built spec: the study's own run(spec, ...)."""
    return study_of(spec).run_function()(spec, *args, **kwargs)
