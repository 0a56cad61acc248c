"""artproject: a rules-as-data engine for The A.R.T. Project."""

__version__ = "0.1.0"
