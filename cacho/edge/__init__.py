"""The policy at every edge of the match server: what a client may send (inputs) and how
often (limits)."""
