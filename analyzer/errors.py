"""The one exception type for mistakes a user can make (bad cards, positions, options, files)."""


class SeasaltError(ValueError):
    """Bad input: the CLI prints `error: <message>` on one line and exits with status 2."""


class RunFailed(RuntimeError):
    """A run that could not finish for a reason other than bad input (a cluster that lost every
    worker, a task that kept failing): the CLI prints `error: <message>` and exits with status 1."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run. The finished tasks are kept in `checkpoint` (None if it could not be
    written); `message` says how to continue."""

    def __init__(self, message: str, checkpoint: str | None):
        super().__init__(message)
        self.message = message
        self.checkpoint = checkpoint
