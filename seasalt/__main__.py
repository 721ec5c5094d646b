"""`python -m seasalt ...` is the `seasalt` command."""
from analyzer.faces.cli import main

main(prog_name="seasalt")
