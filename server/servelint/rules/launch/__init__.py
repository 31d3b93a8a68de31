"""Rules about a launch as a whole: its `--config` file and its model."""
