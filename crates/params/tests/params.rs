//! Parameter declarations, params files and chromosome schemas.

use kestrel_params::{
    BitSchema, Coding, ParamDecl, ParamFileError, ParamTable, ParamValues, ParamsFile,
};
use proptest::prelude::*;

static DECLS: [ParamDecl; 4] = [
    ParamDecl {
        name: "SCALAR",
        doc: "a plain value",
        len: 1,
        tapered: false,
        defaults: &[5],
        min: 0,
        max: 7,
        bits: 3,
        step: 0,
    },
    ParamDecl {
        name: "PAIR",
        doc: "a tapered value",
        len: 1,
        tapered: true,
        defaults: &[10, 20],
        min: -50,
        max: 50,
        bits: 7,
        step: 0,
    },
    ParamDecl {
        name: "ARRAY",
        doc: "an array",
        len: 3,
        tapered: false,
        defaults: &[1, 2, 3],
        min: 0,
        max: 1023,
        bits: 10,
        step: 0,
    },
    ParamDecl {
        name: "TABLE",
        doc: "a tapered table",
        len: 2,
        tapered: true,
        defaults: &[1, 2, 3, 4],
        min: -100,
        max: 100,
        bits: 4,
        step: 0,
    },
];
static TABLE: ParamTable = ParamTable {
    section: "test",
    decls: &DECLS,
};

static OTHER_DECLS: [ParamDecl; 1] = [ParamDecl {
    name: "SWITCH",
    doc: "on/off",
    len: 1,
    tapered: false,
    defaults: &[1],
    min: 0,
    max: 1,
    bits: 1,
    step: 0,
}];
static OTHER: ParamTable = ParamTable {
    section: "other",
    decls: &OTHER_DECLS,
};

#[test]
fn table_layout() {
    TABLE.validate().unwrap();
    assert_eq!(TABLE.len(), 1 + 2 + 3 + 4);
    assert_eq!(TABLE.offsets(), vec![0, 1, 3, 6]);
    assert_eq!(TABLE.offset_of("table"), Some(6));
    assert_eq!(
        TABLE.flat_names(),
        vec![
            "SCALAR",
            "PAIR.mg",
            "PAIR.eg",
            "ARRAY[0]",
            "ARRAY[1]",
            "ARRAY[2]",
            "TABLE[0].mg",
            "TABLE[1].mg",
            "TABLE[0].eg",
            "TABLE[1].eg"
        ]
    );
}

#[test]
fn invalid_declarations_are_caught() {
    static BAD: [ParamDecl; 1] = [ParamDecl {
        name: "BAD",
        doc: "",
        len: 1,
        tapered: false,
        defaults: &[9],
        min: 0,
        max: 7,
        bits: 3,
        step: 0,
    }];
    static BAD_TABLE: ParamTable = ParamTable {
        section: "bad",
        decls: &BAD,
    };
    assert!(BAD_TABLE.validate().unwrap_err().contains("outside"));
}

#[test]
fn file_round_trip() {
    let mut v = ParamValues::defaults(&TABLE);
    v.set("PAIR", &[-3, 44]).unwrap();
    v.set("TABLE", &[9, 8, 7, 6]).unwrap();
    let mut o = ParamValues::defaults(&OTHER);
    o.set_scalar("SWITCH", 0).unwrap();
    let text = ParamsFile::render(&[&v, &o]);
    let parsed = ParamsFile::parse(&text, &[&TABLE, &OTHER]).unwrap();
    assert_eq!(parsed[0], v);
    assert_eq!(parsed[1], o);
}

#[test]
fn partial_file_keeps_defaults() {
    let parsed = ParamsFile::parse("[test]\nSCALAR = 2\n", &[&TABLE, &OTHER]).unwrap();
    assert_eq!(parsed[0].get("SCALAR"), Some(&[2][..]));
    assert_eq!(parsed[0].get("ARRAY"), Some(&[1, 2, 3][..]));
    assert_eq!(parsed[1], ParamValues::defaults(&OTHER));
}

