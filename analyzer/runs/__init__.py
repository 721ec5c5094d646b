"""The run machinery: a run specification validated once (spec), where its blocks are computed
(backends: threads or Dask, the Runner), checkpoints that let an interrupted run resume, studies
cut into resumable stages, and what compiling the engine costs and when it happens (compiling).
It knows batches of counters, not what a study means; the studies, play and faces sit above it."""
