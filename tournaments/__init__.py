"""The tournaments: clubs, competitions, their log, ratings, seasons and everything a club
organises around the match server (`cacho`)."""
