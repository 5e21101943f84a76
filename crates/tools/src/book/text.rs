//! The human-editable text book: one opening line per row.
//!
//! ```text
//! # comment
//! C60 "Ruy Lopez" | 12 | e4 e5 Nf3 Nc6 Bb5
//! 30 | d4 d5 c4            # weight and moves only
//! e2e4 c7c5                # moves only (weight 1); UCI and SAN may be mixed
//! ```
//! A row is `[label |] [weight |] moves`. The label is an ECO code and/or a quoted name; the
//! weight is a non-negative integer (default 1); moves are SAN or UCI from the start position,
//! move numbers (`1.`, `3...`) and result tokens (`1-0`, `*`) are skipped. A `#` at the start of
//! a row or after a space starts a comment (`Qxf7#` is a move).

use kestrel_chess::{Board, Move};
use std::fmt;

/// One parsed row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextLine {
    /// 1-based row number in the file.
    pub line_no: usize,
    /// ECO code from the label (`C60`), if given.
    pub eco: Option<String>,
    /// Opening name from the label (quotes removed), if given.
    pub name: Option<String>,
    /// The row's weight (1 when not given).
    pub weight: u32,
    /// Moves from the standard start position.
    pub moves: Vec<Move>,
}

/// A row that was skipped, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextLineError {
    /// 1-based row number in the file.
    pub line_no: usize,
    /// Why the row was skipped.
    pub message: String,
}

impl fmt::Display for TextLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line_no, self.message)
    }
}

/// The good rows of a text book and the reasons the others were skipped.
#[derive(Clone, Debug, Default)]
pub struct TextBook {
    /// Rows that parsed, in file order.
    pub lines: Vec<TextLine>,
    /// Rows that were skipped, with the reasons.
    pub errors: Vec<TextLineError>,
}

/// Parses a whole text book; malformed rows are reported and skipped, never fatal.
pub fn parse_text_book(text: &str) -> TextBook {
    let mut book = TextBook::default();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let row = strip_comment(raw).trim();
        if row.is_empty() {
            continue;
        }
        match parse_row(row) {
            Ok((eco, name, weight, moves)) => book.lines.push(TextLine {
                line_no,
                eco,
                name,
                weight,
                moves,
            }),
            Err(message) => book.errors.push(TextLineError { line_no, message }),
        }
    }
    book
}

/// Cuts a `#` comment that starts a row or follows whitespace, outside quotes (a `#` glued to
/// a move is SAN's mate mark).
fn strip_comment(raw: &str) -> &str {
    let mut quoted = false;
    let mut prev_space = true;
    for (i, c) in raw.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted && prev_space => return &raw[..i],
            _ => {}
        }
        prev_space = c.is_whitespace();
    }
    raw
}

type Row = (Option<String>, Option<String>, u32, Vec<Move>);

fn parse_row(row: &str) -> Result<Row, String> {
    let fields = split_fields(row)?;
    let (label, weight, moves) = match fields.as_slice() {
        [moves] => (None, None, *moves),
        [first, moves] if first.parse::<i64>().is_ok() => (None, Some(*first), *moves),
        [label, moves] => (Some(*label), None, *moves),
        [label, weight, moves] => (Some(*label), Some(*weight), *moves),
        _ => {
            return Err(format!(
                "{} '|'-separated fields; expected at most 3 (label | weight | moves)",
                fields.len()
            ));
        }
    };
    let weight = match weight {
        None => 1,
        Some(w) => w
            .parse::<u32>()
            .map_err(|_| format!("weight '{w}' is not a whole number from 0 to 4294967295"))?,
    };
    let (eco, name) = match label {
        None => (None, None),
        Some(l) => parse_label(l)?,
    };
    let moves = parse_moves(moves)?;
    Ok((eco, name, weight, moves))
}

