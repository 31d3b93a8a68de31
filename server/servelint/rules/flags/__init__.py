"""Rules about each flag on its own: does the release know it, accept its value, keep it."""
