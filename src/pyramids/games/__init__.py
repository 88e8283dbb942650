"""Pure rules engines, one package a game. A rules module never imports an interface."""
