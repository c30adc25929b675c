// Placeholder for the DesignerNews sample.
