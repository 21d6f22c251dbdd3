"""Accounts: the user model, public profiles, settings and in-site notifications."""
