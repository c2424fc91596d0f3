"""Evaluation engines behind the link checks."""
