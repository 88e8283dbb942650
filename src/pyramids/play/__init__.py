"""What the terminal app and the plain CLI share: the session of a game between
people and agents, typed moves, plain-text views, results and rules text.

It sits above the agents and below the interfaces: `cli` and `tui` import from
here, never from each other.
"""