#[test]
fn bad_files_are_rejected_with_clear_messages() {
    let cases: [(&str, &str); 8] = [
        ("[test]\nNOPE = 1\n", "unknown parameter 'NOPE'"),
        ("[nosuch]\nX = 1\n", "unknown section [nosuch]"),
        ("[test]\nSCALAR = 8\n", "outside its range"),
        ("[test]\nSCALAR = \"five\"\n", "expected an integer"),
        ("[test]\nPAIR = [1]\n", "expected 2 values"),
        ("[test]\nTABLE = { mg = [1, 2] }\n", "missing eg"),
        (
            "[test]\nTABLE = { mg = [1, 2], eg = [1, 2], xx = [1] }\n",
            "unexpected key",
        ),
        ("[test\nSCALAR = 1\n", "not valid TOML"),
    ];
    for (text, expected) in cases {
        let err = ParamsFile::parse(text, &[&TABLE, &OTHER]).unwrap_err();
        assert!(
            err.to_string().contains(expected),
            "{text:?}: got '{err}', wanted '{expected}'"
        );
    }
    let missing =
        ParamsFile::load(std::path::Path::new("/nonexistent/params.toml"), &[&TABLE]).unwrap_err();
    assert!(matches!(missing, ParamFileError::Io { .. }));
}

