//! The wording of outgoing letters: minijinja templates under `templates/<lang>/<name>.txt`,
//! built into the binary and overridable from a directory, so the organiser can edit the
//! wording without rebuilding.
//!
//! A template reads like a letter: its first line is the subject, then one blank line, then
//! the plain-text body. The HTML part is made from the same body (see [`Rendered::html`]), so
//! each wording lives in one place. `{{ diagram }}` in a body stands for the board: the text
//! diagram in the plain part, the picture in the HTML part.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;

use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior, Value};
use serde::Serialize;

use super::RenderError;

/// The language of player-facing text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Russian, the default.
    #[default]
    Ru,
    /// English.
    En,
}

impl Lang {
    /// The folder name: `ru` or `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::En => "en",
        }
    }
}

impl FromStr for Lang {
    type Err = RenderError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ru" => Ok(Lang::Ru),
            "en" => Ok(Lang::En),
            other => Err(RenderError::UnknownLang(other.to_string())),
        }
    }
}

/// Lists the templates built into the binary: (language, name, source) for every name in
/// both languages.
macro_rules! builtin {
    ($($name:literal),* $(,)?) => {
        &[$(
            ("ru", $name, include_str!(concat!("../../templates/ru/", $name, ".txt"))),
            ("en", $name, include_str!(concat!("../../templates/en/", $name, ".txt"))),
        )*]
    };
}

/// The templates built into the binary: (language, name, source).
const BUILTIN: &[(&str, &str, &str)] = builtin!(
    "forward",
    "receipt",
    "rejected",
    "start_list",
    "import_list",
    "break_notice",
    "repeat",
    "repeat_sender",
    "first_move_query",
    "warning",
    "overstep_player",
    "overstep_arbiter",
    "result",
    "unknown_sender",
    "unauthenticated",
    "refused",
    "note",
    "command_answer",
    "adjudication_package",
    "adjudication_decision",
    "protest_papers",
    "weekly_digest",
    "final_report",
);

/// The public pages' templates (`zaochka export html`), by their path under `templates/`:
/// the layout, its style sheet and step-through script (included in the pages), and each
/// page in each language. HTML-escaped, unlike the letters.
const BUILTIN_PAGES: &[(&str, &str)] = &[
    (
        "html/layout.html",
        include_str!("../../templates/html/layout.html"),
    ),
    (
        "html/style.css",
        include_str!("../../templates/html/style.css"),
    ),
    (
        "html/steps.js",
        include_str!("../../templates/html/steps.js"),
    ),
    (
        "html/ru/index.html",
        include_str!("../../templates/html/ru/index.html"),
    ),
    (
        "html/en/index.html",
        include_str!("../../templates/html/en/index.html"),
    ),
    (
        "html/ru/game.html",
        include_str!("../../templates/html/ru/game.html"),
    ),
    (
        "html/en/game.html",
        include_str!("../../templates/html/en/game.html"),
    ),
];

/// The paths of the public pages' built-in templates (`html/ru/index.html` …).
pub fn page_names() -> impl Iterator<Item = &'static str> {
    BUILTIN_PAGES.iter().map(|(path, _)| *path)
}

/// The built-in sources, letters and pages, by their key in the environment.
fn builtin_sources() -> BTreeMap<String, String> {
    let mut sources = BTreeMap::new();
    for (lang, name, src) in BUILTIN {
        sources.insert(format!("{lang}/{name}"), (*src).to_string());
    }
    for (path, src) in BUILTIN_PAGES {
        sources.insert((*path).to_string(), (*src).to_string());
    }
    sources
}

/// The names of the built-in templates.
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN
        .iter()
        .filter(|(lang, _, _)| *lang == "ru")
        .map(|(_, name, _)| *name)
}

/// A marker put where the diagram goes while rendering the HTML part; it cannot occur in a
/// template's own text.
const DIAGRAM_MARK: &str = "\u{E000}zaochka-diagram\u{E000}";

