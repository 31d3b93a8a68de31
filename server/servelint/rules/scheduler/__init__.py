"""Rules about SchedulerConfig: batch sizes, sequence counts and their limits."""
