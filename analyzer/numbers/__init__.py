"""Statistics: the catalogue that declares every counter block once (catalogue) and the one
estimates module that turns summed integer counters into rates, means and their 95% intervals
(estimates: Wilson for rates, normal for means, one z). It imports the kernels' counter layout
and analyzer.base only; it knows nothing of text, tables or runs."""
