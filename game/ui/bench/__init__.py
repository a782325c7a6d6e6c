"""The screen's benchmark drivers (``hexfire bench render`` and ``hexfire bench open``)."""
