"""Integrity signals for a club's referees (docs/integrity.md): `signals` computes them
from plain round data, `reader` gathers that data from the club's finished matches, and
`service` says who may see them."""
