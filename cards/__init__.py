"""Shipped rule data (TOML); loaded by artproject.core.loader."""
