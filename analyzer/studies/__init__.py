"""The studies: many rounds or games and what they say. simulate (one configuration), rotation
(seats rotated), sweep, tournament, paired experiments, optimize, the strategy guide and the
report of a results folder. Each builds batches for the Runner (analyzer.runs) and turns their
counters into estimates and tidy frames; none imports play or the faces."""
