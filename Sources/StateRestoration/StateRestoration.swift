// Module placeholder.
