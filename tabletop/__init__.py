"""Cross-game tools: seeding, Monte Carlo statistics, report helpers.

The shared package knows no game; every game package stands on it.
"""

# first, and standard library only: a Ctrl-C while a command line loads ends in one line
from tabletop import _entry  # noqa: F401
from tabletop.cooperative import LeastCore, least_core, shapley_value
from tabletop.files import atomic_write_bytes, atomic_write_text
from tabletop.matrix_games import solve_zero_sum
from tabletop.seeding import as_generator, as_seed_sequence, chunk_seeds
from tabletop.stats import MonteCarloEstimate, chi_square_test, estimate_mean, estimate_proportion
from tabletop.sweep import SweepResult, sweep

__all__ = [
    "LeastCore",
    "MonteCarloEstimate",
    "SweepResult",
    "as_generator",
    "as_seed_sequence",
    "atomic_write_bytes",
    "atomic_write_text",
    "chi_square_test",
    "chunk_seeds",
    "estimate_mean",
    "estimate_proportion",
    "least_core",
    "shapley_value",
    "solve_zero_sum",
    "sweep",
]
