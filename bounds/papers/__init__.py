"""One module per paper; each declares its results in paper order."""
