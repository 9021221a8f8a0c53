//! The loss curves of a run as an SVG image: the training and holdout loss
//! of every epoch, on a logarithmic scale (the first epochs divide the loss
//! several times, the last ones move it by a few percent), so that a person
//! sees at a glance whether a run converged or overfit.

use std::fmt::Write;

/// Image size in pixels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
/// Margins around the plot area: left, right, top, bottom.
const MARGIN: (f64, f64, f64, f64) = (80.0, 20.0, 40.0, 50.0);

/// The SVG text of the curves of `history` (per epoch, its training and
/// holdout loss; a holdout loss that is not finite is left out).
pub fn loss_svg(history: &[(f64, f64)]) -> String {
    let (left, right, top, bottom) = MARGIN;
    let (plot_w, plot_h) = (WIDTH - left - right, HEIGHT - top - bottom);
    let values = history.iter().flat_map(|&(a, b)| [a, b]).filter(|v| v.is_finite() && *v > 0.0);
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = if lo.is_finite() { (lo.ln(), hi.ln()) } else { (0.0, 1.0) };
    let pad = ((hi - lo) * 0.05).max(1e-3);
    let (lo, hi) = (lo - pad, hi + pad);
    let epochs = history.len().max(2);
    let x = |epoch: usize| left + plot_w * (epoch - 1) as f64 / (epochs - 1) as f64;
    let y = |v: f64| top + plot_h * (hi - v.ln()) / (hi - lo);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">Loss per epoch (training: blue, holdout: orange)</text>"#,
        WIDTH / 2.0
    );
    for i in 0..=5 {
        let v = (lo + (hi - lo) * i as f64 / 5.0).exp();
        let _ = writeln!(
            s,
            r##"<line x1="{left}" x2="{}" y1="{yv:.1}" y2="{yv:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{v:.5}</text>"##,
            left + plot_w,
            left - 6.0,
            y(v) + 4.0,
            yv = y(v)
        );
    }
    let step = history.len().div_ceil(10).max(1);
    for epoch in (1..=history.len()).filter(|e| (e - 1) % step == 0 || *e == history.len()) {
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{}" text-anchor="middle">{epoch}</text>"#,
            x(epoch),
            top + plot_h + 18.0
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">epoch</text>"#,
        left + plot_w / 2.0,
        HEIGHT - 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{0}" text-anchor="middle" transform="rotate(-90 16 {0})">loss (mean squared error, log scale)</text>"#,
        top + plot_h / 2.0
    );
    for (pick, colour) in [(0, "#1f77b4"), (1, "#ff7f0e")] {
        let points: Vec<String> = history
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| (i + 1, if pick == 0 { a } else { b }))
            .filter(|(_, v)| v.is_finite() && *v > 0.0)
            .map(|(e, v)| format!("{:.1},{:.1}", x(e), y(v)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            points.join(" ")
        );
        for p in &points {
            let (px, py) = p.split_once(',').expect("a point");
            let _ = writeln!(s, r#"<circle cx="{px}" cy="{py}" r="3" fill="{colour}"/>"#);
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curves_have_a_point_per_epoch_and_labelled_axes() {
        let svg = loss_svg(&[(0.05, 0.06), (0.04, 0.055), (0.035, f64::NAN)]);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 5);
        assert!(svg.contains(">epoch</text>") && svg.contains("loss (mean squared error, log scale)"));
        assert!(svg.contains(">3</text>"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        for svg in [loss_svg(&[]), loss_svg(&[(0.0, 0.0)])] {
            assert!(svg.contains("<svg") && !svg.contains("NaN") && !svg.contains("inf"));
        }
    }
}