/// The set of templates, built in and overridden.
#[derive(Clone, Debug)]
pub struct Templates {
    env: Environment<'static>,
    /// The templates read from a folder ([`Templates::load`]): `ru/receipt` …
    edited: Vec<String>,
}

/// One rendered letter: subject, plain text and HTML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The subject line.
    pub subject: String,
    /// The plain-text part.
    pub text: String,
    /// The HTML part (`<img src="cid:…">` where the body had `{{ diagram }}`).
    pub html: String,
}

impl Templates {
    /// The built-in templates.
    pub fn builtin() -> Self {
        Self::from_sources(builtin_sources())
    }

    /// The built-in templates, each replaced by `DIR/<lang>/<name>.txt` where that file
    /// exists (`<lang>` is `ru` or `en`; other files are not read). Strict, so that an edit
    /// gone wrong stops zaochka at start instead of failing on a letter months later: a
    /// `.txt` file whose name is no built-in template's, one that is not a regular file (a
    /// FIFO, a directory; a symlink counts as the file it points to), larger than 256 KB, not
    /// UTF-8, that does not compile, or that uses a variable the built-in template of that
    /// name does not have is an error naming the file (and the line where minijinja knows it).
    ///
    /// # Errors
    /// [`RenderError::Io`] when DIR or a file cannot be read, [`RenderError::File`] for a
    /// file that is refused.
    pub fn load(dir: &Path) -> Result<Self, RenderError> {
        const MAX_BYTES: u64 = 256 * 1024;
        let io =
            |p: &Path, e: std::io::Error| RenderError::Io(p.display().to_string(), e.to_string());
        let refuse = |p: &Path, line: Option<usize>, msg: String| RenderError::File {
            path: p.display().to_string(),
            line: line.map(|l| format!(":{l}")).unwrap_or_default(),
            message: msg,
        };
        // A template file: a regular file of at most MAX_BYTES, in UTF-8.
        let read_text = |path: &Path| -> Result<String, RenderError> {
            let meta = std::fs::metadata(path).map_err(|e| io(path, e))?;
            if !meta.is_file() {
                return Err(refuse(path, None, "not a regular file".into()));
            }
            if meta.len() > MAX_BYTES {
                return Err(refuse(
                    path,
                    None,
                    format!("{} bytes, more than {MAX_BYTES}", meta.len()),
                ));
            }
            let bytes = std::fs::read(path).map_err(|e| io(path, e))?;
            String::from_utf8(bytes).map_err(|e| refuse(path, None, format!("not UTF-8 ({e})")))
        };
        if !std::fs::metadata(dir).map_err(|e| io(dir, e))?.is_dir() {
            return Err(refuse(dir, None, "not a directory".into()));
        }
        let mut sources = builtin_sources();
        let mut overrides = Vec::new();
        for lang in ["ru", "en"] {
            let sub = dir.join(lang);
            match std::fs::metadata(&sub) {
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(refuse(&sub, None, "not a directory".into())),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&sub, e)),
            }
            let mut paths = Vec::new();
            for entry in std::fs::read_dir(&sub).map_err(|e| io(&sub, e))? {
                let path = entry.map_err(|e| io(&sub, e))?.path();
                if path.extension().and_then(|e| e.to_str()) == Some("txt") {
                    paths.push(path);
                }
            }
            paths.sort();
            for path in paths {
                let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                if !builtin_names().any(|n| n == stem) {
                    let names: Vec<_> = builtin_names().collect();
                    return Err(refuse(
                        &path,
                        None,
                        format!("no letter has this name (the names: {})", names.join(", ")),
                    ));
                }
                let text = read_text(&path)?;
                let key = format!("{lang}/{stem}");
                sources.insert(key.clone(), text);
                overrides.push((key, stem.to_string(), path));
            }
        }
        let mut pages = Vec::new();
        let html = dir.join("html");
        match std::fs::metadata(&html) {
            Ok(m) if m.is_dir() => {
                for sub in [html.clone(), html.join("ru"), html.join("en")] {
                    let entries = match std::fs::read_dir(&sub) {
                        Ok(entries) => entries,
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                        Err(e) => return Err(io(&sub, e)),
                    };
                    for entry in entries {
                        let path = entry.map_err(|e| io(&sub, e))?.path();
                        let ext = path.extension().and_then(|e| e.to_str());
                        if matches!(ext, Some("html" | "css" | "js")) {
                            pages.push(path);
                        }
                    }
                }
            }
            Ok(_) => return Err(refuse(&html, None, "not a directory".into())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(&html, e)),
        }
        pages.sort();
        let mut page_overrides = Vec::new();
        for path in pages {
            let key = path
                .strip_prefix(dir)
                .ok()
                .and_then(|p| p.to_str())
                .map(|p| p.replace(std::path::MAIN_SEPARATOR, "/"))
                .unwrap_or_default();
            if !page_names().any(|n| n == key) {
                let names: Vec<_> = page_names().collect();
                return Err(refuse(
                    &path,
                    None,
                    format!("no page has this name (the names: {})", names.join(", ")),
                ));
            }
            let text = read_text(&path)?;
            sources.insert(key.clone(), text);
            page_overrides.push((key, path));
        }
        let variables = Self::variables();
        let builtin = Self::builtin();
        let mut templates = Self::from_sources(sources);
        templates.edited = overrides.iter().map(|(key, _, _)| key.clone()).collect();
        templates
            .edited
            .extend(page_overrides.iter().map(|(key, _)| key.clone()));
        for (key, path) in page_overrides {
            let tmpl = templates
                .env
                .get_template(&key)
                .map_err(|e| refuse(&path, e.line(), minijinja_message(&e)))?;
            let mut known: Vec<String> = builtin
                .env
                .get_template(&key)
                .map(|t| t.undeclared_variables(false).into_iter().collect())
                .unwrap_or_default();
            // A page may use whatever its context has: what its built-in file uses and the
            // layout it extends; the layout (and what it includes), what any page has.
            let shared = ["html/layout.html", "html/style.css", "html/steps.js"];
            let from: &[&str] = if shared.contains(&key.as_str()) {
                &[
                    "html/layout.html",
                    "html/ru/index.html",
                    "html/ru/game.html",
                ]
            } else {
                &["html/layout.html"]
            };
            for page in from {
                if let Ok(t) = builtin.env.get_template(page) {
                    known.extend(t.undeclared_variables(false));
                }
            }
            known.sort();
            known.dedup();
            let mut unknown: Vec<_> = tmpl
                .undeclared_variables(false)
                .into_iter()
                .filter(|v| !known.contains(v))
                .collect();
            if !unknown.is_empty() {
                unknown.sort();
                return Err(refuse(
                    &path,
                    None,
                    format!(
                        "uses {}, which this page does not have (it has: {})",
                        unknown.join(", "),
                        known.join(", ")
                    ),
                ));
            }
        }
        for (key, stem, path) in overrides {
            let tmpl = templates
                .env
                .get_template(&key)
                .map_err(|e| refuse(&path, e.line(), minijinja_message(&e)))?;
            let known = variables.get(stem.as_str()).cloned().unwrap_or_default();
            let mut unknown: Vec<_> = tmpl
                .undeclared_variables(false)
                .into_iter()
                .filter(|v| v != "diagram" && !known.contains(v))
                .collect();
            if !unknown.is_empty() {
                unknown.sort();
                let have = known;
                return Err(refuse(
                    &path,
                    None,
                    format!(
                        "uses {}, which this letter does not have (it has: {})",
                        unknown.join(", "),
                        have.join(", ")
                    ),
                ));
            }
        }
        Ok(templates)
    }

    /// The templates that replace built-in ones (`ru/receipt` …), for the log.
    pub fn edited(&self) -> &[String] {
        &self.edited
    }

    /// The variables each built-in template uses, by name: what an edited template of that
    /// name may use (besides `diagram`, the board).
    pub fn variables() -> BTreeMap<&'static str, Vec<String>> {
        Self::builtin().used(false)
    }

    /// The variables the built-in templates use, by name; `nested`: with their attributes
    /// (`game.cipher`).
    fn used(&self, nested: bool) -> BTreeMap<&'static str, Vec<String>> {
        let builtin = self;
        let mut all = BTreeMap::new();
        for name in builtin_names() {
            let mut vars: Vec<String> = ["ru", "en"]
                .iter()
                .filter_map(|lang| builtin.env.get_template(&format!("{lang}/{name}")).ok())
                .flat_map(|t| t.undeclared_variables(nested))
                .collect();
            vars.sort();
            vars.dedup();
            all.insert(name, vars);
        }
        all
    }

    fn from_sources(sources: BTreeMap<String, String>) -> Self {
        let mut env = Environment::new();
        // Block tags on lines of their own leave no blank lines: easier for an organiser
        // editing the wording. The configuration is constant, so building it cannot fail.
        if let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .build()
        {
            env.set_syntax(syntax);
        }
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.add_filter("plural", super::words::plural_filter);
        env.add_filter("sentence", sentence_filter);
        // Letters are plain text; the public pages are HTML, escaped.
        env.set_auto_escape_callback(|name| {
            if name.ends_with(".html") {
                minijinja::AutoEscape::Html
            } else {
                minijinja::AutoEscape::None
            }
        });
        env.set_loader(move |name| Ok(sources.get(name).cloned()));
        Templates {
            env,
            edited: Vec::new(),
        }
    }

    /// Renders template `name` in `lang` with `ctx`; `diagram` is the text diagram (or empty)
    /// that `{{ diagram }}` stands for.
    ///
    /// # Errors
    /// [`RenderError::Template`] when the template is missing, malformed, uses a value the
    /// context lacks, or has no subject line.
    pub fn render(
        &self,
        lang: Lang,
        name: &str,
        ctx: &impl Serialize,
        diagram: &str,
    ) -> Result<Rendered, RenderError> {
        let full = format!("{}/{}", lang.code(), name);
        let tmpl = self
            .env
            .get_template(&full)
            .map_err(|e| template_err(&full, e))?;
        let base = Value::from(Serde(ctx));
        let with = |d: &str| {
            minijinja::context! { diagram => d, ..base.clone() }
        };
        let text = tmpl
            .render(with(diagram.trim_end_matches('\n')))
            .map_err(|e| template_err(&full, e))?;
        let marked = tmpl
            .render(with(DIAGRAM_MARK))
            .map_err(|e| template_err(&full, e))?;
        let (subject, body) = split_subject(&text)
            .ok_or_else(|| RenderError::Template(full.clone(), "no subject line".into()))?;
        let (_, marked_body) = split_subject(&marked).unwrap_or((String::new(), marked.clone()));
        Ok(Rendered {
            subject,
            text: body,
            html: to_html(&marked_body, diagram),
        })
    }
}

