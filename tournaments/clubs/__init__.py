"""Clubs: their models, who holds which role (`roles`), creating a club and managing its
details, members and invitations (`members`), and the club's log (`log`)."""
