"""Machine checks of the papers' proof steps, and the errata they find."""
