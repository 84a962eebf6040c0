//! Players' names as the organiser registers them and as partners see them in letters.
//!
//! A name comes from the command line and goes into letters to other players, the table and
//! the records. Bidirectional controls (U+202E and its kin) would let a name reorder the text
//! around it in a partner's mail client; other invisible characters hide what a name says.
//! Both are removed, whitespace is collapsed, and a name has at most [`NAME_MAX_CHARS`]
//! characters.

/// The longest name a player may be registered with, in characters: room for "Фамилия Имя
/// Отчество" with a double surname, not for a paragraph.
pub const NAME_MAX_CHARS: usize = 80;

/// Why a name cannot be registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing visible is left.
    #[error("the player's name is empty")]
    Empty,
    /// Longer than [`NAME_MAX_CHARS`].
    #[error(
        "the player's name '{name}…' has {chars} characters; at most {NAME_MAX_CHARS} are allowed"
    )]
    TooLong {
        /// The name's beginning.
        name: String,
        /// Its length in characters.
        chars: usize,
    },
}

/// Whether a character is removed from names: bidirectional controls, zero-width and other
/// invisible format characters, and control characters.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// The name with invisible characters removed and whitespace collapsed, not cut.
fn cleaned(raw: &str) -> String {
    // Tabs and line breaks separate words like spaces; other controls go.
    let visible: String = raw
        .chars()
        .filter(|c| c.is_whitespace() || !is_invisible(*c))
        .collect();
    visible.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A name as the organiser gives it, checked for registration.
///
/// ```
/// use zaochka::tournament::player_name;
/// assert_eq!(player_name("  Иванов \u{202E}Иван ").unwrap(), "Иванов Иван");
/// assert!(player_name("\u{200B}").is_err());
/// ```
///
/// # Errors
/// [`NameError::Empty`] when nothing visible is left, [`NameError::TooLong`] beyond
/// [`NAME_MAX_CHARS`] characters.
pub fn player_name(raw: &str) -> Result<String, NameError> {
    let name = cleaned(raw);
    let chars = name.chars().count();
    if name.is_empty() {
        Err(NameError::Empty)
    } else if chars > NAME_MAX_CHARS {
        Err(NameError::TooLong {
            name: name.chars().take(30).collect(),
            chars,
        })
    } else {
        Ok(name)
    }
}

/// A stored name as it is shown to others: cleaned as [`player_name`] does, and cut to
/// [`NAME_MAX_CHARS`] characters (names registered before the check existed).
pub fn shown_name(raw: &str) -> String {
    cleaned(raw).chars().take(NAME_MAX_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_and_invisible_characters_are_removed_from_names() {
        let raw = "\u{202E}воннаВИ\u{202C} \u{2067}Пётр\u{2069}\u{200F}\u{FEFF}\u{200B}";
        assert_eq!(player_name(raw).unwrap(), "воннаВИ Пётр");
        assert_eq!(shown_name("Иванов\u{202D}\tИван\n"), "Иванов Иван");
    }

    #[test]
    fn a_name_longer_than_80_characters_is_refused_and_shown_cut() {
        let long = "Я".repeat(81);
        assert!(matches!(
            player_name(&long),
            Err(NameError::TooLong { chars: 81, .. })
        ));
        assert!(player_name(&"Я".repeat(80)).is_ok());
        assert_eq!(shown_name(&long).chars().count(), 80);
        assert_eq!(player_name(" \u{202E} "), Err(NameError::Empty));
    }
}
