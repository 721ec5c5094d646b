"""The ground floor of analyzer: what every room may use and nothing here imports from another
room. The one error type a user can cause (SeasaltError, one `error:` line and exit status 2),
the progress line of a long run, and the output folder that reports and studies write into
atomically. Everything above may import from here; this room imports only the standard library,
numpy and `analyzer.__version__`."""
