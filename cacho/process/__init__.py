"""What each server process keeps to itself: its clock, the settings the write path reads on
every command, and bounded caches."""
