"""The match API (DRF): thin views over `cacho.services`."""
