"""The one exception type for mistakes a user can make (bad cards, positions, options, files)."""


class SeasaltError(ValueError):
    """Bad input: the CLI prints `error: <message>` on one line and exits with status 2.
    `param`: the parameter the message begins with (library words, e.g. "players must be ..."),
    which the CLI replaces by its flag and the page by its control (FLAGS, CONTROLS below).
    `page`: the message in the page's words, where the fix it names is a command-line option."""

    def __init__(self, message: str = "", param: str | None = None, page: str | None = None):
        super().__init__(message)
        self.param = param
        self.page = page


class RunFailed(RuntimeError):
    """A run that could not finish for a reason other than bad input (a cluster that lost every
    worker, a task that kept failing): the CLI prints `error: <message>` and exits with status 1."""


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, turned into an interrupt by the CLI so that a run stops as on Ctrl-C
    (its checkpoint kept and named); `signum` is the signal."""

    def __init__(self, signum: int):
        import signal
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a Terminated signal, `signum`) during a run. The finished tasks are kept in
    `checkpoint` (None if it could not be written); `message` says how to continue."""

    def __init__(self, message: str, checkpoint: str | None, signum: int | None = None):
        super().__init__(message)
        self.message = message
        self.checkpoint = checkpoint
        self.signum = signum


def one_line(text: str) -> str:
    """The text on one line (every run of white space a single space): what an `error:` line
    shows, from the CLI and from the web page alike."""
    return " ".join(str(text).split())


# Library parameter -> command-line flag, for the errors that name a parameter (SeasaltError.param).
FLAGS = {"players": "--players", "seed": "--seed", "target": "--target", "rounds": "--rounds",
         "games": "--games", "pairs": "--pairs", "final_games": "--final-games",
         "holdout_games": "--holdout-games", "seat": "--seat", "samples": "--samples",
         "jobs": "--jobs"}


# Library parameter -> the control of `seasalt serve`'s page that sets it.
CONTROLS = {"players": "Players", "seed": "Seed", "target": "Target", "seat": "My seat",
            "samples": "Samples"}


def page_message(e: SeasaltError) -> str:
    """The error as the page says it: its own page words if it has them, else its leading
    parameter name becomes the page's control (never a command-line flag)."""
    if getattr(e, "page", None):
        return e.page
    message, param = str(e), getattr(e, "param", None)
    if param in CONTROLS and message.startswith(param):
        return CONTROLS[param] + message[len(param):]
    return message


def flag_message(e: SeasaltError) -> str:
    """The error as the command line says it: its leading parameter name becomes the flag."""
    message, param = str(e), getattr(e, "param", None)
    if param in FLAGS and message.startswith(param):
        return FLAGS[param] + message[len(param):]
    return message
