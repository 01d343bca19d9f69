"""Appeals: the referee-only notes beside a dispute's public trail."""
