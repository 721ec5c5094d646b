"""One game at a time: positions (what a seat sees), the engine's decision points in words
(decisions), the search seat, the advisor and its robust form, a game's replay, the review of a
player's decisions and an interactive game against the bots (session). It may use the studies'
plain constants and the run machinery; only the faces import it."""
