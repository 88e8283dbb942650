"""Plain-text drawings of the built-in games' views, one module a game."""
