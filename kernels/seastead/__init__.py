"""Seastead (WizKids, 2020), compiled: a second game beside Sea Salt & Paper, in the same style.

`layout` holds the fixed offsets of the two flat int32 arrays every kernel takes: the
components (`cp`, built from a components file by analyzer.seastead.components) and the game
state (`s`). `engine` is the rules (docs/seastead-rules.md), `players` the choosers called at
its decision points, `batch` the parallel games driver with its counters.
"""
