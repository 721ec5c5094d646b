"""Seastead, the second game: components as data (components, illustrative.toml), players, runs,
replay, report and the `seasalt seastead` commands around the kernels in kernels/seastead/."""
