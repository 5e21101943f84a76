//! EPD records: a position plus `;`-terminated operations (`bm`, `am`, `id`, `c0`, `D1`, ...).
//!
//! Both layouts found in the wild are read: standard EPD (four position fields, counters only
//! via `hmvc`/`fmvn`) and perft suites that write a full six-field FEN followed by `;D1 20 ;D2
//! 400` (the first operation may start with `;` and the last may lack it).

use crate::{Board, FenError, Move, SanError};
use std::path::Path;
use thiserror::Error;

/// Why an EPD line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EpdError {
    /// The line holds nothing.
    #[error("empty EPD line")]
    Empty,
    /// Fewer than the four position fields.
    #[error("EPD needs 4 position fields, found {0}")]
    TooFewFields(usize),
    /// The position fields are not a valid position.
    #[error("invalid position: {0}")]
    Fen(#[from] FenError),
    /// A move counter operand (`hmvc`, `fmvn`) is not a number.
    #[error("{field} '{value}' is not a valid number")]
    BadCounter {
        /// Which counter.
        field: &'static str,
        /// The text found.
        value: String,
    },
    /// An opcode that is not a valid identifier.
    #[error("'{0}' is not a valid EPD opcode (letter first, then letters, digits or '_')")]
    BadOpcode(String),
    /// A string operand without its closing quote.
    #[error("unterminated string operand in operation '{0}'")]
    UnterminatedString(String),
}

/// One EPD line: the position and its operations in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct EpdRecord {
    /// The position.
    pub board: Board,
    /// Opcode and operands, string quotes removed.
    pub ops: Vec<(String, Vec<String>)>,
}

impl EpdRecord {
    /// Parses one line (leading/trailing blanks ignored).
    pub fn parse(line: &str) -> Result<EpdRecord, EpdError> {
        let line = line.trim();
        if line.is_empty() {
            return Err(EpdError::Empty);
        }
        let (fields, rest) = split_fields(line, 4);
        if fields.len() < 4 {
            return Err(EpdError::TooFewFields(fields.len()));
        }
        let mut ops = parse_ops(rest)?;
        // A full FEN puts the two counters where the first operation would start.
        let mut counters: Vec<String> = Vec::new();
        if let Some((opcode, operands)) = ops.first()
            && opcode.starts_with(|c: char| c.is_ascii_digit())
        {
            counters.push(opcode.clone());
            counters.extend(operands.iter().cloned());
            ops.remove(0);
            if counters.len() > 2 {
                let extra = counters.split_off(2);
                ops.insert(0, (extra[0].clone(), extra[1..].to_vec()));
            }
        }
        for (opcode, _) in &ops {
            if !valid_opcode(opcode) {
                return Err(EpdError::BadOpcode(opcode.clone()));
            }
        }
        let op_value = |name: &str| {
            ops.iter()
                .find(|(o, _)| o == name)
                .and_then(|(_, v)| v.first())
                .map(String::as_str)
        };
        let halfmove_text = counters
            .first()
            .map(String::as_str)
            .or(op_value("hmvc"))
            .unwrap_or("0");
        let fullmove_text = counters
            .get(1)
            .map(String::as_str)
            .or(op_value("fmvn"))
            .unwrap_or("1");
        let halfmove = parse_counter(halfmove_text, "halfmove clock")?;
        let fullmove = parse_counter(fullmove_text, "fullmove number")?;
        if fullmove == 0 {
            return Err(EpdError::Fen(FenError::ZeroFullmove));
        }
        let board = Board::from_parts(
            fields[0], fields[1], fields[2], fields[3], halfmove, fullmove,
        )?;
        Ok(EpdRecord { board, ops })
    }

    /// Operands of the first operation named `name` (case-sensitive, as EPD opcodes are).
    pub fn op(&self, name: &str) -> Option<&[String]> {
        self.ops
            .iter()
            .find(|(o, _)| o == name)
            .map(|(_, v)| v.as_slice())
    }

    /// The `id` operation's string.
    pub fn id(&self) -> Option<&str> {
        self.op("id").and_then(|v| v.first()).map(String::as_str)
    }

    /// The `bm` moves, read as SAN (empty when there is no `bm`).
    pub fn best_moves(&self) -> Result<Vec<Move>, SanError> {
        self.san_operands("bm")
    }

    /// The `am` moves, read as SAN (empty when there is no `am`).
    pub fn avoid_moves(&self) -> Result<Vec<Move>, SanError> {
        self.san_operands("am")
    }

    fn san_operands(&self, name: &str) -> Result<Vec<Move>, SanError> {
        self.op(name)
            .unwrap_or(&[])
            .iter()
            .map(|s| self.board.parse_san(s))
            .collect()
    }

