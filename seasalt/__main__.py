"""`python -m seasalt ...` is the `seasalt` command."""
from analyzer.cli import main

main(prog_name="seasalt")
