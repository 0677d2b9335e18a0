//! Points that fill a full rectangular lattice (the tiled method's domain, and the grids whose
//! ratio pairs are found by displacement).

/// A full `rows x cols` lattice: every symbol is one cell, every cell one symbol.
pub struct Lattice {
    /// Number of distinct first coordinates.
    pub rows: usize,
    /// Number of distinct second coordinates.
    pub cols: usize,
    /// The symbol at cell `(i, j)`, at `i * cols + j`.
    symbol: Vec<usize>,
    /// The cell of each symbol.
    cell: Vec<(usize, usize)>,
}

/// Coordinates closer than this (relative to the lattice's extent) are the same row or column.
const SAME_COORDINATE: f64 = 1e-9;

impl Lattice {
    /// The lattice the points fill, if they fill one: equally spaced distinct values along each
    /// axis, and every combination present exactly once.
    pub fn detect(points: &[[f64; 2]]) -> Option<Lattice> {
        let axis = |k: usize| -> Option<Vec<f64>> {
            let mut v: Vec<f64> = points.iter().map(|p| p[k]).collect();
            if v.iter().any(|x| !x.is_finite()) {
                return None;
            }
            v.sort_by(f64::total_cmp);
            let extent = (v[v.len() - 1] - v[0]).abs().max(1.0);
            v.dedup_by(|a, b| (*a - *b).abs() <= SAME_COORDINATE * extent);
            if v.len() >= 2 {
                let step = (v[v.len() - 1] - v[0]) / (v.len() - 1) as f64;
                let even = v
                    .iter()
                    .enumerate()
                    .all(|(i, x)| (x - (v[0] + i as f64 * step)).abs() <= SAME_COORDINATE * extent);
                if !even {
                    return None;
                }
            }
            Some(v)
        };
        if points.is_empty() {
            return None;
        }
        let (xs, ys) = (axis(0)?, axis(1)?);
        let (rows, cols) = (xs.len(), ys.len());
        if rows * cols != points.len() {
            return None;
        }
        let nearest = |values: &[f64], x: f64| -> usize {
            let step = if values.len() > 1 {
                (values[values.len() - 1] - values[0]) / (values.len() - 1) as f64
            } else {
                1.0
            };
            (((x - values[0]) / step).round().max(0.0) as usize).min(values.len() - 1)
        };
        let mut symbol = vec![usize::MAX; rows * cols];
        let mut cell = Vec::with_capacity(points.len());
        for (s, p) in points.iter().enumerate() {
            let (i, j) = (nearest(&xs, p[0]), nearest(&ys, p[1]));
            if symbol[i * cols + j] != usize::MAX {
                return None;
            }
            symbol[i * cols + j] = s;
            cell.push((i, j));
        }
        Some(Lattice {
            rows,
            cols,
            symbol,
            cell,
        })
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.cell.len()
    }

    /// Whether the lattice has no cell (never, for a detected lattice).
    pub fn is_empty(&self) -> bool {
        self.cell.is_empty()
    }

    /// The symbol at cell `(i, j)`.
    pub fn at(&self, i: usize, j: usize) -> usize {
        self.symbol[i * self.cols + j]
    }

    /// The cell of symbol `s`.
    pub fn cell(&self, s: usize) -> (usize, usize) {
        self.cell[s]
    }
}

/// A full lattice: rows, columns, and the cell of each point.
pub type LatticeCells = (usize, usize, Vec<(usize, usize)>);

/// The lattice the points fill, as `(rows, cols, cell of each point)`.
pub fn lattice_cells(points: &[[f64; 2]]) -> Option<LatticeCells> {
    let l = Lattice::detect(points)?;
    Some((l.rows, l.cols, (0..l.len()).map(|s| l.cell(s)).collect()))
}

/// Whether the points fill a full rectangular lattice (the method's domain).
pub fn is_full_lattice(points: &[[f64; 2]]) -> bool {
    Lattice::detect(points).is_some()
}
