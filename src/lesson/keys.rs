//! Single keypresses at a lesson's block prompts: Enter, `e`, `r`, `b`, `q` act at once,
//! without Enter. The terminal is put in non-canonical, no-echo mode only while a key is
//! awaited, and restored before anything else runs. While waiting, a change of the
//! terminal's width is reported so the runner can re-wrap what is on the screen.

/// What the learner pressed (or what happened while waiting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Enter,
    Char(char),
    /// Ctrl-C.
    Interrupt,
    /// Ctrl-D, or the terminal went away.
    Eof,
    /// The terminal's width changed.
    Resize,
}

/// Waits for one key on stdin (a terminal). `width` is the width the screen was drawn for.
#[cfg(unix)]
pub fn read_key(width: usize) -> Key {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let fd = libc::STDIN_FILENO;
    // SAFETY: termios is a plain struct filled by tcgetattr; we restore what we read.
    let mut saved: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(fd, &mut saved) } != 0 {
        return Key::Eof;
    }
    let mut raw = saved;
    raw.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG);
    raw.c_cc[libc::VMIN] = 1;
    raw.c_cc[libc::VTIME] = 0;
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, &raw) };
    let key = wait_key(fd, width);
    unsafe { libc::tcsetattr(fd, libc::TCSANOW, &saved) };
    key
}

#[cfg(unix)]
fn wait_key(fd: i32, width: usize) -> Key {
    loop {
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one pollfd we own; a timeout lets us notice a resize.
        let n = unsafe { libc::poll(&mut pfd, 1, 200) };
        if n == 0 {
            if super::render::terminal_width() != width {
                return Key::Resize;
            }
            continue;
        }
        if n < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Key::Eof;
        }
        let Some(first) = read_byte(fd) else {
            return Key::Eof;
        };
        return match first {
            b'\r' | b'\n' => Key::Enter,
            3 => Key::Interrupt,
            4 => Key::Eof,
            0x1b => {
                // An escape sequence (arrows, function keys) is not a command: drop the rest.
                while pending(fd) {
                    if read_byte(fd).is_none() {
                        break;
                    }
                }
                Key::Char('\u{1b}')
            }
            b if b < 0x80 => Key::Char(b as char),
            b => {
                // One UTF-8 character: the lead byte says how many follow.
                let more = if b >= 0xf0 {
                    3
                } else if b >= 0xe0 {
                    2
                } else {
                    1
                };
                let mut bytes = vec![b];
                for _ in 0..more {
                    match read_byte(fd) {
                        Some(c) => bytes.push(c),
                        None => break,
                    }
                }
                let c = std::str::from_utf8(&bytes)
                    .ok()
                    .and_then(|s| s.chars().next());
                Key::Char(c.unwrap_or('?'))
            }
        };
    }
}

#[cfg(unix)]
fn read_byte(fd: i32) -> Option<u8> {
    let mut b = 0u8;
    // SAFETY: reads one byte into a local.
    let got = unsafe { libc::read(fd, (&mut b as *mut u8).cast(), 1) };
    (got == 1).then_some(b)
}

/// Whether more bytes are ready right now.
#[cfg(unix)]
fn pending(fd: i32) -> bool {
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd we own, no waiting.
    unsafe { libc::poll(&mut pfd, 1, 20) > 0 }
}

#[cfg(not(unix))]
pub fn read_key(_width: usize) -> Key {
    let mut line = String::new();
    match std::io::stdin().read_line(&mut line) {
        Ok(0) | Err(_) => Key::Eof,
        Ok(_) => match line.trim().chars().next() {
            None => Key::Enter,
            Some(c) => Key::Char(c),
        },
    }
}
