// TouchlineInput: filled by its issue.
