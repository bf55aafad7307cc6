"""Audit: replaying a recorded stream to any point, for protests and officials (pure)."""
