"""Services: the imperative shell around the engine (the one write path, verification)."""
