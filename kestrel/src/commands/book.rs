//! `kestrel book build|probe|eco`: compile text books, build Polyglot books from PGN, list the
//! book moves of a position, and turn ECO opening lists into a weighted text book.

use crate::commands::checked;
use anyhow::{Context, bail};
use clap::Subcommand;
use kestrel_chess::Board;
use kestrel_params::atomic::write_atomic;
use kestrel_tools::book::{
    Book, BookFormat, PgnBookOptions, build_polyglot_from_pgn, compile_text_book, eco_rows_to_text,
    encode_kbk, encode_polyglot, parse_text_book, read_eco_tsv, weigh_rows_by_games,
};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Subcommand)]
pub enum BookCommand {
    /// Compile a text book (--text) into .kbk, or build a Polyglot .bin from PGN games (--pgn).
    Build(BuildArgs),
    /// List the book moves of a position with their weights.
    Probe(ProbeArgs),
    /// Write a text book from ECO opening lists (TSV), weighted by how often games play them.
    Eco(EcoArgs),
}

#[derive(clap::Args)]
pub struct BuildArgs {
    /// Text book to compile (one line per row: `[ECO "Name" |] [weight |] moves`) (default: none).
    #[arg(long, conflicts_with = "pgn", required_unless_present = "pgn")]
    pub text: Option<PathBuf>,
    /// PGN file to build a Polyglot book from (default: none).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Output file (.kbk for --text, Polyglot .bin for --pgn; `--out` is an old spelling).
    #[arg(long = "output", alias = "out", value_name = "FILE", value_parser = checked::writable_file)]
    pub out: PathBuf,
    /// --pgn: use only the first N plies of each game.
    #[arg(long, default_value_t = 24)]
    pub max_ply: usize,
    /// --pgn: keep a move only if at least N games played it.
    #[arg(long, default_value_t = 3)]
    pub min_games: u32,
}

#[derive(clap::Args)]
pub struct ProbeArgs {
    /// Book file (.kbk or Polyglot .bin); `<builtin>` is the book shipped in the binary.
    #[arg(long)]
    pub book: String,
    /// Position to probe (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (UCI) to play from that position first, e.g. "e2e4 e7e5" (default: none).
    #[arg(long)]
    pub moves: Option<String>,
}

#[derive(clap::Args)]
pub struct EcoArgs {
    /// ECO list(s): tab-separated `eco name pgn` rows.
    #[arg(long, required = true, num_args = 1..)]
    pub tsv: Vec<PathBuf>,
    /// PGN games that weigh each row (weight = games playing its rarest move); rows get
    /// weight 1 without it (`--games` is an old spelling).
    #[arg(long = "pgn", alias = "games", value_name = "FILE")]
    pub games: Option<PathBuf>,
    /// Plies of each game looked at when weighing.
    #[arg(long, default_value_t = 40)]
    pub max_ply: usize,
    /// Output text book (`--out` is an old spelling).
    #[arg(long = "output", alias = "out", value_name = "FILE", value_parser = checked::writable_file)]
    pub out: PathBuf,
}

/// Builds a book, lists the book moves of a position, or turns an ECO list into a book, as the
/// subcommand says.
pub fn run(args: BookArgs) -> anyhow::Result<()> {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
        BookCommand::Eco(a) => eco(a),
    }
}

