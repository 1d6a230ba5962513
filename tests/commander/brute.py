"""Independent brute-force references for the commander tests.

The race's plain search lives in the package (:mod:`commander.race_reference`, also
used by the report's appendix); what stays here counts card subsets by enumeration.
"""

from __future__ import annotations

import itertools


def sum_distribution(values, k):
    """{sum: number of k-subsets of the list ``values`` (cards distinct) with that sum}."""
    out = {}
    for combo in itertools.combinations(range(len(values)), k):
        total = sum(values[i] for i in combo)
        out[total] = out.get(total, 0) + 1
    return out
