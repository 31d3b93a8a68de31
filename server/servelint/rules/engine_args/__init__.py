"""``EngineArgs.create_engine_config``: options given twice over (a flag and
the same key of a JSON config), and what it refuses before the config
classes are built."""
