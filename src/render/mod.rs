//! Outgoing letters: the wording from the templates under `templates/` (Russian and
//! English), board diagrams (text and PNG; SVG for the public pages), the complete MIME
//! message, and the archive as mbox. The public pages' templates (`templates/html/`) are
//! loaded and rendered here too ([`Templates::page`]).

pub mod arbiter;
pub mod board;
pub mod letters;
pub mod mbox;
pub mod mime;
pub mod position;
pub mod svg;
pub mod template;
pub mod words;

pub use board::{Board, Man};
pub use template::{Lang, Rendered, Templates};

/// What can go wrong while making a letter.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A template is missing, malformed, or needs a value the context lacks.
    #[error("template '{0}': {1}")]
    Template(String, String),
    /// An unknown language code.
    #[error("unknown language '{0}' (ru or en)")]
    UnknownLang(String),
    /// An address, header or MIME type that cannot be written.
    #[error("cannot build the message: {0}")]
    Mime(String),
    /// An edited template that is refused: the file, `:line` where known, and why.
    #[error("{path}{line}: {message}")]
    File {
        /// The file.
        path: String,
        /// `:N`, or empty.
        line: String,
        /// Why it is refused.
        message: String,
    },
    /// The template directory cannot be read.
    #[error("cannot read '{0}': {1}")]
    Io(String, String),
}
