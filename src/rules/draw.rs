//! Draw rules (placeholder).
/// x
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason { /// x
Repetition }
/// x
pub struct GameRecord;
