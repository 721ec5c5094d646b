"""`python -m analyzer ...` is the `seasalt` command (for when the console script is not on PATH)."""
from .faces.cli import main

main(prog_name="seasalt")
