"""Reinforcement-learning adapters (the `rl` extra: Gymnasium, PettingZoo, NumPy).

- `pyramids.rl.env(game, **options)`: the PettingZoo AEC environment of any
  registered game; `pyramids.rl.parallel_env(...)` its parallel form.
- Importing this package registers a Gymnasium id `pyramids/<game>-v0` for each
  game (`gymnasium.make("pyramids/pacal-solo-v0")`); at a table the learner plays
  one seat against built-in agents (`gymnasium.make("pyramids/pacal-v0",
  opponents="hard")`, `seat=` a number or "rotate").
- `pyramids.rl.encoder_for(game)`: the observation encoder (a flat float32
  vector built from `view(player)` and the game's declared view type, and the
  legal-action mask); `layout_markdown(game)` documents its layout.

See docs/rl.md.
"""

from pyramids.rl.aec import PyramidsAECEnv, env, env_name, parallel_env
from pyramids.rl.encoding import Encoder, encoder_for, layout_markdown
from pyramids.rl.gym_env import PyramidsGymEnv, env_id, one_player_games, register_gymnasium

GYMNASIUM_IDS = register_gymnasium()

__all__ = [
    "GYMNASIUM_IDS",
    "Encoder",
    "PyramidsAECEnv",
    "PyramidsGymEnv",
    "encoder_for",
    "env",
    "env_id",
    "env_name",
    "layout_markdown",
    "one_player_games",
    "parallel_env",
    "register_gymnasium",
]
