"""The figures of the notes, drawn with matplotlib (imported only when a figure is drawn)."""
