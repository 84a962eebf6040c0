//! Outgoing letters, rendered from the templates under `templates/` (Russian and English).
