//! Params files through EVAL_TABLE: round trip, unknown names, bad values, foreign sections.

use crate::common;

use kestrel_eval::{EVAL_TABLE, parse_eval_params};
use kestrel_params::{ParamFileError, ParamValues, ParamsFile};

#[test]
fn render_then_parse_gives_the_same_values() {
    for values in [ParamValues::defaults(&EVAL_TABLE), common::random_values(5)] {
        let text = ParamsFile::render(&[&values]);
        let back = ParamsFile::parse(&text, &[&EVAL_TABLE]).unwrap();
        assert_eq!(back[0], values);
        assert_eq!(parse_eval_params(&text).unwrap(), values);
    }
}

#[test]
fn unknown_names_and_out_of_range_values_are_rejected() {
    let err = parse_eval_params("[eval]\nNOT_A_TERM = 3\n").unwrap_err();
    assert!(matches!(err, ParamFileError::UnknownName { ref name, .. } if name == "NOT_A_TERM"));
    let err = parse_eval_params("[eval]\nBISHOP_PAIR = 64\n").unwrap_err();
    assert!(matches!(err, ParamFileError::BadValue { .. }), "{err}");
    let err = parse_eval_params("[eval]\nTEMPO = 5\n").unwrap_err();
    assert!(err.to_string().contains("TEMPO"), "{err}");
    let err = parse_eval_params("[eval]\nPST_KNIGHT = { mg = [1, 2] }\n").unwrap_err();
    assert!(matches!(err, ParamFileError::BadValue { .. }), "{err}");
    assert!(parse_eval_params("[eval\n").is_err());
}

#[test]
fn search_section_is_tolerated_other_sections_are_not() {
    let text = "[eval]\nBISHOP_PAIR = 33\nTEMPO = [7, 3]\n[search]\nNULL_MOVE_R = 4\n";
    let values = parse_eval_params(text).unwrap();
    assert_eq!(values.get("BISHOP_PAIR"), Some(&[33][..]));
    assert_eq!(values.get("TEMPO"), Some(&[7, 3][..]));
    let defaults = ParamValues::defaults(&EVAL_TABLE);
    assert_eq!(values.get("PST_KING"), defaults.get("PST_KING"));
    let err = parse_eval_params("[evl]\nBISHOP_PAIR = 33\n").unwrap_err();
    assert!(matches!(err, ParamFileError::UnknownSection(..)), "{err}");
}
