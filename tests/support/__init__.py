"""Test helpers: position generators, hypothesis strategies, small utilities."""
