"""A Seastead game's counters, declared as the statistics catalogue declares Sea Salt & Paper's
(kernels/layouts.py): what kernels/seastead/batch.py counts per block and analyzer.seastead.runs
reads back. Nothing compiled, so a run's options are checked without loading the engine."""
from ..layouts import Layout, Stat

ROUNDS_HIST = 64         # rounds-per-game histogram bins (the last bin holds longer games)

# Seat 0 starts; solo: the player in seat 0, the Boss in seat 1.
STATS = Layout("seastead games", (
    Stat("games", "count", "games played"),
    Stat("wins", "rate", "outright wins by seat (solo: the player, the Boss)", seats=2),
    Stat("shared", "rate", "shared wins (every tie-break tied)"),
    Stat("tiebreak", "rate", "games decided by: totals, buildings left, cleanup, shared", bins=4),
    Stat("category", "mean", "score by seat and category", seats=2, bins=5, unit="points"),
    Stat("total", "mean", "final score by seat", seats=2, unit="points"),
    Stat("margin", "mean", "seat 0 minus seat 1 (solo: minus the Boss)", unit="points"),
    Stat("trigger", "rate", "games whose end was triggered with condition i true", bins=4),
    Stat("untriggered", "count", "games stopped by the MAX_ROUNDS safety net (should be 0)"),
    Stat("rounds", "mean", "rounds per game", unit="rounds"),
    Stat("rounds_hist", "histogram", "games by their rounds (the last bin holds longer games)",
         bins=ROUNDS_HIST),
    Stat("dives", "mean", "dives per game by seat", seats=2, squares=False),
    Stat("builds", "mean", "buildings built per game by seat and type", seats=2, bins=3,
         squares=False),
    Stat("spent", "mean", "specialists spent per game by seat", seats=2, squares=False),
    Stat("ship_bonus", "mean", "ship bonuses per game by seat", seats=2, squares=False),
    Stat("extras", "mean", "extra actions per game by seat", seats=2, squares=False),
    Stat("short", "mean", "cleanup shortfall per game by seat", seats=2, squares=False),
    Stat("decrees", "mean", "decrees per game", squares=False),
    Stat("boss", "mean", "the Boss's score (solo)", unit="points"),
    Stat("boss_built", "mean", "the Boss's buildings per game (solo)", squares=False),
))
_at = STATS.at
G_GAMES, G_WINS, G_SHARED, G_TIEBREAK = _at("games"), _at("wins"), _at("shared"), _at("tiebreak")
G_CAT_SUM, G_CAT_SQ, G_TOT_SUM, G_TOT_SQ = (_at("category"), _at("category", "sq"), _at("total"),
                                            _at("total", "sq"))
G_MARGIN_SUM, G_MARGIN_SQ = _at("margin"), _at("margin", "sq")
G_TRIG, G_UNTRIGGERED = _at("trigger"), _at("untriggered")
G_ROUNDS_SUM, G_ROUNDS_SQ, G_ROUNDS_HIST = _at("rounds"), _at("rounds", "sq"), _at("rounds_hist")
G_DIVES, G_BUILDS, G_SPENT, G_SHIP_BONUS = _at("dives"), _at("builds"), _at("spent"), \
    _at("ship_bonus")
G_EXTRAS, G_SHORT, G_DECREES = _at("extras"), _at("short"), _at("decrees")
G_BOSS_SUM, G_BOSS_SQ, G_BOSS_BUILT = _at("boss"), _at("boss", "sq"), _at("boss_built")
G_SIZE = STATS.size
