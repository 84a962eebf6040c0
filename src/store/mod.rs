//! The SQLite store: migrations and the one `Store` type that holds all the SQL.
