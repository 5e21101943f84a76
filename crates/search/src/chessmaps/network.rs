//! The Chessmaps network: 70 inputs (chessmap and king inputs), 16 hidden units clamped to
//! [-1, 1], one tanh output per sector rating how much the side to move's next move should
//! change its control there. Stored as a small text file; the trained one ships in
//! `crates/search/networks/chessmaps.net` and is compiled in.

use super::chessmap::{INPUTS, chessmap, king_inputs};
use super::sectors::{FLIPPED_SECTOR, SECTORS};
use kestrel_chess::{Board, Color};
use std::path::Path;
use std::sync::{LazyLock, OnceLock};

/// Hidden units.
pub const HIDDEN: usize = 16;

/// A 70-16-11 network.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Input-to-hidden weights, one row per input.
    pub w1: [[f32; HIDDEN]; INPUTS],
    /// Hidden-unit biases.
    pub b1: [f32; HIDDEN],
    /// Hidden-to-output weights, one row per hidden unit.
    pub w2: [[f32; SECTORS]; HIDDEN],
    /// Output biases, one per sector.
    pub b2: [f32; SECTORS],
}

const MAGIC: &str = "chessmaps";

/// The hidden activation: cheap and exactly the same in training and search.
#[inline]
pub fn clamp_unit(x: f32) -> f32 {
    x.clamp(-1.0, 1.0)
}

impl Network {
    /// All weights zero.
    pub fn zeros() -> Network {
        Network {
            w1: [[0.0; HIDDEN]; INPUTS],
            b1: [0.0; HIDDEN],
            w2: [[0.0; SECTORS]; HIDDEN],
            b2: [0.0; SECTORS],
        }
    }

    /// Hidden pre-activations for dense inputs.
    pub fn hidden_sums(&self, inputs: &[f32; INPUTS]) -> [f32; HIDDEN] {
        let mut h = self.b1;
        for (x, row) in inputs.iter().zip(self.w1.iter()) {
            if *x != 0.0 {
                for (hj, w) in h.iter_mut().zip(row) {
                    *hj += x * w;
                }
            }
        }
        h
    }

    /// Output pre-activations from hidden activations.
    pub fn output_sums(&self, hidden: &[f32; HIDDEN]) -> [f32; SECTORS] {
        let mut out = self.b2;
        for (h, row) in hidden.iter().zip(self.w2.iter()) {
            for (o, w) in out.iter_mut().zip(row) {
                *o += h * w;
            }
        }
        out
    }

    /// The network's outputs (in [-1, 1]) for dense inputs.
    pub fn forward(&self, inputs: &[f32; INPUTS]) -> [f32; SECTORS] {
        let hidden = self.hidden_sums(inputs).map(clamp_unit);
        self.output_sums(&hidden).map(f32::tanh)
    }

    /// Output pre-activations for `board` (frame of the side to move), straight from the
    /// chessmap's bitboards: only the non-zero inputs are touched.
    pub fn probe(&self, board: &Board) -> [f32; SECTORS] {
        let view = board.side_to_move();
        let map = chessmap(board, view);
        let mut h = self.b1;
        let mut add = |row: &[f32; HIDDEN], sign: f32| {
            for (hj, w) in h.iter_mut().zip(row) {
                *hj += sign * w;
            }
        };
        for sq in map.plus {
            add(&self.w1[sq.index()], 1.0);
        }
        for sq in map.minus {
            add(&self.w1[sq.index()], -1.0);
        }
        for (i, k) in king_inputs(board, view).into_iter().enumerate() {
            if k != 0 {
                add(&self.w1[64 + i], k as f32);
            }
        }
        self.output_sums(&h.map(clamp_unit))
    }

