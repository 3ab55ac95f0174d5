"""Comparing position record arrays."""

import numpy as np


def same_records(a, b):
    assert a.dtype == b.dtype
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
