"""The scenario editor: a scenario file painted and filled in on the play screen's one map view
(``hexfire edit``, "New scenario" / "Edit" on the start screen)."""
