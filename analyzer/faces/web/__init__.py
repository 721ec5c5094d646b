"""`seasalt serve`: the advisor as a local web page (static/) and a JSON API (app.py)."""
