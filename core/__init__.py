"""The core: interprets the rules (setup, the four phases, battles, the end of the game)."""
