"""The tools for Art of War, the second game (core/aow/): its bots (policies.py), its
simulation table (simulate.py), its terminal game (play.py) and its picture (render.py).
The commands choose them with `--game art-of-war`."""
