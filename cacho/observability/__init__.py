"""What the match server counts and logs: Prometheus instruments and structured JSON logs."""
