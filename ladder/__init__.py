"""Ladder: leagues, ratings, matchmaking and tournaments."""
