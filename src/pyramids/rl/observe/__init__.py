"""Each game's own observation writer for the RL adapters (the manifest's `observation_encoder`).

A writer fills the observation vector of `pyramids.rl.encoding` straight from a
state's fields, at the offsets of the view-based layout (`Layout`), reading only
what the seat's view shows: the result equals, feature for feature, the
encoding of `state.view(player)` (tests/rl/test_fast_encoders.py). The built-in
writers are `CanvasWriter`s: they update a seat's `Canvas` in place, rewriting
a run (a pyramid's field, the hand, the round's block, a construction) only when
its source differs from what the canvas holds (tests/rl/test_canvas.py checks
canvases kept across moves and episodes), the final position included.
"""
