"""What the platform tells its operators: `/healthz`, `/readyz` and `/metrics`."""
