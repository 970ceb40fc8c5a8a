// TouchlineGestures: filled by its issue.
