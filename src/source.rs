//! The text of an input file, where the path `-` names standard input.
//!
//! Standard input is read to its end the first time `-` is read and kept, so that a run that
//! looks at its input twice (to list the files it reads, then to load it) sees the same text
//! both times.

use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

/// The path that names standard input (or standard output, for a file a run writes).
pub const STDIO: &str = "-";

/// Whether `path` is `-`, standard input or output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == STDIO
}

/// Standard input's text, once read: the text, or the error's kind and message.
static STDIN_TEXT: OnceLock<Result<String, (std::io::ErrorKind, String)>> = OnceLock::new();

/// The text of `path`: the file's, or for `-` standard input's (read once per process).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    if !is_stdio(path) {
        return std::fs::read_to_string(path);
    }
    let text = STDIN_TEXT.get_or_init(|| {
        let mut text = String::new();
        std::io::stdin()
            .lock()
            .read_to_string(&mut text)
            .map(|_| text)
            .map_err(|e| (e.kind(), e.to_string()))
    });
    match text {
        Ok(text) => Ok(text.clone()),
        Err((kind, message)) => Err(std::io::Error::new(
            *kind,
            format!("standard input: {message}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_lone_dash_is_standard_input() {
        assert!(is_stdio(Path::new("-")));
        for path in ["./-", "--", "-x", "", "a/-"] {
            assert!(!is_stdio(Path::new(path)), "{path}");
        }
    }

    #[test]
    fn a_file_is_read_as_it_is() {
        let path = std::env::temp_dir().join(format!("mechsynth-source-{}", std::process::id()));
        std::fs::write(&path, "prior = [0.5, 0.5]\n").unwrap();
        assert_eq!(read_text(&path).unwrap(), "prior = [0.5, 0.5]\n");
        std::fs::remove_file(&path).unwrap();
        assert!(read_text(&path).is_err());
    }
}
