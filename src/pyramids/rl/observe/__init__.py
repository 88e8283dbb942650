"""Each game's own observation writer for the RL adapters (the manifest's `observation_encoder`).

A writer fills the observation vector of `pyramids.rl.encoding` straight from a
state's fields, at the offsets of the view-based layout (`Layout`), reading only
what the seat's view shows: the result equals, feature for feature, the
encoding of `state.view(player)` (tests/rl/test_fast_encoders.py). Runs that
seldom change (a pyramid, a finished round, the board) are encoded once and
copied (`BlockCache`). A writer may return None for a position it leaves to the
view-based encoder: the final position, once an episode.
"""
