//! Generates the attack tables (leaper attacks, magic-bitboard slider attacks, between/line
//! masks) and the Polyglot Zobrist constants at build time, so that nothing is pasted by hand
//! and nothing needs lazy initialisation at run time.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn sq(f: i32, r: i32) -> u64 {
    1u64 << (r * 8 + f)
}

fn leaper(s: i32, deltas: &[(i32, i32)]) -> u64 {
    let (f, r) = (s % 8, s / 8);
    deltas
        .iter()
        .filter(|(df, dr)| on_board(f + df, r + dr))
        .fold(0, |acc, (df, dr)| acc | sq(f + df, r + dr))
}

/// Slider attacks from `s` given blockers `occ`, computed the slow way (used to fill tables).
fn slide(s: i32, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for (df, dr) in dirs {
        let (mut f, mut r) = (s % 8 + df, s / 8 + dr);
        while on_board(f, r) {
            attacks |= sq(f, r);
            if occ & sq(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant occupancy mask: the ray squares, without the board edge at the end of each ray.
fn relevant_mask(s: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for (df, dr) in dirs {
        let (mut f, mut r) = (s % 8 + df, s / 8 + dr);
        while on_board(f + df, r + dr) {
            mask |= sq(f, r);
            f += df;
            r += dr;
        }
    }
    mask
}

struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(2685821657736338717)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for square `s`; returns (mask, magic, shift, table).
fn find_magic(s: i32, dirs: &[(i32, i32)], rng: &mut XorShift) -> (u64, u64, u32, Vec<u64>) {
    let mask = relevant_mask(s, dirs);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    // Enumerate all subsets of the mask (Carry-Rippler).
    let mut occs = Vec::new();
    let mut sub = 0u64;
    loop {
        occs.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let refs: Vec<u64> = occs.iter().map(|&o| slide(s, o, dirs)).collect();
    let size = 1usize << bits;
    let mut table = vec![0u64; size];
    let mut used = vec![false; size];
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        used.iter_mut().for_each(|u| *u = false);
        let mut ok = true;
        for (o, a) in occs.iter().zip(&refs) {
            let idx = (o.wrapping_mul(magic) >> shift) as usize;
            if used[idx] && table[idx] != *a {
                ok = false;
                break;
            }
            used[idx] = true;
            table[idx] = *a;
        }
        if ok {
            return (mask, magic, shift, table);
        }
    }
}

fn write_array(out: &mut String, name: &str, ty: &str, values: &[u64]) {
    writeln!(out, "pub static {name}: [{ty}; {}] = [", values.len()).unwrap();
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("0x{v:016x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=data/polyglot-randoms.txt");
    let mut out = String::new();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);

    let knight: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
            )
        })
        .collect();
    let king: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
            )
        })
        .collect();
    let mut pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(1, 1), (-1, 1)])).collect();
    pawn.extend((0..64).map(|s| leaper(s, &[(1, -1), (-1, -1)])));
    write_array(&mut out, "KNIGHT_ATTACKS", "u64", &knight);
    write_array(&mut out, "KING_ATTACKS", "u64", &king);
    write_array(&mut out, "PAWN_ATTACKS", "u64", &pawn);

    let mut slider_table: Vec<u64> = Vec::new();
    for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
        writeln!(out, "pub static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for s in 0..64 {
            let (mask, magic, shift, table) = find_magic(s, dirs, &mut rng);
            writeln!(
                out,
                "    Magic {{ mask: 0x{mask:016x}, magic: 0x{magic:016x}, shift: {shift}, offset: {} }},",
                slider_table.len()
            )
            .unwrap();
            slider_table.extend(table);
        }
        writeln!(out, "];").unwrap();
    }
    write_array(&mut out, "SLIDER_ATTACKS", "u64", &slider_table);

    // between[a][b]: squares strictly between a and b on a shared line; line[a][b]: the whole line.
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slide(a, 0, dirs) & (1u64 << b) != 0 {
                    between[(a * 64 + b) as usize] =
                        slide(a, 1u64 << b, dirs) & slide(b, 1u64 << a, dirs);
                    line[(a * 64 + b) as usize] =
                        (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | (1u64 << b);
                }
            }
        }
    }
    write_array(&mut out, "BETWEEN", "u64", &between);
    write_array(&mut out, "LINE", "u64", &line);

    let manifest = env::var("CARGO_MANIFEST_DIR").unwrap();
    let randoms = fs::read_to_string(Path::new(&manifest).join("data/polyglot-randoms.txt"))
        .expect("data/polyglot-randoms.txt");
    let randoms: Vec<u64> = randoms
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| u64::from_str_radix(l.trim().trim_start_matches("0x"), 16).expect("hex constant"))
        .collect();
    assert_eq!(
        randoms.len(),
        781,
        "Polyglot needs exactly 781 random constants"
    );
    write_array(&mut out, "POLYGLOT_RANDOMS", "u64", &randoms);

    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("tables.rs");
    fs::write(dest, out).unwrap();
}
