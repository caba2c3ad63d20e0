"""The full-screen table: a Textual app in front of a trio game (see ``docs/architecture.md``)."""