#[test]
fn save_is_atomic_and_loadable() {
    let dir = std::env::temp_dir().join(format!("kestrel-params-{}", std::process::id()));
    let path = dir.join("p.toml");
    let v = ParamValues::defaults(&TABLE);
    ParamsFile::save(&path, &[&v]).unwrap();
    assert_eq!(ParamsFile::load(&path, &[&TABLE]).unwrap()[0], v);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn schema_bit_length_follows_declarations() {
    let all = BitSchema::new(&TABLE, None, Coding::Binary).unwrap();
    assert_eq!(all.bit_len(), 3 + 2 * 7 + 3 * 10 + 4 * 4);
    let some = BitSchema::new(&TABLE, Some(&["SCALAR", "ARRAY"]), Coding::Gray).unwrap();
    assert_eq!(some.bit_len(), 3 + 30);
    assert!(BitSchema::new(&TABLE, Some(&["MISSING"]), Coding::Binary).is_err());
}

#[test]
fn decode_keeps_base_values_outside_the_schema() {
    let schema = BitSchema::new(&TABLE, Some(&["SCALAR"]), Coding::Binary).unwrap();
    let base = ParamValues::defaults(&TABLE);
    let decoded = schema.decode(&[true, true, false], &base);
    assert_eq!(decoded.get("SCALAR"), Some(&[6][..]));
    assert_eq!(decoded.get("ARRAY"), base.get("ARRAY"));
}

#[test]
fn gray_code_neighbours_differ_by_one_bit() {
    let schema = BitSchema::new(&TABLE, Some(&["SCALAR"]), Coding::Gray).unwrap();
    let mut v = ParamValues::defaults(&TABLE);
    for x in 0..7 {
        v.set_scalar("SCALAR", x).unwrap();
        let a = schema.encode(&v);
        v.set_scalar("SCALAR", x + 1).unwrap();
        let b = schema.encode(&v);
        assert_eq!(
            a.iter().zip(&b).filter(|(p, q)| p != q).count(),
            1,
            "{x} -> {}",
            x + 1
        );
    }
}

proptest! {
    #[test]
    fn encode_decode_round_trip(scalar in 0i32..=7, pair in (-50i32..=50, -50i32..=50), arr in proptest::collection::vec(0i32..=1023, 3), gray in any::<bool>()) {
        let coding = if gray { Coding::Gray } else { Coding::Binary };
        let schema = BitSchema::new(&TABLE, Some(&["SCALAR", "ARRAY", "PAIR"]), coding).unwrap();
        let mut v = ParamValues::defaults(&TABLE);
        v.set_scalar("SCALAR", scalar).unwrap();
        v.set("ARRAY", &arr).unwrap();
        v.set("PAIR", &[pair.0, pair.1]).unwrap();
        let decoded = schema.decode(&schema.encode(&v), &ParamValues::defaults(&TABLE));
        // Exact where the range fits the bits; PAIR (101 values in 7 bits = 128 codes) too.
        prop_assert_eq!(decoded, v);
    }

    #[test]
    fn decoded_values_stay_in_range(bits in proptest::collection::vec(any::<bool>(), 3 + 14 + 30 + 16)) {
        let schema = BitSchema::new(&TABLE, None, Coding::Binary).unwrap();
        let v = schema.decode(&bits, &ParamValues::defaults(&TABLE));
        for (f, value) in schema.fields.iter().zip(schema.decode_fields(&bits)) {
            prop_assert!(value >= f.min && value <= f.max);
            prop_assert_eq!(v.values[f.flat_index], value);
        }
    }
}

#[test]
fn element_names_address_every_flat_value() {
    let names = TABLE.element_names();
    assert_eq!(names.len(), TABLE.len());
    assert_eq!(
        names,
        [
            "SCALAR",
            "PAIR_MG",
            "PAIR_EG",
            "ARRAY_0",
            "ARRAY_1",
            "ARRAY_2",
            "TABLE_MG_0",
            "TABLE_MG_1",
            "TABLE_EG_0",
            "TABLE_EG_1"
        ]
    );
    for (flat, name) in names.iter().enumerate() {
        assert_eq!(TABLE.find_element(name).map(|(i, _)| i), Some(flat));
        assert_eq!(
            TABLE.find_element(&name.to_lowercase()).map(|(i, _)| i),
            Some(flat)
        );
    }
    assert!(TABLE.find_element("TABLE_EG_2").is_none());
    assert!(TABLE.find_element("PAIR").is_none());
    assert!(TABLE.find_element("SCALARX").is_none());
}

#[test]
fn a_params_file_sets_single_elements_by_name() {
    let sets = ParamsFile::parse("[test]\nTABLE_EG_1 = -7\nPAIR_MG = 33\n", &[&TABLE]).unwrap();
    assert_eq!(sets[0].get("TABLE"), Some(&[1, 2, 3, -7][..]));
    assert_eq!(sets[0].get("PAIR"), Some(&[33, 20][..]));
    let err = ParamsFile::parse("[test]\nTABLE_EG_1 = 700\n", &[&TABLE]).unwrap_err();
    assert!(err.to_string().contains("outside its range"), "{err}");
    let err = ParamsFile::parse("[test]\nTABLE_EG_9 = 1\n", &[&TABLE]).unwrap_err();
    assert_eq!(err.to_string(), "[test] unknown parameter 'TABLE_EG_9'");
}

#[test]
fn spsa_steps_are_declared_or_derived_from_the_range() {
    assert_eq!(
        DECLS[0].spsa_step(),
        Some(1),
        "0..7: a twentieth rounds up to 1"
    );
    assert_eq!(DECLS[1].spsa_step(), Some(5), "-50..50");
    assert_eq!(DECLS[2].spsa_step(), Some(51), "0..1023");
    assert_eq!(OTHER_DECLS[0].spsa_step(), None, "a switch");
    let declared = ParamDecl {
        step: 7,
        ..DECLS[2]
    };
    assert_eq!(declared.spsa_step(), Some(7));
    let choice = ParamDecl {
        step: -1,
        ..DECLS[2]
    };
    assert_eq!(choice.spsa_step(), None);
    let values = ParamValues::defaults(&TABLE);
    let lines = kestrel_params::spsa_lines(&[&values], None).unwrap();
    assert_eq!(lines.len(), TABLE.len());
    assert_eq!(
        kestrel_params::render_openbench(&lines[..2]),
        "SCALAR, int, 5, 0, 7, 1, 0.002\nPAIR_MG, int, 10, -50, 50, 5, 0.002\n"
    );
    let picked = ["ARRAY_1".to_string(), "PAIR".to_string()];
    let lines = kestrel_params::spsa_lines(&[&values], Some(&picked)).unwrap();
    let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["PAIR_MG", "PAIR_EG", "ARRAY_1"]);
}

#[test]
fn load_for_names_the_flag_and_the_file() {
    let dir = std::env::temp_dir().join(format!("kestrel-params-for-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.toml");
    std::fs::write(&path, "[other]\nSWITCH = 0\n").unwrap();
    let loaded = ParamsFile::load_for(&path, &[&TABLE, &OTHER], "--params").unwrap();
    assert_eq!(loaded.sections, ["other"]);
    assert_eq!(loaded.sets[1].values, [0]);
    std::fs::write(&path, "[other]\nNOPE = 0\n").unwrap();
    let err = ParamsFile::load_for(&path, &[&TABLE, &OTHER], "--params").unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "--params {}: [other] unknown parameter 'NOPE'",
            path.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
