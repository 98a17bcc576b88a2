//! Whether a hint gives the answer away: the lines of code a solution adds to its stub, and
//! whether a hint holds one of them. Both sides are compared with every whitespace character
//! removed, so that `|(g,y)| g*y` is `|(g, y)| g * y`.

/// A line shorter than this (without whitespace) is too short to be an answer on its own:
/// `Ok(out)`, `}` …
pub const MIN_CHARS: usize = 12;

/// The lines of code `solution` adds to `stub`, each trimmed and without its trailing comment:
/// not a comment, not a `use` declaration (an import names a tool and computes nothing), not
/// only brackets and punctuation, at least [`MIN_CHARS`] characters besides whitespace, and not
/// found in the stub (a line the stub shows, even in a comment, gives nothing away).
pub fn written_lines(stub: &str, solution: &str) -> Vec<String> {
    let stub_lines: Vec<String> = stub.lines().map(squeeze).collect();
    let mut written: Vec<String> = Vec::new();
    for line in code_lines(solution) {
        let key = squeeze(core(&line));
        let given = stub_lines.iter().any(|s| s.contains(&key));
        if key.chars().count() < MIN_CHARS || is_import(&line) || given || written.contains(&line) {
            continue;
        }
        if key.chars().all(|c| c.is_ascii_punctuation()) {
            continue;
        }
        written.push(line);
    }
    written
}

/// The first of `lines` that `hint` holds, whitespace aside.
pub fn leaked<'a>(hint: &str, lines: &'a [String]) -> Option<&'a str> {
    let hint = squeeze(hint);
    lines.iter().find(|line| hint.contains(&squeeze(core(line)))).map(String::as_str)
}

/// The code lines of `source`, trimmed, without comments (line, block and doc comments).
fn code_lines(source: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for raw in source.lines() {
        let mut line = raw.trim();
        if in_block {
            match line.find("*/") {
                Some(end) => {
                    in_block = false;
                    line = line[end + 2..].trim();
                }
                None => continue,
            }
        }
        if let Some(rest) = line.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) => line = rest[end + 2..].trim(),
                None => {
                    in_block = true;
                    continue;
                }
            }
        }
        let code = without_line_comment(line).trim();
        if !code.is_empty() {
            lines.push(code.to_string());
        }
    }
    lines
}

/// `line` up to a `//` that is not inside a string or character literal.
fn without_line_comment(line: &str) -> &str {
    let mut in_string = false;
    let mut escaped = false;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == '/' && previous == '/' {
            return &line[..at - 1];
        }
        previous = if in_string { ' ' } else { c };
    }
    line
}

/// Whether a line is a `use` declaration.
fn is_import(line: &str) -> bool {
    let line = line.strip_prefix("pub ").unwrap_or(line);
    line.starts_with("use ")
}

/// What a hint must not hold of a line: the line without the `;`, `,` or `{` that ends it (a hint
/// quotes code without them).
fn core(line: &str) -> &str {
    line.trim_end_matches([';', ',', '{', ' '])
}

/// `text` with every whitespace character removed.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STUB: &str = "pub fn silu_grad(a: &[f32], b: &[f32]) -> Vec<f32> {\n    // TODO 2: the gradient\n    // let grad = ???;\n    // Ok(grad)\n    todo!(\"TODO 2 is not done yet / TODO 2 尚未完成\")\n}\n";

    fn solution(body: &str) -> String {
        format!("pub fn silu_grad(a: &[f32], b: &[f32]) -> Vec<f32> {{\n    // TODO 2: the gradient\n{body}\n}}\n")
    }

    #[test]
    fn a_line_is_found_whatever_its_spacing() {
        let solution =
            solution("    let grad: Vec<f32> = silu(a).iter().zip(b).map(|(g, y)| g * y).collect();\n    grad");
        let written = written_lines(STUB, &solution);
        let hint = "Zip them: `let grad: Vec<f32> = silu(a).iter().zip(b).map(|(g,y)| g*y).collect()`.";
        assert!(leaked(hint, &written).is_some_and(|l| l.starts_with("let grad")), "{written:?}");
        assert_eq!(leaked("Zip the two and multiply: `map(|(g, y)| g * y)`.", &written), None);
    }

    #[test]
    fn a_tail_expression_and_an_inline_answer_count_too() {
        let tail = solution("    silu(a).iter().zip(b).map(|(g, y)| g * y).collect()");
        let written = written_lines(STUB, &tail);
        assert_eq!(written, ["silu(a).iter().zip(b).map(|(g, y)| g * y).collect()"]);
        assert!(leaked("Write `silu(a).iter().zip(b).map(|(g, y)| g * y).collect()`.", &written).is_some());

        let inline = solution("    a.iter().map(|&v| v / (1.0 + (-v).exp())).collect() // the sigmoid times v");
        let written = written_lines(STUB, &inline);
        assert_eq!(written, ["a.iter().map(|&v| v / (1.0 + (-v).exp())).collect()"]);
        let hint = "The answer is\n```\na.iter().map(|&v| v / (1.0 + (-v).exp())).collect()\n```";
        assert!(leaked(hint, &written).is_some());
    }

    #[test]
    fn comments_short_lines_imports_and_lines_the_stub_shows_are_not_counted() {
        let body = "    // the gradient, element by element: let grad = silu(a).iter().zip(b);\n    /* a.iter().zip(b).map(|(x, y)| x * y) */\n    use std::iter::zip as pair_up;\n    let grad = 1;\n    }))]);\n    Ok(grad)\n    let s = \"// not a comment\".len() + 100;";
        let written = written_lines(STUB, &solution(body));
        assert_eq!(written, ["let s = \"// not a comment\".len() + 100;"]);
    }
}
