//! The UCI mentor against a scripted fake engine: scores become white-relative, mates are
//! marked, and a crashing engine is restarted and its position reported as failed.

use kestrel_chess::Board;
use kestrel_evolve::mentor::labels::{Label, Mentor};
use kestrel_evolve::mentor::uci_mentor::UciMentor;

/// Answers `score cp 25` for the side to move, mate when Black's king is on h8, and exits
/// (a crash) when asked about a position with White's king on a1.
const FAKE_ENGINE: &str = r#"
while read -r line; do
  case "$line" in
    uci) echo "id name FakeFish"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
    "position fen "*) fen="${line#position fen }" ;;
    go*)
      case "$fen" in
        *K7\ *) exit 3 ;;
        7k/*) echo "info depth 2 score mate 2 pv a1a2"; echo "bestmove a1a2" ;;
        *) echo "info depth 1 score cp 10"; echo "info depth 2 score cp 25 nodes 40"; echo "bestmove 0000" ;;
      esac ;;
  esac
done
"#;

/// Answers the handshake but never `go`.
const HUNG_ENGINE: &str = r#"
while read -r line; do
  case "$line" in
    uci) echo "id name Sleepy"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
"#;

/// Writes a scripted engine into a fresh temporary folder: the folder and the command that
/// runs it.
fn fake_engine(name: &str, body: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("kestrel-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(&script, body).unwrap();
    (dir, format!("sh {}", script.display()))
}

/// Scores a position by how many searches it made since the last `ucinewgame`, as a hash
/// table carried between positions would: only a cleared engine answers the same each time.
const REMEMBERING_ENGINE: &str = r#"
seen=0
while read -r line; do
  case "$line" in
    uci) echo "id name Elephant"; echo "uciok" ;;
    isready) echo "readyok" ;;
    ucinewgame) seen=0 ;;
    quit) exit 0 ;;
    go*) seen=$((seen + 1)); echo "info depth 2 score cp $seen"; echo "bestmove 0000" ;;
  esac
done
"#;

#[test]
fn every_position_is_labelled_from_a_cleared_engine() {
    let (dir, command) = fake_engine("cleared-mentor", REMEMBERING_ENGINE);
    let mut mentor = UciMentor::new(&command, 2, 2).unwrap();
    let boards = vec![Board::startpos(); 12];
    let first = mentor.label(&boards).unwrap();
    assert_eq!(first, vec![Some(Label::Cp(1)); 12]);
    assert_eq!(
        mentor.label(&boards).unwrap(),
        first,
        "the same on a second call"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mentor_that_never_answers_gives_up_with_an_error() {
    let (dir, command) = fake_engine("hung-mentor", HUNG_ENGINE);
    let mut mentor = UciMentor::new(&command, 2, 2)
        .unwrap()
        .with_move_timeout(std::time::Duration::from_millis(200));
    let boards = vec![Board::startpos(); 50];
    let started = std::time::Instant::now();
    let err = mentor.label(&boards).unwrap_err();
    assert!(started.elapsed().as_secs() < 20, "gave up in time");
    assert!(err.contains("in a row") && err.contains("hung"), "{err}");
    assert!(mentor.restarts() >= 6, "restarts are counted");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fake_engine_labels_restarts_and_failures() {
    let (dir, command) = fake_engine("uci-mentor", FAKE_ENGINE);
    let mut mentor = UciMentor::new(&command, 2, 2).unwrap();
    assert_eq!(mentor.key(), format!("uci:{command} [FakeFish]/d2"));
    let boards: Vec<Board> = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "7k/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/K7 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1",
    ]
    .iter()
    .map(|f| Board::from_fen(f).unwrap())
    .collect();
    let labels = mentor.label(&boards).unwrap();
    assert_eq!(
        labels,
        vec![
            Some(Label::Cp(-25)),
            Some(Label::Cp(25)),
            Some(Label::Mate),
            None,
            Some(Label::Cp(-25)),
        ]
    );
    assert!(mentor.restarts() >= 3, "the crashing position was retried");
    // The pool still works after the crashes.
    assert_eq!(
        mentor.label(&boards[1..2]).unwrap(),
        vec![Some(Label::Cp(25))]
    );
    assert!(UciMentor::new("/nonexistent/engine", 2, 1).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
