"""The chaos bench (`python -m bench.chaos`) and its soak (`python -m bench.chaos.soak`): servers
of its own faulted while bots play a tournament, then checked for anything lost."""
