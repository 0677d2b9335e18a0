//! The page: a title, a status badge, sections of facts, tables, text blocks and figures, and
//! a foot naming the command that made it.

use super::{escape, json_number, Provenance, Source, MAX_SOURCE_BYTES, VERSION};
use std::fmt::Write;

/// The style sheet, inline: readable on screen and in print, no web fonts.
const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;\
margin:2rem auto;max-width:72rem;padding:0 1.5rem;color:#1b1f24;background:#fff;line-height:1.45}\
h1{font-size:1.6rem;margin-bottom:.3rem}h2{font-size:1.2rem;margin-top:2rem;\
border-bottom:1px solid #d0d7de;padding-bottom:.2rem}\
table{border-collapse:collapse;margin:.6rem 0;font-size:.92rem}\
th,td{border:1px solid #d0d7de;padding:.25rem .6rem;text-align:left;vertical-align:top}\
th{background:#f3f5f7}td.num{font-family:ui-monospace,Menlo,Consolas,monospace;text-align:right;white-space:nowrap}\
.wide{overflow-x:auto;max-width:100%}\
table.facts th{width:14rem}\
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:.8rem;overflow-x:auto;font-size:.85rem}\
code{font-family:ui-monospace,Menlo,Consolas,monospace}\
.badge{display:inline-block;padding:.15rem .7rem;border-radius:1rem;font-weight:600;color:#fff}\
.good{background:#1a7f37}.warn{background:#9a6700}.bad{background:#cf222e}\
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}\
figcaption{font-size:.85rem;color:#57606a}\
footer{margin-top:3rem;border-top:1px solid #d0d7de;padding-top:.6rem;font-size:.85rem;color:#57606a}\
";

/// One table cell: text, or a number already written as the run's data writes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// Text (escaped when written).
    Text(String),
    /// A number's text (escaped when written), right-aligned in a monospace font.
    Number(String),
    /// Nothing to show (an absent value), written as a dash.
    Empty,
}

impl Cell {
    /// A text cell.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    /// A number written as the JSON reports write it ([`json_number`]).
    pub fn num(v: f64) -> Cell {
        Cell::Number(json_number(v))
    }

    /// [`Cell::num`], or [`Cell::Empty`] for `None`.
    pub fn opt(v: Option<f64>) -> Cell {
        v.map_or(Cell::Empty, Cell::num)
    }

    /// `yes` or `no`.
    pub fn flag(v: bool) -> Cell {
        Cell::text(if v { "yes" } else { "no" })
    }

    fn html(&self) -> String {
        match self {
            Cell::Text(t) => format!("<td>{}</td>", escape(t)),
            Cell::Number(n) => format!("<td class=\"num\">{}</td>", escape(n)),
            Cell::Empty => "<td>&#8212;</td>".into(),
        }
    }
}

/// A page being written: [`Page::new`], then sections, then [`Page::finish`].
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    body: String,
}

/// How a status reads at a glance.
fn badge_class(good: Option<bool>) -> &'static str {
    match good {
        Some(true) => "good",
        Some(false) => "bad",
        None => "warn",
    }
}

impl Page {
    /// A page titled `title` (the browser's tab and the first heading).
    pub fn new(title: &str) -> Page {
        Page {
            title: title.to_string(),
            body: format!("<h1>{}</h1>\n", escape(title)),
        }
    }

    /// A status badge: green when `good` is `Some(true)`, red for `Some(false)`, amber for
    /// `None` (neither).
    pub fn status(&mut self, text: &str, good: Option<bool>) {
        let _ = writeln!(
            self.body,
            "<p><span class=\"badge {}\">{}</span></p>",
            badge_class(good),
            escape(text)
        );
    }

    /// A section heading.
    pub fn section(&mut self, heading: &str) {
        let _ = writeln!(self.body, "<h2>{}</h2>", escape(heading));
    }

    /// A paragraph of text.
    pub fn paragraph(&mut self, text: &str) {
        let _ = writeln!(self.body, "<p>{}</p>", escape(text));
    }

    /// A list of items (nothing when empty).
    pub fn list(&mut self, items: &[String]) {
        if items.is_empty() {
            return;
        }
        self.body.push_str("<ul>\n");
        for item in items {
            let _ = writeln!(self.body, "<li>{}</li>", escape(item));
        }
        self.body.push_str("</ul>\n");
    }

    /// A two-column table: one row per `(name, value)`.
    pub fn facts(&mut self, rows: &[(&str, Cell)]) {
        self.body.push_str("<table class=\"facts\">\n");
        for (name, value) in rows {
            let _ = writeln!(
                self.body,
                "<tr><th>{}</th>{}</tr>",
                escape(name),
                value.html()
            );
        }
        self.body.push_str("</table>\n");
    }

    /// A table with a header row (nothing when `rows` is empty), scrolling sideways when it is
    /// wider than the page.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<Cell>]) {
        if rows.is_empty() {
            return;
        }
        self.body
            .push_str("<div class=\"wide\">\n<table>\n<thead><tr>");
        for h in header {
            let _ = write!(self.body, "<th>{}</th>", escape(h));
        }
        self.body.push_str("</tr></thead>\n<tbody>\n");
        for row in rows {
            self.body.push_str("<tr>");
            for cell in row {
                self.body.push_str(&cell.html());
            }
            self.body.push_str("</tr>\n");
        }
        self.body.push_str("</tbody>\n</table>\n</div>\n");
    }

    /// A block of preformatted text (a file, a command), escaped.
    pub fn preformatted(&mut self, text: &str) {
        let _ = writeln!(self.body, "<pre>{}</pre>", escape(text));
    }

    /// An input file: its name, then its text (the first [`MAX_SOURCE_BYTES`] of it), or a
    /// note when it could not be read.
    pub fn source(&mut self, source: &Source) {
        let _ = writeln!(self.body, "<p><code>{}</code></p>", escape(&source.name));
        match &source.text {
            Some(text) if text.len() > MAX_SOURCE_BYTES => {
                let mut end = MAX_SOURCE_BYTES;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                self.preformatted(&text[..end]);
                self.paragraph(&format!(
                    "(the first {end} of {} bytes are shown)",
                    text.len()
                ));
            }
            Some(text) => self.preformatted(text),
            None => self.paragraph("(the file's text is not available)"),
        }
    }

    /// An SVG drawing, inline, with a caption. Anything before the `<svg` element (an XML
    /// declaration, a doctype) is dropped; a drawing that holds a script or no `<svg` element
    /// is left out with a note (the pages carry no scripts).
    pub fn figure(&mut self, svg: &str, caption: &str) {
        let start = svg.find("<svg");
        let lower = svg.to_ascii_lowercase();
        match start {
            Some(start) if !lower.contains("<script") && !lower.contains("<foreignobject") => {
                let _ = writeln!(
                    self.body,
                    "<figure>\n{}\n<figcaption>{}</figcaption>\n</figure>",
                    svg[start..].trim_end(),
                    escape(caption)
                );
            }
            _ => self.paragraph(&format!("({caption}: the drawing is left out)")),
        }
    }

    /// The whole document, with `provenance` and the version at its foot.
    pub fn finish(self, provenance: &Provenance) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"mechsynth {VERSION}\">\n\
<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{}\
<footer>\n<p>Made by</p>\n<pre>{}</pre>\n<p>mechsynth {VERSION}</p>\n</footer>\n</body>\n</html>\n",
            escape(&self.title),
            self.body,
            escape(&provenance.command_line()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_is_one_self_contained_document() {
        let mut page = Page::new("a<b");
        page.status("optimal", Some(true));
        page.facts(&[("objective", Cell::num(0.5)), ("bound", Cell::Empty)]);
        page.figure(
            "<?xml version=\"1.0\"?>\n<svg><text>x &lt; y</text></svg>\n",
            "c",
        );
        page.figure("<svg><script>alert(1)</script></svg>", "bad");
        let html = page.finish(&Provenance::new(["m".to_string(), "a&b".into()]));
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(html.contains("<title>a&lt;b</title>") && html.contains("<h1>a&lt;b</h1>"));
        assert!(html.contains("<td class=\"num\">0.5</td>"));
        assert!(html.contains("<figure>\n<svg><text>"), "{html}");
        assert!(!html.contains("<?xml") && !html.contains("<script"));
        assert!(html.contains("mechsynth &#39;a&amp;b&#39;"), "{html}");
    }

    #[test]
    fn a_long_source_is_truncated_on_a_character_boundary() {
        let mut page = Page::new("t");
        let text = "é".repeat(MAX_SOURCE_BYTES);
        page.source(&Source {
            name: "f".into(),
            text: Some(text),
        });
        let html = page.finish(&Provenance::new(Vec::new()));
        assert!(html.contains(&format!("of {} bytes are shown", 2 * MAX_SOURCE_BYTES)));
    }
}
