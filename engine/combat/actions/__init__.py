"""One module per action of 004 "Actions" (and the setup and GM commands around them)."""
