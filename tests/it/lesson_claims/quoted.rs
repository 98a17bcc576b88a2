//! Claims that quote something else: the solution's code as an explanation cites it, and the
//! sources a lesson may cite (the learner has no tutorial: a lesson says what PyTorch does, or
//! what this course's contract is).

use super::*;

/// The code spans that open each numbered item of `text` (`1. `code`：…`).
fn numbered_code(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line.trim_start().split_once(". ")?.1;
            let code = rest.strip_prefix('`')?.split('`').next()?;
            Some(code.to_string())
        })
        .collect()
}

#[test]
fn the_norm_explanation_quotes_the_solutions_three_expressions() {
    let solution = flat(include_str!("../../../solutions/rmsnorm/02-norm.rs"));
    for language in ["zh", "en"] {
        let explanation = sections(NORM)
            .into_iter()
            .find(|s| s.part == "explanation" && s.language == language)
            .expect("an explanation")
            .text;
        let quoted = numbered_code(&explanation);
        let count = quoted.len();
        assert_eq!(count, 3, "{language}: {quoted:?}");
        for code in &quoted {
            assert!(solution.contains(code.as_str()), "{language}: `{code}` is not in the solution");
        }
    }
    states(NORM, "explanation", "答案的核心是三个表达式", "The solution comes down to three expressions");
}

#[test]
fn no_lesson_cites_a_tutorial_the_learner_does_not_have() {
    for (name, source) in LESSONS {
        for section in sections(source) {
            let text = section.text.to_lowercase();
            assert!(
                !text.contains("tutorial") && !text.contains("教程"),
                "{name} {} {} cites the tutorial",
                section.part,
                section.language
            );
        }
    }
}
