"""How results look: the text tables a command prints, the tidy DataFrames (and CSV files) that
carry metadata on every row, and the JSON conversion and `--out` file writing shared by every
command. It reads estimates (analyzer.numbers) and policy names (analyzer.rules); nothing here
runs the engine."""
