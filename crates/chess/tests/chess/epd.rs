//! EPD parsing: every shared suite reads cleanly, operations keep their data, and bad lines are
//! reported with their line number while reading goes on.

use kestrel_chess::{Board, EpdError, EpdRecord, FenError, read_epd_file};
use kestrel_testdata::{fixture, shared_or_skip};
use std::path::Path;

#[test]
fn every_shared_epd_file_parses_with_legal_best_moves() {
    let dir = shared_or_skip!("epd");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "epd") {
            continue;
        }
        files += 1;
        let (records, errors) = read_epd_file(&path).unwrap();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        assert!(!records.is_empty(), "{}", path.display());
        for (line, r) in &records {
            let bm = r
                .best_moves()
                .unwrap_or_else(|e| panic!("{}:{line}: {e}", path.display()));
            let am = r
                .avoid_moves()
                .unwrap_or_else(|e| panic!("{}:{line}: {e}", path.display()));
            assert!(
                !bm.is_empty() || !am.is_empty(),
                "{}:{line} has neither bm nor am",
                path.display()
            );
            // Re-reading the written line gives the same record.
            let again = EpdRecord::parse(&r.to_line()).unwrap();
            assert_eq!(&again, r, "{}:{line}", path.display());
        }
    }
    assert!(files >= 8, "expected the 8 shared suites, found {files}");
}

#[test]
fn sts_keeps_comment_operations_as_data() {
    let (records, _) = read_epd_file(&shared_or_skip!("epd/sts.epd")).unwrap();
    assert_eq!(records.len(), 1500);
    let (_, first) = &records[0];
    assert_eq!(first.id(), Some("STS(v1.0) Undermine.001"));
    assert_eq!(first.op("c0").unwrap(), ["f5=10, Be5+=2, Bf2=3, Bg4=2"]);
    assert_eq!(first.op("c9").unwrap(), ["f4f5 d4e5 d4f2 f3g4"]);
    assert_eq!(first.best_moves().unwrap()[0].to_string(), "f4f5");
}

#[test]
fn perft_suites_read_full_fen_and_depth_operations() {
    let (cpw, errors) = read_epd_file(&fixture("perft-cpw.epd")).unwrap();
    assert!(errors.is_empty(), "perft-cpw.epd: {errors:?}");
    assert_eq!(cpw.len(), 7);
    assert!(cpw.iter().all(|(_, r)| r.op("D1").unwrap().len() == 1));
    let startpos = &cpw[0].1;
    assert_eq!(startpos.board, Board::startpos());
    assert_eq!(startpos.op("D3").unwrap(), ["8902"]);
    assert_eq!(startpos.id(), Some("cpw-1-startpos"));
    // Position 5 has counters "1 8": they must reach the board.
    let pos5 = cpw.iter().find(|(_, r)| r.id() == Some("cpw-5")).unwrap();
    assert_eq!(pos5.1.board.fullmove_number(), 8);
    assert_eq!(pos5.1.board.halfmove_clock(), 1);
}

#[test]
fn the_classic_perft_suite_reads_whole() {
    let suite = shared_or_skip!("perft/perftsuite.epd");
    let (records, errors) = read_epd_file(&suite).unwrap();
    assert!(errors.is_empty(), "perftsuite.epd: {errors:?}");
    assert_eq!(records.len(), 126);
    assert!(records.iter().all(|(_, r)| r.op("D1").unwrap().len() == 1));
}

#[test]
fn counters_come_from_hmvc_and_fmvn() {
    let r = EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - hmvc 12; fmvn 40; id \"x\";").unwrap();
    assert_eq!(r.board.halfmove_clock(), 12);
    assert_eq!(r.board.fullmove_number(), 40);
    assert_eq!(r.id(), Some("x"));
    // Counters written back as operations survive a round trip.
    let from_fen = EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 b - - 7 33 ;D1 5").unwrap();
    let line = from_fen.to_line();
    assert_eq!(line, "4k3/8/8/8/8/8/8/4K3 b - - hmvc 7; fmvn 33; D1 5;");
    assert_eq!(EpdRecord::parse(&line).unwrap().board, from_fen.board);
}

#[test]
fn quoted_operands_may_hold_semicolons() {
    let r = EpdRecord::parse(r#"4k3/8/8/8/8/8/8/4K3 w - - c0 "a; b"; bm Kd2 Ke2;"#).unwrap();
    assert_eq!(r.op("c0").unwrap(), ["a; b"]);
    assert_eq!(r.op("bm").unwrap(), ["Kd2", "Ke2"]);
    assert_eq!(r.best_moves().unwrap().len(), 2);
    assert_eq!(r.op("am"), None);
    assert!(r.avoid_moves().unwrap().is_empty());
}

#[test]
fn bad_lines_give_specific_errors() {
    assert_eq!(EpdRecord::parse("   "), Err(EpdError::Empty));
    assert_eq!(
        EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w -"),
        Err(EpdError::TooFewFields(3))
    );
    assert_eq!(
        EpdRecord::parse("4k3/8/8/8/8/8/8/4X3 w - - bm Kd2;"),
        Err(EpdError::Fen(FenError::UnknownPiece('X')))
    );
    assert!(matches!(
        EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - x 1 ;D1 5"),
        Ok(ref r) if r.op("x").is_some()
    ));
    assert_eq!(
        EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 x1 ;D1 5"),
        Err(EpdError::BadCounter {
            field: "fullmove number",
            value: "x1".into()
        })
    );
    assert_eq!(
        EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; +x 3;"),
        Err(EpdError::BadOpcode("+x".into()))
    );
    assert_eq!(
        EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - id \"open;"),
        Err(EpdError::UnterminatedString("id".into()))
    );
    // A bm that is not legal is reported when the moves are read.
    let r = EpdRecord::parse("4k3/8/8/8/8/8/8/4K3 w - - bm Kd3;").unwrap();
    assert!(r.best_moves().is_err());
}

#[test]
fn reading_a_file_reports_bad_lines_and_continues() {
    let dir = std::env::temp_dir().join(format!("kestrel-epd-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mixed.epd");
    std::fs::write(
        &path,
        "# comment\n\
         4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id \"one\";\n\
         \n\
         not an epd line\n\
         4k3/8/8/8/8/8/8/4K3 b - - bm Kd7; id \"two\";\r\n",
    )
    .unwrap();
    let (records, errors) = read_epd_file(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let ids: Vec<(usize, &str)> = records.iter().map(|(l, r)| (*l, r.id().unwrap())).collect();
    assert_eq!(ids, [(2, "one"), (5, "two")]);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].0, 4);
    assert!(matches!(errors[0].1, EpdError::Fen(_)));
    assert!(read_epd_file(Path::new("/nonexistent/kestrel.epd")).is_err());
}