/// Splits on `|` outside double quotes.
fn split_fields(row: &str) -> Result<Vec<&str>, String> {
    let mut fields = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in row.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '|' if !quoted => {
                fields.push(row[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err("unterminated quoted name".into());
    }
    fields.push(row[start..].trim());
    Ok(fields)
}

fn is_eco(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit()
}

/// `C60 "Ruy Lopez"`, `C60`, `"Ruy Lopez"` or `Ruy Lopez`.
fn parse_label(label: &str) -> Result<(Option<String>, Option<String>), String> {
    let (eco, rest) = match label.split_once(char::is_whitespace) {
        Some((first, rest)) if is_eco(first) => (Some(first.to_string()), rest.trim()),
        None if is_eco(label) => (Some(label.to_string()), ""),
        _ => (None, label),
    };
    let name = rest.trim_matches('"').trim();
    if eco.is_none() && name.is_empty() {
        return Err("empty label before '|'".into());
    }
    Ok((eco, (!name.is_empty()).then(|| name.to_string())))
}

fn looks_like_uci(t: &str) -> bool {
    let b = t.as_bytes();
    (4..=5).contains(&b.len())
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
}

/// Removes a move number prefix: `12.`, `3...`, `1.e4` -> `e4`.
fn strip_move_number(t: &str) -> &str {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && t[digits..].starts_with('.') {
        t[digits..].trim_start_matches('.')
    } else {
        t
    }
}

fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    let mut board = Board::startpos();
    let mut moves = Vec::new();
    for token in text.split_whitespace() {
        let t = strip_move_number(token);
        if t.is_empty() || matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        let ply = moves.len() + 1;
        let mv = if looks_like_uci(t) {
            board.parse_uci_move(t).map_err(|e| e.to_string())
        } else {
            board.parse_san(t).map_err(|e| e.to_string())
        }
        .map_err(|e| format!("move {ply} ('{t}'): {e}"))?;
        board.make_move(mv);
        moves.push(mv);
    }
    if moves.is_empty() {
        return Err("no moves".into());
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_labels_weights_and_mixed_notation() {
        let book = parse_text_book(
            "# openings\n\nC60 \"Ruy Lopez\" | 12 | 1. e4 e5 2. Nf3 Nc6 3. Bb5 * # main line\n\
             30 | d2d4 d5\nc4\n\"Mate #1\" | e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#\n",
        );
        assert!(book.errors.is_empty(), "{:?}", book.errors);
        assert_eq!(book.lines.len(), 4);
        assert_eq!(book.lines[3].name.as_deref(), Some("Mate #1"));
        assert_eq!(book.lines[3].moves.len(), 7);
        let ruy = &book.lines[0];
        assert_eq!(ruy.line_no, 3);
        assert_eq!(ruy.eco.as_deref(), Some("C60"));
        assert_eq!(ruy.name.as_deref(), Some("Ruy Lopez"));
        assert_eq!(ruy.weight, 12);
        assert_eq!(ruy.moves.len(), 5);
        assert_eq!(ruy.moves[4].to_string(), "f1b5");
        assert_eq!(book.lines[1].weight, 30);
        assert_eq!(book.lines[1].moves[1].to_string(), "d7d5");
        assert_eq!(book.lines[2].weight, 1);
        assert_eq!(book.lines[2].eco, None);
    }

    #[test]
    fn reports_bad_rows_with_their_line_numbers() {
        let book = parse_text_book(
            "e4 e5\ne4 e5 Nf9\nx | y | z | e4\n-3 | e4\n\"open | e4\nA00 |\ne4 e4\n",
        );
        assert_eq!(book.lines.len(), 1);
        let lines: Vec<usize> = book.errors.iter().map(|e| e.line_no).collect();
        assert_eq!(lines, vec![2, 3, 4, 5, 6, 7]);
        assert!(book.errors[0].message.contains("move 3 ('Nf9')"));
        assert!(book.errors[0].to_string().starts_with("line 2: "));
        assert!(book.errors[2].message.contains("weight"));
        assert!(book.errors[5].message.contains("move 2 ('e4')"));
    }
}
