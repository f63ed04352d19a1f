"""Tests of the local SQLite cache."""
