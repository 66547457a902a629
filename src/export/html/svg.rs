//! Charts on the page: the "Charts" section, one chart as a `<figure>`,
//! and [`check_svg`], which refuses an SVG that could run or load
//! anything (scripts, event handlers, links out of the page) or would
//! break the page's XML.
//!
//! Owns: the SVG check and the figure markup. May depend on `parts`
//! ([`HtmlChart`]) and `table`.

use super::parts::HtmlChart;
use super::table::open_section;
use crate::escape::html as escape;

pub(super) fn push_charts(out: &mut String, charts: &[HtmlChart]) {
    if charts.is_empty() {
        return;
    }
    open_section(out, "charts", "Charts", true);
    for (index, chart) in charts.iter().enumerate() {
        push_figure(out, &format!("chart-{}", index + 1), chart);
    }
    out.push_str("</section>\n");
}

/// One chart as a `<figure>` with its caption; an SVG that fails
/// [`check_svg`] is replaced by a note saying why.
pub(super) fn push_figure(out: &mut String, id: &str, chart: &HtmlChart) {
    out.push_str(&format!("<figure id=\"{id}\">\n"));
    match check_svg(&chart.svg) {
        Ok(svg) => {
            out.push_str(svg);
            out.push('\n');
        }
        Err(reason) => out.push_str(&format!(
            "<p class=\"refused\">This chart was left out: its SVG {}. A chart never needs \
             that, and the report runs and loads nothing.</p>\n",
            escape(&reason)
        )),
    }
    out.push_str(&format!(
        "<figcaption><strong>{}.</strong> {}</figcaption>\n</figure>\n",
        escape(chart.title.trim_end_matches('.')),
        escape(&chart.caption)
    ));
}

/// Elements a chart may use: shapes, text, grouping, paint servers,
/// clipping, and bitmap images from `data:` URLs. Anything else (scripts,
/// `foreignObject`, links, animation, …) is refused.
pub(super) const SVG_ELEMENTS: [&str; 26] = [
    "svg",
    "g",
    "defs",
    "symbol",
    "use",
    "title",
    "desc",
    "path",
    "rect",
    "circle",
    "ellipse",
    "line",
    "polyline",
    "polygon",
    "text",
    "tspan",
    "textpath",
    "clippath",
    "mask",
    "lineargradient",
    "radialgradient",
    "stop",
    "pattern",
    "marker",
    "image",
    "style",
];

/// Checks an SVG string before it is inlined and returns the part to
/// inline: the `<svg>` element, without an XML declaration, doctype or
/// comment before it. The error says, in words, why the SVG is refused:
///
/// * it contains `<script`, `javascript:`, `<foreignObject` or an event
///   attribute (` onload=`, …), in any letter case;
/// * it could load something: `@import`, a `url(…)` or an `href`/`src`
///   that does not point inside the document (`#id`; an `<image>` may also
///   use a `data:image/png`, `jpeg`, `gif` or `webp` URL);
/// * it is not one well-formed `<svg>` element made of the elements a chart
///   needs ([`SVG_ELEMENTS`]): unbalanced tags, text after the root,
///   CDATA, processing instructions or a doctype with declarations.
pub fn check_svg(svg: &str) -> Result<&str, String> {
    let lower = svg.to_ascii_lowercase();
    // The reasons avoid repeating the dangerous text itself.
    for (needle, reason) in [
        ("<script", "contains a script"),
        ("javascript:", "contains a JavaScript URL"),
        ("<foreignobject", "contains a foreignObject element"),
    ] {
        if lower.contains(needle) {
            return Err(reason.into());
        }
    }
    if let Some(attribute) = event_attribute(&lower) {
        return Err(format!("has an event-handler attribute ({attribute})"));
    }
    if lower.contains("@import") {
        return Err("contains `@import`".into());
    }
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("url(") {
        rest = &rest[at + 4..];
        let target = rest.trim_start().trim_start_matches(['"', '\'']);
        if !target.starts_with('#') {
            return Err("refers to a `url(…)` outside the document".into());
        }
    }
    let start = skip_prolog(svg)?;
    let end = check_structure(&svg[start..])?;
    Ok(svg[start..start + end].trim_end())
}

