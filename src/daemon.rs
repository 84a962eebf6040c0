//! The daemon: fetch → read → judge → store → render → send, and the clock's deadlines.
