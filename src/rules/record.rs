//! Records (placeholder).
/// x
pub struct PdnGame;
/// x
pub struct RecordError;