impl Templates {
    /// Renders the public page `name` (`index` or `game`) in `lang` with `ctx`: the template
    /// `html/<lang>/<name>.html`, HTML-escaped.
    ///
    /// # Errors
    /// [`RenderError::Template`] when the template is missing, malformed or uses a value the
    /// context lacks.
    pub fn page(
        &self,
        lang: Lang,
        name: &str,
        ctx: &impl Serialize,
    ) -> Result<String, RenderError> {
        let full = format!("html/{}/{}.html", lang.code(), name);
        let tmpl = self
            .env
            .get_template(&full)
            .map_err(|e| template_err(&full, e))?;
        tmpl.render(Value::from(Serde(ctx)))
            .map_err(|e| template_err(&full, e))
    }
}

/// The template filter `sentence`: the first letter in upper case, the rest as it is (unlike
/// `capitalize`, which lower-cases a cipher such as `ЗШ-2026-1`).
fn sentence_filter(text: String) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// Splits "subject\n\nbody" into its parts; the body keeps one final newline.
fn split_subject(rendered: &str) -> Option<(String, String)> {
    let rendered = rendered.trim_start_matches('\n');
    let (subject, rest) = rendered.split_once('\n')?;
    let subject = subject.trim().to_string();
    if subject.is_empty() {
        return None;
    }
    let body = rest
        .strip_prefix('\n')
        .unwrap_or(rest)
        .trim_end()
        .to_string()
        + "\n";
    Some((subject, body))
}

