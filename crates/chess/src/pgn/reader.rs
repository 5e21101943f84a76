//! Streaming PGN reader that replays SAN movetext on Kestrel's own board.
//!
//! It is line based: it never holds more than one game, reports the first problem of a
//! malformed game with its line number, and carries on with the next game. A tag line at the
//! start of a line always begins a new game, which is how an unterminated comment or variation
//! is noticed without swallowing the rest of the file.

use super::{PgnError, PgnGame};
use crate::{Board, Move};
use std::io::{self, BufRead};

/// Reads games one at a time from any buffered reader.
pub struct PgnReader<R: BufRead> {
    reader: R,
    line_no: usize,
    pending: Option<(usize, String)>,
    next_index: usize,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> PgnReader<R> {
    /// Reads games from `reader`.
    pub fn new(reader: R) -> PgnReader<R> {
        PgnReader {
            reader,
            line_no: 0,
            pending: None,
            next_index: 0,
            done: false,
            buf: Vec::with_capacity(256),
        }
    }

    /// The next line and its number; non-UTF-8 bytes (Latin-1 names) are replaced, not fatal.
    fn next_line(&mut self) -> io::Result<Option<(usize, String)>> {
        if let Some(p) = self.pending.take() {
            return Ok(Some(p));
        }
        self.buf.clear();
        if self.reader.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        let text = String::from_utf8_lossy(&self.buf);
        Ok(Some((
            self.line_no,
            text.trim_end_matches(['\n', '\r']).to_string(),
        )))
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let first = loop {
            match self.next_line() {
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Ok(Some((_, l))) if l.trim().is_empty() || l.starts_with('%') => continue,
                Ok(Some(x)) => break x,
                Err(e) => return Some(Err(self.io_error(e, self.next_index))),
            }
        };
        let mut game = GameParser::new(self.next_index);
        self.next_index += 1;
        let mut current = Some(first);
        while let Some((no, line)) = current {
            match game.feed(no, &line) {
                Feed::More => {}
                Feed::Finished => break,
                Feed::NextGameStarts => {
                    self.pending = Some((no, line));
                    break;
                }
            }
            current = match self.next_line() {
                Ok(c) => c,
                Err(e) => return Some(Err(self.io_error(e, game.index))),
            };
            if current.is_none() {
                game.end_of_input(self.line_no);
            }
        }
        Some(game.finish())
    }
}

impl<R: BufRead> PgnReader<R> {
    /// A failed read ends the iteration after reporting it against game `game_index`.
    fn io_error(&mut self, e: io::Error, game_index: usize) -> PgnError {
        self.done = true;
        PgnError {
            game_index,
            line: self.line_no,
            reason: format!("read error: {e}"),
        }
    }
}

enum Feed {
    More,
    Finished,
    NextGameStarts,
}

/// State of the game being read.
struct GameParser {
    index: usize,
    tags: Vec<(String, String)>,
    start: Option<Board>,
    board: Option<Board>,
    moves: Vec<Move>,
    result: Option<String>,
    in_movetext: bool,
    /// Movetext beyond comments has been seen (moves, numbers, variations, NAGs, results).
    saw_token: bool,
    blank_after_tags: bool,
    comment_from: Option<usize>,
    variations: Vec<usize>,
    error: Option<(usize, String)>,
}

impl GameParser {
    fn new(index: usize) -> GameParser {
        GameParser {
            index,
            tags: Vec::new(),
            start: None,
            board: None,
            moves: Vec::new(),
            result: None,
            in_movetext: false,
            saw_token: false,
            blank_after_tags: false,
            comment_from: None,
            variations: Vec::new(),
            error: None,
        }
    }

    fn fail(&mut self, line: usize, reason: String) {
        if self.error.is_none() {
            self.error = Some((line, reason));
        }
    }

    fn feed(&mut self, no: usize, line: &str) -> Feed {
        if line.starts_with('%') {
            return Feed::More;
        }
        let is_tag_line = line.trim_start().starts_with('[');
        if is_tag_line && self.in_movetext && !self.saw_token && self.tags.is_empty() {
            // Only a comment came before these tags (a file or game preamble): keep reading
            // this game's tag section.
            self.in_movetext = self.comment_from.is_some();
        }
        if is_tag_line && (self.in_movetext || self.comment_from.is_some()) {
            // A new tag section: whatever is still open belongs to a broken game.
            if let Some(from) = self.comment_from {
                self.fail(no, format!("comment opened at line {from} is never closed"));
            } else if let Some(&from) = self.variations.last() {
                self.fail(
                    no,
                    format!("variation opened at line {from} is never closed"),
                );
            }
            return Feed::NextGameStarts;
        }
        if is_tag_line && self.blank_after_tags {
            return Feed::NextGameStarts; // the previous game had tags but no movetext
        }
        if is_tag_line {
            let known = self.tags.len();
            if let Err(reason) = parse_tags(line, &mut self.tags) {
                self.fail(no, reason);
            }
            // Check a set-up position where it is written, so the error points at its line.
            let bad_fen = self.tags[known..]
                .iter()
                .filter(|(k, _)| k == "FEN")
                .find_map(|(_, v)| Board::from_fen(v).err().map(|e| (v.clone(), e)));
            if let Some((fen, e)) = bad_fen {
                self.fail(no, format!("invalid FEN tag '{fen}': {e}"));
            }
            return Feed::More;
        }
        if line.trim().is_empty() {
            self.blank_after_tags = !self.in_movetext && !self.tags.is_empty();
            return Feed::More;
        }
        if !self.in_movetext {
            self.in_movetext = true;
            self.set_up(no);
        }
        self.movetext(no, line)
    }

