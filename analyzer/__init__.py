"""seasalt's Python layer: policies, runs, seeds, statistics and the CLI around the kernels."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("seasalt")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+unknown"
