// TouchlineTrace: filled by its issue.
import TouchlineCore
