//! Resolution (placeholder).
/// x
pub struct IllegalMove;
/// x
pub struct IllegalReason;
/// x
pub struct Resolution;
