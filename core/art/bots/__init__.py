"""The A.R.T. Project's bots: the heuristic bot's named parts (heuristic.py names them)."""
