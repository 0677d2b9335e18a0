use mechsynth::synthesis::line::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let t: f64 = args[2].parse().unwrap();
    let cutoff_levels: usize = args.get(3).map_or(n, |s| s.parse().unwrap());
    let costs: Vec<Vec<f64>> = (0..n)
        .map(|y| (0..n).map(|x| x.abs_diff(y) as f64 / n as f64).collect())
        .collect();
    let p = geometric_remap(&costs, t);
    let (w, e) = level_weights(cutoff_levels.min(level_cap(n, t)), t);
    let mut total: f64 = p.prices.iter().sum();
    println!("primal {:.15e} sum u {:.15e}", p.objective, total);
    let mut worst = (0.0, 0);
    for y in 0..n {
        let s: Vec<f64> = costs[y].iter().zip(&p.prices).map(|(c, u)| c - u).collect();
        let m = capped_minimum(&s, &w);
        let l = line_pricing_lower_bound(&s, &w, e);
        if m < worst.0 { worst = (m, y); }
        total += l.min(0.0);
    }
    println!("bound {:.15e} worst m {:e} at {}", total, worst.0, worst.1);
}
