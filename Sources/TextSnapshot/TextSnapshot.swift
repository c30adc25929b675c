// Placeholder for the TextSnapshot module.
