"""The live-play bench (`python -m bench.live`): servers, measured clients, the capacity search,
the run through nginx, and the reading of its CPU profiles."""
