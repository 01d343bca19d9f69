"""Live play: the match websocket (`consumer`), its frame protocol, presence,
in-process turn timers for embedded mode, and a bot client that plays over the socket."""
