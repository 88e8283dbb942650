"""The built-in games' `move_log` companions: each move told from one audience's views."""
