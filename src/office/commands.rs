//! Letters from the chief arbiter and the chief secretary: commands (DESIGN.md "Arbiter and
//! secretary commands", issue 6). The office calls [`handle`] only for the configured
//! addresses; nobody else's command is ever executed.

use chrono::{DateTime, Utc};

use super::{Office, OfficeError, Role};
use crate::mail::mime::ParsedMail;
use crate::store::{GameId, LetterInId, Outcome, Tx};

/// Handles one letter from the arbiter or the secretary; `game` is the game found by
/// threading (a reply to zaochka's notice), if any.
///
/// # Errors
/// [`OfficeError`] from the store or the renderer; the whole letter is then rolled back.
pub fn handle(
    office: &Office,
    tx: &Tx<'_>,
    letter: LetterInId,
    mail: &ParsedMail,
    role: Role,
    game: Option<GameId>,
    now: DateTime<Utc>,
) -> Result<Outcome, OfficeError> {
    let _ = (office, tx, letter, mail, now);
    Ok(Outcome::SetAside {
        game,
        reason: format!("a letter from the {role:?}: commands by mail are not read yet"),
    })
}
