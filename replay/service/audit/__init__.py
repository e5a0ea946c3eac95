"""Checking what is stored: ``honba check`` and ``honba audit``, the damage every page warns of,
digests to publish, signed checkpoints, receipts, witnesses and the organiser's keys.
"""