/// Plain text to simple HTML: paragraphs at blank lines, line breaks kept, the diagram marker
/// replaced by the board picture with the text diagram as its fallback.
fn to_html(body: &str, diagram: &str) -> String {
    let mut html = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n<body style=\"font-family: sans-serif\">\n",
    );
    for para in body.split("\n\n") {
        let para = para.trim_matches('\n');
        if para.is_empty() {
            continue;
        }
        if para.contains(DIAGRAM_MARK) {
            for piece in para.split(DIAGRAM_MARK) {
                let piece = piece.trim_matches('\n');
                if !piece.is_empty() {
                    html.push_str(&format!(
                        "<p>{}</p>\n",
                        escape(piece).replace('\n', "<br>\n")
                    ));
                }
            }
            html.push_str(&format!(
                "<p><img src=\"cid:{}\" alt=\"{}\"></p>\n",
                super::mime::BOARD_CID,
                escape(diagram).replace('\n', "&#10;")
            ));
            continue;
        }
        if para.starts_with("   +-") {
            // A text diagram of its own (a letter about several games): columns kept.
            html.push_str(&format!("<pre>{}</pre>\n", escape(para)));
            continue;
        }
        html.push_str(&format!(
            "<p>{}</p>\n",
            escape(para).replace('\n', "<br>\n")
        ));
    }
    html.push_str("</body></html>\n");
    html
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// minijinja's error without the template source it appends to its alternate form.
fn minijinja_message(e: &minijinja::Error) -> String {
    match e.detail() {
        Some(detail) => format!("{}: {detail}", e.kind()),
        None => e.kind().to_string(),
    }
}