    /// Builds the start position from the `FEN` tag, or the standard one; a `Variant` tag
    /// naming Chess960 turns on its notation.
    fn set_up(&mut self, no: usize) {
        let fen = self
            .tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map(|(_, v)| v.clone());
        let start = match fen {
            Some(fen) => match Board::from_fen(&fen) {
                Ok(b) => b,
                Err(e) => {
                    self.fail(no, format!("invalid FEN tag '{fen}': {e}"));
                    Board::startpos()
                }
            },
            None => Board::startpos(),
        };
        let mut start = start;
        let chess960 = self.tags.iter().any(|(k, v)| {
            k == "Variant"
                && matches!(
                    v.to_ascii_lowercase().as_str(),
                    "chess960" | "fischerandom" | "fischer random" | "chess 960"
                )
        });
        start.set_chess960(chess960);
        self.board = Some(start.position_only());
        self.start = Some(start);
    }

    fn movetext(&mut self, no: usize, line: &str) -> Feed {
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if self.comment_from.is_some() {
                match line[i..].find('}') {
                    Some(p) => {
                        self.comment_from = None;
                        i += p + 1;
                        continue;
                    }
                    None => return Feed::More,
                }
            }
            let c = bytes[i];
            if !matches!(c, b' ' | b'\t' | b'\r' | b'{' | b';') {
                self.saw_token = true;
            }
            match c {
                b' ' | b'\t' | b'\r' => i += 1,
                b'{' => {
                    self.comment_from = Some(no);
                    i += 1;
                }
                b';' => return Feed::More,
                b'(' => {
                    self.variations.push(no);
                    i += 1;
                }
                b')' => {
                    if self.variations.pop().is_none() {
                        self.fail(no, "')' without a matching '('".to_string());
                    }
                    i += 1;
                }
                b'$' => {
                    let digits = bytes[i + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    if digits == 0 {
                        self.fail(no, "'$' must be followed by a NAG number".to_string());
                    }
                    i += 1 + digits;
                }
                b'*' if self.variations.is_empty() => {
                    self.result = Some("*".to_string());
                    return Feed::Finished;
                }
                b'*' => i += 1,
                _ => {
                    let len = line[i..]
                        .find(|ch: char| ch.is_whitespace() || "{};()$*".contains(ch))
                        .unwrap_or(line.len() - i);
                    if len == 0 {
                        // Unusual white space (e.g. a no-break space): step over the character.
                        i += line[i..].chars().next().map_or(1, char::len_utf8);
                        continue;
                    }
                    let token = &line[i..i + len];
                    i += len;
                    if self.variations.is_empty() && self.token(no, token) {
                        return Feed::Finished;
                    }
                }
            }
        }
        Feed::More
    }

    /// Handles one main-line token; returns true when it is the game result.
    fn token(&mut self, no: usize, token: &str) -> bool {
        if matches!(token, "1-0" | "0-1" | "1/2-1/2") {
            self.result = Some(token.to_string());
            return true;
        }
        if token == "--" {
            self.fail(no, "null move '--' is not supported".to_string());
            return false;
        }
        let san = if token.starts_with("0-0") {
            token
        } else {
            token
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches('.')
        };
        if san.is_empty() || san == "e.p." || san.chars().all(|c| "!?+-=/".contains(c)) {
            return false; // a move number or a stand-alone annotation
        }
        if self.error.is_some() {
            return false;
        }
        let Some(board) = self.board.as_mut() else {
            return false;
        };
        match board.parse_san(san) {
            Ok(mv) => {
                board.make_move(mv);
                self.moves.push(mv);
            }
            Err(e) => {
                let reason = format!("move {} ('{san}'): {e}", self.moves.len() / 2 + 1);
                self.fail(no, reason);
            }
        }
        false
    }

    fn end_of_input(&mut self, last_line: usize) {
        if let Some(from) = self.comment_from {
            self.fail(
                last_line,
                format!("comment opened at line {from} is never closed"),
            );
        } else if let Some(&from) = self.variations.last() {
            self.fail(
                last_line,
                format!("variation opened at line {from} is never closed"),
            );
        }
    }

    fn finish(mut self) -> Result<PgnGame, PgnError> {
        if self.start.is_none() {
            self.set_up(0);
        }
        if let Some((line, reason)) = self.error {
            return Err(PgnError {
                game_index: self.index,
                line,
                reason,
            });
        }
        let result = self.result.unwrap_or_else(|| {
            self.tags
                .iter()
                .find(|(k, _)| k == "Result")
                .map_or("*".to_string(), |(_, v)| v.clone())
        });
        Ok(PgnGame {
            tags: self.tags,
            start: self.start.unwrap_or_default(),
            moves: self.moves,
            result,
        })
    }
}

/// Parses every `[Name "value"]` pair on a line into `tags`.
fn parse_tags(line: &str, tags: &mut Vec<(String, String)>) -> Result<(), String> {
    let bad = |why: &str| format!("malformed tag pair '{}': {why}", line.trim());
    let mut chars = line.trim().chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        match chars.next() {
            None => return Ok(()),
            Some('[') => {}
            Some(_) => return Err(bad("expected '['")),
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                chars.next();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(bad("missing tag name"));
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.next() != Some('"') {
            return Err(bad("tag value must be a quoted string"));
        }
        let mut value = String::new();
        loop {
            match chars.next() {
                Some('\\') => match chars.next() {
                    Some(c) => value.push(c),
                    None => return Err(bad("unterminated tag value")),
                },
                Some('"') => break,
                Some(c) => value.push(c),
                None => return Err(bad("unterminated tag value")),
            }
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.next() != Some(']') {
            return Err(bad("expected ']'"));
        }
        tags.push((name, value));
    }
}