fn build(args: BuildArgs) -> anyhow::Result<()> {
    if let Some(text_path) = &args.text {
        let bytes = std::fs::read(text_path)
            .with_context(|| format!("cannot read {}", text_path.display()))?;
        let text = String::from_utf8_lossy(&bytes);
        let parsed = parse_text_book(&text);
        for e in &parsed.errors {
            eprintln!("{}: {e} (row skipped)", text_path.display());
        }
        if parsed.lines.is_empty() {
            bail!("{} has no valid rows", text_path.display());
        }
        let book = compile_text_book(&parsed);
        write_atomic(&args.out, &encode_kbk(book.entries(), book.names()))
            .with_context(|| format!("cannot write {}", args.out.display()))?;
        println!(
            "{} rows read, {} skipped; {} entries, {} named positions -> {}",
            parsed.lines.len(),
            parsed.errors.len(),
            book.len(),
            book.names().len(),
            args.out.display()
        );
    } else if let Some(pgn_path) = &args.pgn {
        let file =
            File::open(pgn_path).with_context(|| format!("cannot read {}", pgn_path.display()))?;
        let options = PgnBookOptions {
            max_ply: args.max_ply,
            min_games: args.min_games.max(1),
        };
        let (entries, stats) = build_polyglot_from_pgn(BufReader::new(file), options)?;
        for e in &stats.first_errors {
            eprintln!("{}: {e} (game skipped)", pgn_path.display());
        }
        if stats.games == 0 {
            bail!(
                "{} holds no valid PGN game ({} skipped): no book written",
                pgn_path.display(),
                stats.skipped
            );
        }
        if entries.is_empty() {
            bail!(
                "no move of {} was played in --min-games {} games within --max-ply {}: no book written",
                pgn_path.display(),
                options.min_games,
                options.max_ply
            );
        }
        write_atomic(&args.out, &encode_polyglot(&entries))
            .with_context(|| format!("cannot write {}", args.out.display()))?;
        println!(
            "{} games read, {} skipped; {} entries -> {}",
            stats.games,
            stats.skipped,
            stats.entries,
            args.out.display()
        );
    }
    Ok(())
}

fn probe(args: ProbeArgs) -> anyhow::Result<()> {
    let book = if args.book == kestrel_uci::BUILTIN_BOOK {
        Book::builtin()
    } else {
        Book::load(Path::new(&args.book))?
    };
    let mut board = match &args.fen {
        Some(fen) => Board::from_fen(fen).with_context(|| format!("invalid FEN '{fen}'"))?,
        None => Board::startpos(),
    };
    for text in args.moves.as_deref().unwrap_or("").split_whitespace() {
        let mv = board.parse_uci_move(text)?;
        board.make_move(mv);
    }
    let format = match book.format() {
        BookFormat::Polyglot => "Polyglot",
        BookFormat::Kestrel => "Kestrel kbk",
    };
    println!("book: {} ({format}, {} entries)", args.book, book.len());
    println!("position: {}", board.to_fen());
    println!("key: {:016x}", board.hash());
    if let Some(name) = book.opening_name(&board) {
        println!("opening: {} {}", name.eco, name.name);
    }
    let moves = book.probe(&board);
    if moves.is_empty() {
        println!("no book moves for this position");
        return Ok(());
    }
    let total: u64 = moves.iter().map(|m| m.weight as u64).sum();
    println!("{:<6} {:<8} {:>8} {:>7}", "move", "san", "weight", "share");
    for m in &moves {
        let share = 100.0 * m.weight as f64 / total.max(1) as f64;
        println!(
            "{:<6} {:<8} {:>8} {:>6.1}%",
            m.mv.to_string(),
            board.to_san(m.mv),
            m.weight,
            share
        );
    }
    Ok(())
}

fn eco(args: EcoArgs) -> anyhow::Result<()> {
    let mut rows = Vec::new();
    for path in &args.tsv {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let (mut found, errors) = read_eco_tsv(&text);
        for e in errors {
            eprintln!("{}: {e} (row skipped)", path.display());
        }
        rows.append(&mut found);
    }
    if rows.is_empty() {
        bail!("no valid ECO rows");
    }
    let mut source = format!(
        "ECO lines from {}",
        args.tsv
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(games) = &args.games {
        let file = File::open(games).with_context(|| format!("cannot read {}", games.display()))?;
        let n = weigh_rows_by_games(&mut rows, BufReader::new(file), args.max_ply);
        source.push_str(&format!(
            "; weight = games (of {n} in {}) that played the row's rarest move in that position",
            games
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        ));
    } else {
        rows.iter_mut().for_each(|r| r.weight = 1);
    }
    let header = format!(
        "Kestrel text opening book. Row: ECO \"Name\" | weight | moves (SAN or UCI).\n\
         A move's weight is the largest weight of the rows playing it; weight 0 is never played.\n\
         Edit, then rebuild: kestrel book build --text THIS_FILE --output BOOK.kbk\n{source}"
    );
    write_atomic(&args.out, eco_rows_to_text(&rows, &header).as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let played = rows.iter().filter(|r| r.weight > 0).count();
    println!(
        "{} rows ({played} with weight > 0) -> {}",
        rows.len(),
        args.out.display()
    );
    Ok(())
}
