//! Driving the built `tutor` on a real pseudo-terminal (util-linux `script`), and looking at
//! processes through /proc by process id and group, never by name.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What the watch writes before each drawing of its screen.
pub const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";
/// Hides and shows the cursor.
pub const HIDE_CURSOR: &str = "\x1b[?25l";
pub const SHOW_CURSOR: &str = "\x1b[?25h";

/// A child whose output is collected on a thread, so a test can wait for a line to appear.
pub struct Live {
    child: std::process::Child,
    output: mpsc::Receiver<String>,
    seen: String,
}

impl Live {
    pub fn start(mut command: Command) -> Live {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let (tx, rx) = mpsc::channel();
        for mut stream in
            [Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>, Box::new(child.stderr.take().unwrap())]
        {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut buffer = [0u8; 4096];
                // A read can end inside a character: its first bytes wait for the rest, so that a
                // Chinese line is never decoded in two halves (as two U+FFFD).
                let mut pending = Vec::new();
                while let Ok(n) = stream.read(&mut buffer) {
                    pending.extend_from_slice(&buffer[..n]);
                    let cut = match std::str::from_utf8(&pending) {
                        Err(e) if n > 0 && e.error_len().is_none() => e.valid_up_to(),
                        _ => pending.len(),
                    };
                    let rest = pending.split_off(cut);
                    let text = String::from_utf8_lossy(&pending).into_owned();
                    pending = rest;
                    if n == 0 || tx.send(text).is_err() {
                        break;
                    }
                }
            });
        }
        Live { child, output: rx, seen: String::new() }
    }

    /// The process id of the child (for `script`: the parent of the shell running tutor).
    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Everything printed so far.
    pub fn seen(&self) -> &str {
        &self.seen
    }

    /// Waits until `text` has appeared after `from` (a byte offset into all output so far).
    #[track_caller]
    pub fn wait_for(&mut self, text: &str, from: usize, limit: Duration) -> usize {
        let started = Instant::now();
        loop {
            if let Some(at) = self.seen.get(from..).and_then(|rest| rest.find(text)) {
                return from + at + text.len();
            }
            let left = limit
                .checked_sub(started.elapsed())
                .unwrap_or_else(|| panic!("no {text:?} within {limit:?}; output:\n{}", self.seen));
            if let Ok(chunk) = self.output.recv_timeout(left) {
                self.seen.push_str(&chunk);
            }
        }
    }

    /// Collects output for `time`, and returns how much there is now.
    pub fn collect_for(&mut self, time: Duration) -> usize {
        let until = Instant::now() + time;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            if let Ok(chunk) = self.output.recv_timeout(left) {
                self.seen.push_str(&chunk);
            }
        }
        self.seen.len()
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for the child to end; returns its exit code and all its output.
    pub fn finish(mut self, limit: Duration) -> (i32, String) {
        let code = self.wait(limit);
        while let Ok(chunk) = self.output.recv_timeout(Duration::from_millis(200)) {
            self.seen.push_str(&chunk);
        }
        (code, std::mem::take(&mut self.seen))
    }

    /// Waits for the child to end, polling every millisecond (for timing), and returns its
    /// exit code; kills it and fails past `limit`.
    pub fn wait(&mut self, limit: Duration) -> i32 {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                while let Ok(chunk) = self.output.recv_timeout(Duration::from_millis(200)) {
                    self.seen.push_str(&chunk);
                }
                panic!("did not end within {limit:?}; output:\n{}", self.seen);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        // A failed test must not leave a watch running.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tutor ARGS` on a pseudo-terminal made by util-linux `script`, English, no colour. After
/// tutor ends, the shell prints TERMINAL-RESTORED if the terminal's settings are as before.
pub fn tutor_on_a_terminal(dir: &Path, args: &str) -> Live {
    let script = format!(
        "before=$(stty -g); '{}' {args}; after=$(stty -g); [ \"$before\" = \"$after\" ] && echo TERMINAL-RESTORED || echo TERMINAL-CHANGED",
        env!("CARGO_BIN_EXE_tutor")
    );
    let mut command = Command::new("script");
    command.args(["-qfec", &script, "/dev/null"]).current_dir(dir).env("TUTOR_LANG", "en").env("NO_COLOR", "1");
    Live::start(command)
}

/// (state, parent pid, process group) of a process, from /proc/PID/stat.
pub fn stat(pid: i32) -> Option<(char, i32, i32)> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &text[text.rfind(')')? + 2..];
    let mut fields = after.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    let group = fields.next()?.parse().ok()?;
    Some((state, parent, group))
}

fn all_pids() -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok()).collect()
}

/// The live (not zombie) processes of process group `pgid`.
pub fn group_members(pgid: i32) -> Vec<i32> {
    all_pids()
        .into_iter()
        .filter(|&pid| stat(pid).is_some_and(|(state, _, group)| group == pgid && state != 'Z' && state != 'X'))
        .collect()
}

/// The live descendants of `root`, each with its depth below it (a child is at depth 1).
pub fn descendants(root: i32) -> Vec<(i32, usize)> {
    let table: Vec<(i32, i32)> = all_pids()
        .into_iter()
        .filter_map(|pid| stat(pid).filter(|(state, ..)| *state != 'Z').map(|(_, parent, _)| (pid, parent)))
        .collect();
    let mut found = vec![(root, 0)];
    let mut next = 0;
    while next < found.len() {
        let (parent, depth) = found[next];
        found.extend(table.iter().filter(|(_, p)| *p == parent).map(|(pid, _)| (*pid, depth + 1)));
        next += 1;
    }
    found.remove(0);
    found
}

/// The children of `pid` that lead a process group of their own.
pub fn group_leading_children(pid: i32) -> Vec<i32> {
    all_pids()
        .into_iter()
        .filter(|&child| stat(child).is_some_and(|(_, parent, group)| parent == pid && group == child))
        .collect()
}

/// Whether process `pid` runs the compiler.
pub fn is_rustc(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|name| name.trim() == "rustc")
}

/// Waits (up to a minute) until a build started by tutor (`tutor_pid`) runs rustc, and returns
/// the build's process group.
#[track_caller]
pub fn build_group_with_rustc(tutor_pid: i32) -> i32 {
    let started = Instant::now();
    loop {
        let groups = group_leading_children(tutor_pid);
        if let Some(&group) = groups.iter().find(|&&g| group_members(g).into_iter().any(is_rustc)) {
            return group;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "rustc never ran");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits up to `limit` for process group `pgid` to have no live member.
#[track_caller]
pub fn assert_group_gone(pgid: i32, limit: Duration, what: &str) {
    let started = Instant::now();
    while !group_members(pgid).is_empty() {
        assert!(started.elapsed() < limit, "{what}: process group {pgid} still has {:?}", group_members(pgid));
        std::thread::sleep(Duration::from_millis(50));
    }
}