    /// Standard EPD line: four position fields, then each operation as ` op operands;`.
    /// Counters other than `0 1` are written as `hmvc`/`fmvn` unless those operations exist.
    pub fn to_line(&self) -> String {
        let mut line = self.board.epd_position();
        let has = |name: &str| self.ops.iter().any(|(o, _)| o == name);
        if self.board.halfmove_clock() != 0 && !has("hmvc") {
            line.push_str(&format!(" hmvc {};", self.board.halfmove_clock()));
        }
        if self.board.fullmove_number() != 1 && !has("fmvn") {
            line.push_str(&format!(" fmvn {};", self.board.fullmove_number()));
        }
        for (opcode, operands) in &self.ops {
            line.push(' ');
            line.push_str(opcode);
            for operand in operands {
                line.push(' ');
                if needs_quotes(opcode, operand) {
                    line.push('"');
                    line.push_str(operand);
                    line.push('"');
                } else {
                    line.push_str(operand);
                }
            }
            line.push(';');
        }
        line
    }
}

/// Records with their 1-based line numbers, and the lines that failed with theirs.
pub type EpdFileContents = (Vec<(usize, EpdRecord)>, Vec<(usize, EpdError)>);

/// Reads every record of an EPD file. Blank lines and `#` comments are skipped; lines that do
/// not parse are returned with their 1-based line number, and reading goes on.
pub fn read_epd_file(path: &Path) -> std::io::Result<EpdFileContents> {
    let bytes = std::fs::read(path)?;
    Ok(parse_epd_text(&String::from_utf8_lossy(&bytes)))
}

/// The records of an EPD text with their line numbers, as [`read_epd_file`] reads a file.
pub fn parse_epd_text(text: &str) -> EpdFileContents {
    let mut records = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match EpdRecord::parse(line) {
            Ok(r) => records.push((i + 1, r)),
            Err(e) => errors.push((i + 1, e)),
        }
    }
    (records, errors)
}

/// The first `n` whitespace-separated fields and the text after them.
fn split_fields(line: &str, n: usize) -> (Vec<&str>, &str) {
    let mut fields = Vec::with_capacity(n);
    let mut rest = line;
    while fields.len() < n {
        let trimmed = rest.trim_start();
        if trimmed.is_empty() {
            return (fields, "");
        }
        let end = trimmed
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(trimmed.len());
        if end == 0 {
            break; // a ';' where a position field should be
        }
        fields.push(&trimmed[..end]);
        rest = &trimmed[end..];
    }
    (fields, rest)
}

/// Splits the operations part into (opcode, operands); empty operations (`;;`) are skipped.
fn parse_ops(text: &str) -> Result<Vec<(String, Vec<String>)>, EpdError> {
    let mut ops = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    let finish = |tokens: &mut Vec<String>, ops: &mut Vec<(String, Vec<String>)>| {
        if !tokens.is_empty() {
            let opcode = tokens.remove(0);
            ops.push((opcode, std::mem::take(tokens)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ';' => finish(&mut tokens, &mut ops),
            c if c.is_whitespace() => {}
            '"' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some(ch) => s.push(ch),
                        None => {
                            let op = tokens.first().cloned().unwrap_or_default();
                            return Err(EpdError::UnterminatedString(op));
                        }
                    }
                }
                tokens.push(s);
            }
            _ => {
                let mut s = String::from(c);
                while let Some(&ch) = chars.peek() {
                    if ch.is_whitespace() || ch == ';' || ch == '"' {
                        break;
                    }
                    s.push(ch);
                    chars.next();
                }
                tokens.push(s);
            }
        }
    }
    finish(&mut tokens, &mut ops);
    Ok(ops)
}

fn valid_opcode(op: &str) -> bool {
    op.starts_with(|c: char| c.is_ascii_alphabetic())
        && op.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_counter(text: &str, field: &'static str) -> Result<u16, EpdError> {
    text.parse().map_err(|_| EpdError::BadCounter {
        field,
        value: text.to_string(),
    })
}

/// Comment-like opcodes are always quoted; other operands only when they would not survive
/// re-reading as a single bare token.
fn needs_quotes(opcode: &str, operand: &str) -> bool {
    let string_op = opcode == "id"
        || ((opcode.starts_with('c') || opcode.starts_with('v'))
            && opcode.len() == 2
            && opcode.as_bytes()[1].is_ascii_digit());
    string_op
        || operand.is_empty()
        || operand.contains(|c: char| c.is_whitespace() || c == ';' || c == '"')
}
