//! Reading what the learner types: single keys from a terminal, or whole lines without one. Each
//! reader is a thread of its own that never stops the watch from quitting (it is left blocked in
//! its read when tutor ends).

use std::io::BufRead;
use std::sync::mpsc::Sender;

use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};

use super::WatchEvent;

/// A key the watch understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter (Return).
    Enter,
    /// Escape.
    Esc,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Backspace.
    Backspace,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home (the list's first exercise).
    Home,
    /// End (the list's last exercise).
    End,
    /// The terminal changed size: the screen is drawn again to fit.
    Resize,
    /// Ctrl-C, which the terminal delivers as a key while the watch reads single keys.
    Interrupt,
    /// A whole line, without a terminal (or with `--manual`).
    Line(String),
}

/// What a key asks of the watch screen (not the list, which reads keys its own way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Check the watched exercise again.
    Check,
    /// The next hint.
    Hint,
    /// The watched exercise's lesson.
    Lesson,
    /// The list.
    List,
    /// The next exercise.
    Next,
    /// The previous exercise.
    Previous,
    /// The report's next page (when it is taller than the screen).
    PageDown,
    /// The report's page before.
    PageUp,
    /// The report one line further.
    LineDown,
    /// The report one line back.
    LineUp,
    /// Stop watching.
    Quit,
}

impl Key {
    /// The watch command of this key or line, if any. A line is one letter and Enter; an empty
    /// line re-checks, as does `r`, which re-checked before `c` did.
    pub fn command(&self) -> Option<Command> {
        match self {
            Key::Interrupt => Some(Command::Quit),
            Key::Enter => Some(Command::Check),
            Key::Char(c) => letter(*c),
            Key::Line(line) => match line.trim() {
                "" | "r" => Some(Command::Check),
                other => {
                    let mut chars = other.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) => letter(c),
                        _ => None,
                    }
                }
            },
            Key::PageDown => Some(Command::PageDown),
            Key::PageUp => Some(Command::PageUp),
            Key::Down => Some(Command::LineDown),
            Key::Up => Some(Command::LineUp),
            Key::Esc | Key::Backspace | Key::Home | Key::End | Key::Resize => None,
        }
    }
}

fn letter(c: char) -> Option<Command> {
    match c {
        'c' => Some(Command::Check),
        'h' => Some(Command::Hint),
        'e' => Some(Command::Lesson),
        'l' => Some(Command::List),
        'n' => Some(Command::Next),
        'p' => Some(Command::Previous),
        'q' => Some(Command::Quit),
        ' ' => Some(Command::PageDown),
        'b' => Some(Command::PageUp),
        _ => None,
    }
}

/// Single keys from the terminal (in the mode `crate::tty::KeyMode` set).
pub fn spawn_key_reader(sender: Sender<WatchEvent>) {
    std::thread::spawn(move || loop {
        let key = match event::read() {
            Ok(Event::Key(key)) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Some(Key::Interrupt),
                KeyCode::Char(_) if key.modifiers.contains(KeyModifiers::CONTROL) => None,
                KeyCode::Char(c) => Some(Key::Char(c)),
                KeyCode::Enter => Some(Key::Enter),
                KeyCode::Esc => Some(Key::Esc),
                KeyCode::Up => Some(Key::Up),
                KeyCode::Down => Some(Key::Down),
                KeyCode::Backspace => Some(Key::Backspace),
                KeyCode::PageUp => Some(Key::PageUp),
                KeyCode::PageDown => Some(Key::PageDown),
                KeyCode::Home => Some(Key::Home),
                KeyCode::End => Some(Key::End),
                _ => None,
            },
            Ok(Event::Resize(..)) => Some(Key::Resize),
            Ok(_) => None,
            Err(_) => {
                let _ = sender.send(WatchEvent::InputClosed);
                return;
            }
        };
        if let Some(key) = key {
            if sender.send(WatchEvent::Key(key)).is_err() {
                return;
            }
        }
    });
}

/// Whole lines from stdin.
pub fn spawn_line_reader(sender: Sender<WatchEvent>) {
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if sender.send(WatchEvent::Key(Key::Line(line))).is_err() {
                return;
            }
        }
        let _ = sender.send(WatchEvent::InputClosed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_lines_map_to_the_same_commands() {
        assert_eq!(Key::Char('n').command(), Some(Command::Next));
        assert_eq!(Key::Line(" n ".into()).command(), Some(Command::Next));
        assert_eq!(Key::Line(String::new()).command(), Some(Command::Check));
        assert_eq!(Key::Enter.command(), Some(Command::Check));
        assert_eq!(Key::Interrupt.command(), Some(Command::Quit));
        assert_eq!(Key::Line("next".into()).command(), None);
        assert_eq!(Key::Char('x').command(), None);
        assert_eq!(Key::Esc.command(), None);
        assert_eq!(Key::Char(' ').command(), Some(Command::PageDown));
        assert_eq!(Key::PageUp.command(), Some(Command::PageUp));
        assert_eq!(Key::Resize.command(), None);
    }
}
