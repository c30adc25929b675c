// Placeholder for the SpecKit module.
