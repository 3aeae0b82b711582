"""Agents that play any registered game through the protocol."""