/// The first ` on…=` event attribute: `on` and at least one letter,
/// optional space, `=`, after a space, `/` or quote.
pub(super) fn event_attribute(lower: &str) -> Option<&str> {
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(at) = lower[from..].find("on") {
        let start = from + at;
        from = start + 2;
        let before = start.checked_sub(1).map(|i| bytes[i]);
        if !matches!(before, Some(b) if b.is_ascii_whitespace() || matches!(b, b'/' | b'"' | b'\''))
        {
            continue;
        }
        let letters = bytes[start + 2..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        if letters == 0 {
            continue;
        }
        let after = start + 2 + letters;
        let spaces = bytes[after..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        if bytes.get(after + spaces) == Some(&b'=') {
            return Some(&lower[start..after]);
        }
    }
    None
}

/// Skips whitespace, an XML declaration, a doctype without declarations
/// and comments before the root element; returns where the root starts.
pub(super) fn skip_prolog(svg: &str) -> Result<usize, String> {
    let mut at = 0;
    loop {
        let rest = &svg[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("<?xml") {
            let end = trimmed
                .find("?>")
                .ok_or("has an unclosed XML declaration")?;
            at += end + 2;
        } else if trimmed.starts_with("<!--") {
            at += comment_length(trimmed)?;
        } else if trimmed.len() >= 9 && trimmed[..9].eq_ignore_ascii_case("<!doctype") {
            let end = trimmed.find('>').ok_or("has an unclosed doctype")?;
            if trimmed[..end].contains('[') {
                return Err("has a doctype with declarations".into());
            }
            at += end + 1;
        } else {
            return Ok(at);
        }
    }
}

/// The length of the comment at the start of `text`, which must not
/// contain `--` (XML forbids it, and HTML would end it early at `--!>`).
pub(super) fn comment_length(text: &str) -> Result<usize, String> {
    let body = &text[4..];
    let end = body.find("-->").ok_or("has an unclosed comment")?;
    if body[..end].contains("--") {
        return Err("has a comment containing `--`".into());
    }
    Ok(4 + end + 3)
}

/// Checks that `svg` is one element, `<svg …>…</svg>`, whose tags balance
/// and whose elements and attributes are ones a chart needs; trailing
/// whitespace and comments are allowed. Returns the end of the root
/// element.
pub(super) fn check_structure(svg: &str) -> Result<usize, String> {
    let mut open: Vec<String> = Vec::new();
    let mut root_end = None;
    let mut at = 0;
    loop {
        let rest = &svg[at..];
        let lt = rest.find('<').unwrap_or(rest.len());
        if open.is_empty() && !rest[..lt].trim().is_empty() {
            return Err(match root_end {
                Some(_) => "has text after the `<svg>` element".into(),
                None => "has text outside the `<svg>` element".into(),
            });
        }
        at += lt;
        let tag = &rest[lt..];
        if tag.is_empty() {
            break;
        }
        if tag.starts_with("<!--") {
            at += comment_length(tag)?;
            continue;
        }
        if tag.starts_with("<!") || tag.starts_with("<?") {
            return Err("has a CDATA section, declaration or processing instruction".into());
        }
        if root_end.is_some() {
            return Err("has markup after the `<svg>` element".into());
        }
        if let Some(closing) = tag.strip_prefix("</") {
            let end = closing.find('>').ok_or("has an unclosed tag")?;
            let name = closing[..end].trim().to_ascii_lowercase();
            if open.pop().as_deref() != Some(name.as_str()) {
                return Err(format!("has an unbalanced `</{name}>`"));
            }
            at += 2 + end + 1;
        } else {
            let (name, length, self_closing) = check_start_tag(tag)?;
            if open.is_empty() && name != "svg" {
                return Err(format!("starts with `<{name}>`, not `<svg>`"));
            }
            at += length;
            if !self_closing {
                open.push(name);
            }
        }
        if open.is_empty() {
            root_end = Some(at);
        }
    }
    match (root_end, open.last()) {
        (_, Some(name)) => Err(format!("leaves `<{name}>` unclosed")),
        (Some(end), None) => Ok(end),
        (None, None) => Err("has no `<svg>` element".into()),
    }
}

/// Reads the start tag at the beginning of `tag`: (lowercased name,
/// length, self-closing). Refuses an element outside [`SVG_ELEMENTS`], an
/// unquoted or `<`-holding attribute value, an `on…` attribute and an
/// `href`/`src` that points outside the document.
pub(super) fn check_start_tag(tag: &str) -> Result<(String, usize, bool), String> {
    let bytes = tag.as_bytes();
    let name_end = 1 + bytes[1..]
        .iter()
        .take_while(|b| !b.is_ascii_whitespace() && !matches!(b, b'>' | b'/'))
        .count();
    let name = tag[1..name_end].to_ascii_lowercase();
    if name.is_empty() {
        return Err("has a stray `<`".into());
    }
    if !SVG_ELEMENTS.contains(&name.as_str()) {
        return Err(format!(
            "has a `<{name}>` element, which a chart does not need"
        ));
    }
    let mut at = name_end;
    loop {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        match bytes.get(at) {
            None => return Err(format!("leaves the `<{name}>` tag unclosed")),
            Some(b'>') => return Ok((name, at + 1, false)),
            Some(b'/') if bytes.get(at + 1) == Some(&b'>') => return Ok((name, at + 2, true)),
            Some(_) => {}
        }
        let attr_start = at;
        while bytes
            .get(at)
            .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'=' | b'>' | b'/'))
        {
            at += 1;
        }
        let attribute = tag[attr_start..at].to_ascii_lowercase();
        if attribute.is_empty() {
            return Err(format!("has a malformed `<{name}>` tag"));
        }
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if bytes.get(at) != Some(&b'=') {
            return Err(format!("has an attribute `{attribute}` without a value"));
        }
        at += 1;
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let quote = match bytes.get(at) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Err(format!("has an unquoted attribute `{attribute}`")),
        };
        let value_start = at + 1;
        let value_len = bytes[value_start..]
            .iter()
            .position(|&b| b == quote)
            .ok_or_else(|| format!("leaves the `<{name}>` tag unclosed"))?;
        let value = &tag[value_start..value_start + value_len];
        at = value_start + value_len + 1;
        if value.contains('<') {
            return Err(format!("has a `<` in the attribute `{attribute}`"));
        }
        if attribute.starts_with("on") {
            return Err(format!("has an event-handler attribute ({attribute})"));
        }
        let local = attribute.rsplit(':').next().unwrap_or(&attribute);
        if matches!(local, "href" | "src") && !inside_document(&name, value) {
            return Err(format!("has `{attribute}` pointing outside the document"));
        }
    }
}

/// Whether a link target stays inside the page: a fragment, or a bitmap
/// `data:` URL on an `<image>`.
pub(super) fn inside_document(element: &str, target: &str) -> bool {
    let target = target.trim().to_ascii_lowercase();
    target.starts_with('#')
        || (element == "image"
            && ["png", "jpeg", "gif", "webp"]
                .iter()
                .any(|kind| target.starts_with(&format!("data:image/{kind};"))))
}
