//! Data compiled into the binary, so every command runs on its defaults on a fresh clone with
//! nothing beside it: a path `builtin:NAME` names one of [`BUILTIN`] wherever a command reads a
//! data file (opening sets, EPD suites, PGN games). Sources and licences: `data/README.md`.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// What marks a path as compiled-in data.
pub const BUILTIN_PREFIX: &str = "builtin:";

/// One compiled-in file.
pub struct Embedded {
    /// The name after `builtin:` (its ending tells the format, as a file's would).
    pub name: &'static str,
    /// What it holds, for `--help` texts and error messages.
    pub about: &'static str,
    bytes: &'static [u8],
}

macro_rules! embed {
    ($name:literal, $about:literal) => {
        Embedded {
            name: $name,
            about: $about,
            bytes: include_bytes!(concat!("../../../data/", $name)),
        }
    };
}

/// Every compiled-in file.
pub const BUILTIN: &[Embedded] = &[
    embed!(
        "openings-gm2600.epd",
        "2,000 balanced positions after 8 moves of 2600+ GM games"
    ),
    embed!(
        "games-gm2600.pgn.gz",
        "12,105 games between 2600+ grandmasters (moves played, results)"
    ),
    embed!("suites/wac-revised.epd", "Win At Chess, revised (300)"),
    embed!("suites/lct2.epd", "LCT II (35)"),
    embed!("suites/bk.epd", "Bratko-Kopec (24)"),
    embed!("suites/kaufman.epd", "Kaufman test (25)"),
];

/// The default opening set of every game-playing command.
pub const DEFAULT_OPENINGS: &str = "builtin:openings-gm2600.epd";
/// The default games of the commands that learn from grandmasters' moves or results.
pub const DEFAULT_GAMES: &str = "builtin:games-gm2600.pgn.gz";
/// The default tactical suite of the search GA.
pub const DEFAULT_SUITE: &str = "builtin:suites/wac-revised.epd";

/// The compiled-in file `path` names, if it names one (`None`: an ordinary path). A
/// `builtin:` name that does not exist is an error listing the names that do.
pub fn builtin(path: &Path) -> std::io::Result<Option<&'static Embedded>> {
    let Some(name) = path.to_str().and_then(|p| p.strip_prefix(BUILTIN_PREFIX)) else {
        return Ok(None);
    };
    match BUILTIN.iter().find(|e| e.name == name) {
        Some(e) => Ok(Some(e)),
        None => {
            let names: Vec<String> = BUILTIN
                .iter()
                .map(|e| format!("{BUILTIN_PREFIX}{}", e.name))
                .collect();
            Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "no built-in data named '{name}' (there are: {})",
                    names.join(", ")
                ),
            ))
        }
    }
}

/// Opens a data file or compiled-in data for reading, decompressing a `.gz` name.
pub fn open(path: &Path) -> std::io::Result<Box<dyn BufRead + Send>> {
    let raw: Box<dyn Read + Send> = match builtin(path)? {
        Some(e) => Box::new(e.bytes),
        None => Box::new(std::fs::File::open(path)?),
    };
    let gz = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
    Ok(if gz {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(raw)))
    } else {
        Box::new(BufReader::new(raw))
    })
}

/// The whole text of a data file or compiled-in data (decompressed; invalid UTF-8 replaced).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    open(path)?.read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// One line per compiled-in file: its `builtin:` name and what it holds.
pub fn describe_builtin() -> String {
    BUILTIN
        .iter()
        .map(|e| format!("{BUILTIN_PREFIX}{:<28} {}\n", e.name, e.about))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_file_opens_and_is_not_empty() {
        for e in BUILTIN {
            let path = format!("{BUILTIN_PREFIX}{}", e.name);
            let text = read_text(Path::new(&path)).unwrap();
            assert!(
                text.lines().count() > 20,
                "{path} holds {} lines",
                text.lines().count()
            );
        }
    }

    #[test]
    fn an_unknown_builtin_name_lists_the_known_ones() {
        let err = open(Path::new("builtin:nope.epd"))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("nope.epd") && err.contains("builtin:suites/bk.epd"),
            "{err}"
        );
    }

    #[test]
    fn an_ordinary_path_is_read_from_disk() {
        let err = open(Path::new("/no/such/file.epd")).err().unwrap();
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }
}
