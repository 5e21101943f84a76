//! `params/default.toml` is the built-in evaluation: it must parse (as any params file) to
//! exactly the compiled defaults, name every term, and stay within the declared ranges; and the
//! build script that compiles it must reject malformed data with a clear message.

use kestrel_eval::EVAL_TABLE;
use kestrel_params::{ParamValues, ParamsFile};

#[path = "../../build.rs"]
#[allow(dead_code)]
mod build_script;

const DEFAULT_TOML: &str = include_str!("../../params/default.toml");

#[test]
fn default_toml_parses_to_the_compiled_defaults() {
    let parsed = ParamsFile::parse(DEFAULT_TOML, &[&EVAL_TABLE]).unwrap();
    assert_eq!(parsed[0], ParamValues::defaults(&EVAL_TABLE));
    // Parsing starts from the defaults, so also check each term is really written in the file.
    let doc: toml::Table = DEFAULT_TOML.parse().unwrap();
    let eval = doc["eval"].as_table().unwrap();
    for d in EVAL_TABLE.decls {
        assert!(
            eval.contains_key(d.name),
            "{} missing from default.toml",
            d.name
        );
    }
    assert_eq!(eval.len(), EVAL_TABLE.decls.len());
}

#[test]
fn every_default_has_its_declared_length_and_range() {
    EVAL_TABLE.validate().unwrap();
    for d in EVAL_TABLE.decls {
        assert_eq!(d.defaults.len(), d.width(), "{}", d.name);
        assert!(
            d.defaults.iter().all(|v| (d.min..=d.max).contains(v)),
            "{}: a default outside [{}, {}]",
            d.name,
            d.min,
            d.max
        );
    }
}

#[test]
fn build_script_flattens_each_shape_in_declaration_layout() {
    let code = build_script::generate(
        "[eval]\nA = 5\nB = [1, -2]\nC = [3, 4, 5]\nD = { mg = [1, 2], eg = [3, 4] }\n",
    )
    .unwrap();
    for line in [
        "pub(crate) const A: [i32; 1] = [5];",
        "pub(crate) const B: [i32; 2] = [1, -2];",
        "pub(crate) const C: [i32; 3] = [3, 4, 5];",
        "pub(crate) const D: [i32; 4] = [1, 2, 3, 4];",
    ] {
        assert!(code.contains(line), "{line} not in\n{code}");
    }
    // The real file: one const per term, each as wide as its declaration.
    let code = build_script::generate(DEFAULT_TOML).unwrap();
    for d in EVAL_TABLE.decls {
        let decl = format!("pub(crate) const {}: [i32; {}] = [", d.name, d.width());
        assert!(code.contains(&decl), "{decl}");
    }
}

#[test]
fn build_script_rejects_malformed_data_with_a_clear_message() {
    for (text, expected) in [
        ("[eval\n", "not valid TOML"),
        ("X = 1\n", "only an [eval] section"),
        (
            "[eval]\nA = 1\n[search]\nB = 2\n",
            "unexpected top-level entry 'search'",
        ),
        ("[search]\nA = 1\n", "unexpected top-level entry 'search'"),
        ("[other]\n", "unexpected top-level entry 'other'"),
        ("", "no [eval] section"),
        ("eval = 3\n", "[eval] must be a section"),
        ("[eval]\ntempo = 3\n", "'tempo' is not a parameter name"),
        ("[eval]\n\"A-B\" = 3\n", "'A-B' is not a parameter name"),
        ("[eval]\nA = 1.5\n", "A: expected an integer"),
        ("[eval]\nA = \"5\"\n", "A: expected an integer"),
        (
            "[eval]\nA = [1, 2.0]\n",
            "A: expected an integer, found 2.0",
        ),
        (
            "[eval]\nA = 3000000000\n",
            "A: 3000000000 does not fit in 32 bits",
        ),
        ("[eval]\nA = []\n", "A: empty list"),
        (
            "[eval]\nA = { mg = [1, 2], eg = [3] }\n",
            "mg has 2 values but eg has 1",
        ),
        ("[eval]\nA = { mg = [1] }\n", "A: missing eg"),
        (
            "[eval]\nA = { mg = [1], eg = [2], xg = [3] }\n",
            "unexpected key 'xg'",
        ),
    ] {
        let err = build_script::generate(text).unwrap_err();
        assert!(err.contains(expected), "{text:?}: {err}");
    }
}
