//! The configuration file (TOML) and its validated form.