    /// The rank (0 = most important) of every real-board sector for the side to move.
    pub fn sector_ranks(&self, board: &Board) -> [u8; SECTORS] {
        let out = self.probe(board);
        let mut order: [u8; SECTORS] = std::array::from_fn(|i| i as u8);
        // Insertion sort, best first (11 items; ties keep the lower sector first).
        for i in 1..SECTORS {
            let mut j = i;
            while j > 0 && out[order[j] as usize] > out[order[j - 1] as usize] {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
        let black = board.side_to_move() == Color::Black;
        let mut ranks = [0; SECTORS];
        for (rank, &frame_sector) in order.iter().enumerate() {
            let real = if black {
                FLIPPED_SECTOR[frame_sector as usize]
            } else {
                frame_sector
            };
            ranks[real as usize] = rank as u8;
        }
        ranks
    }

    /// The network as text (Rust's shortest round-trip float format).
    pub fn to_text(&self) -> String {
        let row = |values: &[f32]| {
            values
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out = format!(
            "# Chessmaps move-ordering network: {INPUTS} inputs (64 chessmap squares + 6 king \
             inputs), {HIDDEN} hidden (clamped to [-1, 1]), {SECTORS} outputs (tanh, one per sector)\n\
             {MAGIC} {INPUTS} {HIDDEN} {SECTORS}\nb1 {}\n",
            row(&self.b1)
        );
        for r in &self.w1 {
            out += &format!("w1 {}\n", row(r));
        }
        out += &format!("b2 {}\n", row(&self.b2));
        for r in &self.w2 {
            out += &format!("w2 {}\n", row(r));
        }
        out
    }

    /// Parses [`Network::to_text`]'s format; any other shape or a bad number is an error.
    pub fn parse(text: &str) -> Result<Network, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let header = lines.next().map(|(_, l)| l).unwrap_or("");
        let expected = format!("{MAGIC} {INPUTS} {HIDDEN} {SECTORS}");
        if header.split_whitespace().collect::<Vec<_>>().join(" ") != expected {
            return Err(format!(
                "not a Chessmaps network: header {header:?}, expected {expected:?}"
            ));
        }
        let mut net = Network::zeros();
        let mut read = |label: &str, dest: &mut [f32]| -> Result<(), String> {
            let (n, line) = lines
                .next()
                .ok_or_else(|| format!("network ends before its {label} row"))?;
            let mut tokens = line.split_whitespace();
            if tokens.next() != Some(label) {
                return Err(format!("line {n}: expected a {label} row"));
            }
            let values = tokens
                .map(|t| t.parse::<f32>().ok().filter(|v| v.is_finite()))
                .collect::<Option<Vec<f32>>>()
                .ok_or_else(|| format!("line {n}: bad number"))?;
            if values.len() != dest.len() {
                return Err(format!(
                    "line {n}: {} values, expected {}",
                    values.len(),
                    dest.len()
                ));
            }
            dest.copy_from_slice(&values);
            Ok(())
        };
        read("b1", &mut net.b1)?;
        for r in net.w1.iter_mut() {
            read("w1", r)?;
        }
        read("b2", &mut net.b2)?;
        for r in net.w2.iter_mut() {
            read("w2", r)?;
        }
        if let Some((n, _)) = lines.next() {
            return Err(format!("line {n}: unexpected data after the network"));
        }
        Ok(net)
    }

    /// Reads a network file.
    pub fn load(path: &Path) -> Result<Network, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Network::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes the network file atomically.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        kestrel_params::atomic::write_atomic(path, self.to_text().as_bytes())
    }
}

static SHIPPED: LazyLock<Network> = LazyLock::new(|| {
    Network::parse(include_str!("../../networks/chessmaps.net"))
        .expect("the shipped network parses (checked by a test)")
});
static INSTALLED: OnceLock<Network> = OnceLock::new();

/// The network the search uses: one installed by [`install_network`], else the shipped one.
pub fn active_network() -> &'static Network {
    INSTALLED.get().unwrap_or(&SHIPPED)
}

/// Makes `net` the network of every later search in this process (once; before searching).
pub fn install_network(net: Network) -> Result<(), String> {
    INSTALLED
        .set(net)
        .map_err(|_| "a Chessmaps network is already installed".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chessmaps::chessmap::inputs;

    fn sample_network() -> Network {
        let mut net = Network::zeros();
        let mut x = 0.37f32;
        let mut next = || {
            x = (x * 997.13).fract();
            x - 0.5
        };
        net.w1 = std::array::from_fn(|_| std::array::from_fn(|_| next()));
        net.b1 = std::array::from_fn(|_| next());
        net.w2 = std::array::from_fn(|_| std::array::from_fn(|_| next()));
        net.b2 = std::array::from_fn(|_| next() / 3.0);
        net
    }

    #[test]
    fn file_round_trip_is_exact() {
        let net = sample_network();
        let text = net.to_text();
        assert_eq!(Network::parse(&text).unwrap(), net);
        let dir = std::env::temp_dir().join(format!("kestrel-cm-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("n.net");
        net.save(&path).unwrap();
        assert_eq!(Network::load(&path).unwrap(), net);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_files_are_errors() {
        let text = sample_network().to_text();
        assert!(Network::parse("").is_err());
        assert!(Network::parse(&text.replace("chessmaps 70 16 11", "chessmaps 70 8 11")).is_err());
        let bad_number = text.replacen("b1 ", "b1 x", 1);
        assert!(
            Network::parse(&bad_number)
                .unwrap_err()
                .contains("bad number")
        );
        let truncated: String = text.lines().take(30).collect::<Vec<_>>().join("\n");
        assert!(Network::parse(&truncated).is_err());
        assert!(Network::parse(&format!("{text}w2 1\n")).is_err());
    }

    #[test]
    fn shipped_network_parses() {
        let _ = &*SHIPPED;
    }

    #[test]
    fn sparse_probe_matches_dense_forward() {
        let net = sample_network();
        for fen in [
            kestrel_chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let b = Board::from_fen(fen).unwrap();
            let dense = net.forward(&inputs(&b));
            let sparse = net.probe(&b).map(f32::tanh);
            for (d, s) in dense.iter().zip(sparse) {
                assert!((d - s).abs() < 1e-5, "{d} vs {s}");
            }
            // Ranks are a permutation, and mirrored positions rank mirrored sectors alike.
            let ranks = net.sector_ranks(&b);
            let mut sorted = ranks;
            sorted.sort();
            assert_eq!(sorted, std::array::from_fn(|i| i as u8));
            let mirrored = net.sector_ranks(&b.mirrored());
            for s in 0..SECTORS {
                assert_eq!(ranks[s], mirrored[FLIPPED_SECTOR[s] as usize]);
            }
        }
    }
}
