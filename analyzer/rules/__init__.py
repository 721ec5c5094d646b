"""The game in words: the card notation (`kind[:colour]`), the named policies and their
parameters, scoring a hand, and states built from given cards (scripted decks). This is where a
text a user types becomes the integers the kernels take. It imports the kernels and analyzer.base
only; the runs, studies, play and faces are built on it."""
