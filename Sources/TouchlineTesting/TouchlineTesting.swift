// TouchlineTesting: filled by its issue.
