"""What a person touches: the `seasalt` command line (cli, its shared options, the strategy
commands, the Seastead commands, `seasalt warmup`'s list of steps) and the web page of `seasalt
serve` (web/). The top room: it builds the RunSpec and Backend from the user's words and calls the
rooms below; nothing below imports it."""