fn template_err(name: &str, e: minijinja::Error) -> RenderError {
    RenderError::Template(name.to_string(), format!("{e:#}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Ctx {
        subject: &'static str,
        to_name: &'static str,
        reason: &'static str,
        federation: &'static str,
    }

    fn ctx() -> Ctx {
        Ctx {
            subject: "",
            to_name: "Иванов <И.>",
            reason: "партия 7 не ваша",
            federation: "ФШР",
        }
    }

    #[test]
    fn builtin_template_renders_subject_text_and_html_in_both_languages() {
        let t = Templates::builtin();
        let ru = t.render(Lang::Ru, "refused", &ctx(), "").unwrap();
        assert_eq!(ru.subject, "Письмо не принято");
        assert!(
            ru.text.starts_with("Здравствуйте, Иванов <И.>!\n\n"),
            "{}",
            ru.text
        );
        assert!(
            ru.text.contains("не принято: партия 7 не ваша\n"),
            "{}",
            ru.text
        );
        assert!(
            ru.text.ends_with("\n-- \nФШР\n"),
            "signature separator kept: {:?}",
            ru.text
        );
        assert!(
            ru.html.contains("Иванов &lt;И.&gt;"),
            "html escapes: {}",
            ru.html
        );
        let en = t.render(Lang::En, "refused", &ctx(), "").unwrap();
        assert_eq!(en.subject, "Letter not accepted");
    }

    #[test]
    fn the_diagram_is_text_in_the_plain_part_and_a_picture_in_the_html_part() {
        let t = Templates::from_sources(BTreeMap::from([(
            "ru/custom".to_string(),
            "Тема\n\nДо\n\n{{ diagram }}\n\nПосле\n".to_string(),
        )]));
        let r = t.render(Lang::Ru, "custom", &ctx(), " 8 | . b\n").unwrap();
        assert_eq!(r.text, "До\n\n 8 | . b\n\nПосле\n");
        assert!(
            r.html
                .contains("<p><img src=\"cid:board@zaochka\" alt=\" 8 | . b&#10;\"></p>"),
            "{}",
            r.html
        );
        assert!(!r.html.contains('\u{E000}'));
    }

    #[test]
    fn a_missing_value_is_an_error_not_an_empty_string() {
        #[derive(Serialize)]
        struct Empty {}
        let err = Templates::builtin()
            .render(Lang::Ru, "refused", &Empty {}, "")
            .unwrap_err();
        assert!(
            matches!(err, RenderError::Template(ref n, _) if n == "ru/refused"),
            "{err}"
        );
    }

    #[test]
    fn a_file_in_the_override_directory_replaces_the_builtin_wording() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ru")).unwrap();
        std::fs::write(
            dir.path().join("ru/refused.txt"),
            "Своя тема {{ to_name }}\n\nСвой текст\n",
        )
        .unwrap();
        // an editor's backup and a file of another kind are not read
        std::fs::write(dir.path().join("ru/refused.txt~"), "{{ broken").unwrap();
        std::fs::write(dir.path().join("ru/README"), "notes").unwrap();
        let t = Templates::load(dir.path()).unwrap();
        let ru = t.render(Lang::Ru, "refused", &ctx(), "").unwrap();
        assert_eq!(ru.subject, "Своя тема Иванов <И.>");
        assert_eq!(ru.text, "Свой текст\n");
        let en = t.render(Lang::En, "refused", &ctx(), "").unwrap();
        assert_eq!(en.subject, "Letter not accepted", "en stays built in");
    }

    /// `DIR/ru/NAME.txt` holding `text`; the error `Templates::load` gives for it.
    fn load_error(name: &str, text: &[u8]) -> String {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ru")).unwrap();
        std::fs::write(dir.path().join("ru").join(name), text).unwrap();
        let err = Templates::load(dir.path()).unwrap_err().to_string();
        let path = dir.path().join("ru").join(name).display().to_string();
        assert!(err.starts_with(&path), "{err}");
        err[path.len()..].to_string()
    }

    #[test]
    fn a_bad_edited_template_is_refused_at_load_with_its_file_and_line() {
        assert_eq!(
            load_error(
                "receipt.txt",
                "Тема\n\nСтрока\n{% if x %}\nнет конца\n".as_bytes()
            ),
            ":5: syntax error: unexpected end of input, expected end of block"
        );
        let e = load_error(
            "receipt.txt",
            "Тема\n\n{{ game.to_name }} {{ zarplata }}\n".as_bytes(),
        );
        assert!(
            e.starts_with(": uses zarplata, which this letter does not have (it has: "),
            "{e}"
        );
        assert!(e.contains("game, moves"), "{e}");
        let e = load_error("recieved.txt", b"x\n\ny\n");
        assert!(
            e.starts_with(": no letter has this name (the names: forward, receipt"),
            "{e}"
        );
        assert_eq!(
            load_error("receipt.txt", b"\xff\xfe\n\n"),
            ": not UTF-8 (invalid utf-8 sequence of 1 bytes from index 0)"
        );
        let big = vec![b'a'; 256 * 1024 + 1];
        assert_eq!(
            load_error("receipt.txt", &big),
            ": 262145 bytes, more than 262144"
        );
    }

    #[test]
    fn an_odd_file_in_the_template_folder_is_refused_and_never_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let ru = dir.path().join("ru");
        std::fs::create_dir_all(ru.join("forward.txt")).unwrap();
        let err = Templates::load(dir.path()).unwrap_err().to_string();
        assert!(err.ends_with("ru/forward.txt: not a regular file"), "{err}");
        std::fs::remove_dir(ru.join("forward.txt")).unwrap();
        let fifo = ru.join("receipt.txt");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let err = Templates::load(dir.path()).unwrap_err().to_string();
        assert!(err.ends_with("ru/receipt.txt: not a regular file"), "{err}");
        let file = dir.path().join("plain");
        std::fs::write(&file, "").unwrap();
        let err = Templates::load(&file).unwrap_err().to_string();
        assert!(err.ends_with("plain: not a directory"), "{err}");
        let err = Templates::load(&dir.path().join("missing")).unwrap_err();
        assert!(matches!(err, RenderError::Io(..)), "{err}");
    }

    #[test]
    fn the_variables_of_every_template_are_documented_beside_the_templates() {
        let doc = include_str!("../../templates/README.md");
        let mut want = String::new();
        for (name, vars) in Templates::builtin().used(true) {
            let vars: Vec<_> = vars
                .iter()
                .filter(|v| *v != "diagram")
                .map(|v| format!("`{v}`"))
                .collect();
            want.push_str(&format!("- `{name}`: {}\n", vars.join(", ")));
        }
        let start = doc.find("<!-- variables -->\n").expect("the marker") + 19;
        let end = doc.find("<!-- end -->").expect("the end marker");
        assert_eq!(&doc[start..end], want, "templates/README.md is out of date");
    }

    #[test]
    fn every_template_exists_in_both_languages_and_renders_its_subject() {
        let names: Vec<&str> = builtin_names().collect();
        assert!(names.len() >= 20, "{names:?}");
        for lang in ["ru", "en"] {
            let mut of_lang: Vec<&str> = BUILTIN
                .iter()
                .filter(|(l, _, _)| *l == lang)
                .map(|(_, n, _)| *n)
                .collect();
            of_lang.sort_unstable();
            let mut all = names.clone();
            all.sort_unstable();
            assert_eq!(of_lang, all, "{lang}");
        }
        for (_, name, src) in BUILTIN {
            let first = src.lines().next().unwrap_or_default();
            assert!(
                !first.trim().is_empty(),
                "{name}: the first line is the subject"
            );
            assert_eq!(
                src.lines().nth(1),
                Some(""),
                "{name}: a blank line after the subject"
            );
        }
    }

    #[test]
    fn numbers_agree_with_nouns_in_the_letters() {
        use crate::render::letters::{Overstep, Warning};
        let t = Templates::builtin();
        let o = Overstep {
            player: "Сидорова Анна".into(),
            used: 51,
            limit: 50,
            moves_counted: 10,
            ..Overstep::default()
        };
        let ru = t.render(Lang::Ru, "overstep_arbiter", &o, "").unwrap();
        assert!(
            ru.text
                .contains("Сидорова Анна: 51 день на 10 учитываемых ходов при норме 50 дней"),
            "{}",
            ru.text
        );
        assert!(
            !ru.text.contains("Игрок Сидорова Анна затратил"),
            "{}",
            ru.text
        );
        let ru = t.render(Lang::Ru, "overstep_player", &o, "").unwrap();
        assert!(ru.text.contains("51 день на 10 ходов"), "{}", ru.text);
        let w = Warning {
            used: 48,
            limit: 50,
            left: 1,
            ..Warning::default()
        };
        let ru = t.render(Lang::Ru, "warning", &w, "").unwrap();
        assert!(ru.subject.contains("остался 1 день"), "{}", ru.subject);
        let en = t.render(Lang::En, "warning", &w, "").unwrap();
        assert!(en.subject.contains("1 day left"), "{}", en.subject);
    }

    #[test]
    fn language_codes_parse_and_unknown_ones_are_refused() {
        assert_eq!("RU".parse::<Lang>().unwrap(), Lang::Ru);
        assert_eq!("en".parse::<Lang>().unwrap(), Lang::En);
        assert!("de".parse::<Lang>().is_err());
    }
}
