//! `--mirror`: a position's features mirrored equal the features of the board mirrored
//! left-right (built here by mirroring its FEN), en passant included; a position with castling
//! rights is never mirrored, one without is mirrored in about half the epochs.

use kestrel_chess::Board;
use kestrel_nnue::InputLayout;
use kestrel_nnue_train::format::{Outcome, PackedPosition};
use kestrel_nnue_train::train::mirror::{Sample, can_mirror};
use kestrel_nnue_train::train::model::Features;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `fen` mirrored a↔h: each rank reversed, the en-passant file mirrored (no castling rights).
fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    assert_eq!(
        fields[2], "-",
        "a position with castling rights has no mirror: {fen}"
    );
    let ranks: Vec<String> = fields[0]
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    let ep = match fields[3] {
        "-" => "-".to_string(),
        sq => {
            let file = sq.as_bytes()[0];
            format!("{}{}", (b'a' + b'h' - file) as char, &sq[1..])
        }
    };
    let mut out = vec![ranks.join("/"), fields[1].into(), "-".into(), ep];
    out.extend(fields[4..].iter().map(|s| s.to_string()));
    out.join(" ")
}

/// Both perspectives' feature sets, sorted (the order of a mirrored list differs).
fn feature_sets(f: &Features) -> (Vec<u16>, Vec<u16>) {
    let mut us = f.us[..f.len].to_vec();
    let mut them = f.them[..f.len].to_vec();
    us.sort_unstable();
    them.sort_unstable();
    (us, them)
}

/// Positions without castling rights from random playouts (every third ply from the tenth).
fn playout_boards_without_castling(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::startpos();
        for ply in 0..200 {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.make_move(moves.as_slice()[rng.random_range(0..moves.len())]);
            let no_rights = board.castling_rights().to_fen() == "-";
            if ply >= 10 && ply % 3 == 0 && no_rights && out.len() < count {
                out.push(board.clone());
            }
        }
    }
    out
}

const FIXED: [&str; 5] = [
    // Black may take en passant on e3; White may take on c6.
    "8/8/3k4/8/3pP3/8/8/4K3 b - e3 0 1",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
    "2r2rk1/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/2R2RK1 w - - 4 17",
    "8/5pk1/6p1/8/2P5/1P4P1/5K2/8 b - - 0 40",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w - - 1 9",
];

#[test]
fn mirrored_features_are_the_features_of_the_mirrored_board() {
    let mut boards: Vec<Board> = FIXED
        .iter()
        .map(|fen| Board::from_fen(fen).unwrap())
        .collect();
    boards.extend(playout_boards_without_castling(3000, 7));
    let with_ep = boards.iter().filter(|b| b.ep_square().is_some()).count();
    assert!(
        with_ep >= 3,
        "{with_ep} positions with an en-passant square"
    );
    for board in &boards {
        let fen = board.to_fen();
        let mirrored_fen = mirror_fen(&fen);
        let mirrored = Board::from_fen(&mirrored_fen).unwrap();
        assert_eq!(mirrored.to_fen(), mirrored_fen, "mirror of {fen}");
        assert_eq!(mirrored.ep_square().is_some(), board.ep_square().is_some());
        let record = PackedPosition::pack(board, 12, Outcome::Draw);
        assert!(can_mirror(&record), "{fen}");
        let sample = Sample {
            record: &record,
            mirrored: true,
        };
        let expected = Features::of(
            &PackedPosition::pack(&mirrored, 12, Outcome::Draw),
            InputLayout::PLAIN,
        );
        assert_eq!(
            feature_sets(&sample.features(InputLayout::PLAIN)),
            feature_sets(&expected),
            "{fen} mirrored is {mirrored_fen}"
        );
        assert_eq!(
            feature_sets(&sample.features(InputLayout::PLAIN).mirrored()),
            feature_sets(&Features::of(&record, InputLayout::PLAIN)),
            "mirroring twice is the identity: {fen}"
        );
    }
    // Not the identity: a position that is not symmetric changes its features.
    let board = Board::from_fen(FIXED[0]).unwrap();
    let record = PackedPosition::pack(&board, 0, Outcome::Draw);
    let f = Features::of(&record, InputLayout::PLAIN);
    assert_ne!(feature_sets(&f.mirrored()), feature_sets(&f));
}

#[test]
fn positions_with_castling_rights_are_never_mirrored() {
    let pack = |fen: &str| PackedPosition::pack(&Board::from_fen(fen).unwrap(), 0, Outcome::Draw);
    let with_rights = [
        pack("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        pack("r3k3/8/8/8/8/8/8/4K3 b q - 0 1"),
        pack("4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
    ];
    let without = pack(FIXED[2]);
    let mut mirrored = 0;
    let draws = 40 * 50;
    for epoch in 0..40 {
        for index in 0..50 {
            for r in &with_rights {
                assert!(!can_mirror(r));
                assert!(!Sample::for_epoch(r, true, 3, epoch, index).mirrored);
            }
            assert!(!Sample::for_epoch(&without, false, 3, epoch, index).mirrored);
            let draw = Sample::for_epoch(&without, true, 3, epoch, index).mirrored;
            assert_eq!(
                draw,
                Sample::for_epoch(&without, true, 3, epoch, index).mirrored,
                "a draw depends on (seed, epoch, index) alone"
            );
            mirrored += draw as usize;
        }
    }
    assert!(
        (draws * 2 / 5..=draws * 3 / 5).contains(&mirrored),
        "{mirrored} of {draws} draws mirrored"
    );
    let draws_of = |seed| -> Vec<bool> {
        (0..64)
            .map(|e| Sample::for_epoch(&without, true, seed, e, 0).mirrored)
            .collect()
    };
    assert_ne!(draws_of(3), draws_of(4), "the seed changes the draws");
}
