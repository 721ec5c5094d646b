"""The one exception type for mistakes a user can make (bad cards, positions, options, files)."""


class SeasaltError(ValueError):
    """Bad input: the CLI prints `error: <message>` on one line and exits with status 2."""
