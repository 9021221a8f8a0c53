//! The input thread: reads lines, parses them (with the dialect's parser)
//! and sends the commands to the protocol loop, so the loop can answer
//! `stop` or `isready` while it waits. Reading is byte-based: a line that
//! is not UTF-8 is decoded lossily (and then usually refused by the
//! parser), and a line longer than [`MAX_LINE`] is skipped as a whole with
//! an error, without being kept in memory.

use std::io::BufRead;

use crossbeam_channel::{Receiver, unbounded};

use super::command::Command;

/// Longest input line accepted (a `position` with 10,000 moves takes 50 kB).
pub const MAX_LINE: usize = 4 << 20;

/// One input line: a command (UCI/UCCI by default), or why the line was refused.
pub type Input<C = Command> = Result<C, String>;

/// One line as read: the bytes kept (at most [`MAX_LINE`] + 1) and the
/// full length without the newline.
pub struct Line {
    bytes: Vec<u8>,
    len: usize,
}

impl Line {
    /// The bytes kept.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The command `parse` makes of it, or why it is refused.
    fn parse<C>(&self, parse: fn(&str) -> Input<C>) -> Input<C> {
        if self.len > MAX_LINE {
            Err(format!("input line of {} bytes is longer than {MAX_LINE} bytes; ignored", self.len))
        } else {
            parse(&String::from_utf8_lossy(&self.bytes))
        }
    }
}

/// Starts the input thread, which turns each line into a command with
/// `parse`, starting with `first` (a line read before). The channel closes
/// at the end of the input (or on a read error, which ends the input just
/// the same).
pub fn spawn<R, C>(
    mut input: R,
    parse: fn(&str) -> Input<C>,
    first: Option<Line>,
) -> std::io::Result<Receiver<Input<C>>>
where
    R: BufRead + Send + 'static,
    C: Send + 'static,
{
    let (tx, rx) = unbounded();
    std::thread::Builder::new().name("stdin-reader".into()).spawn(move || {
        if let Some(line) = first
            && tx.send(line.parse(parse)).is_err()
        {
            return;
        }
        let mut bytes = Vec::new();
        while let Ok(Some(len)) = read_line(&mut input, &mut bytes) {
            let line = Line { bytes: std::mem::take(&mut bytes), len };
            if tx.send(line.parse(parse)).is_err() {
                break;
            }
            bytes = line.bytes;
        }
    })?;
    Ok(rx)
}

/// Reads up to the first line that is not blank (a line too long to keep
/// is not blank), or `None` at the end of the input. The protocol loop
/// chooses its dialect from this line.
pub fn first_line<R: BufRead>(input: &mut R) -> Option<Line> {
    let mut bytes = Vec::new();
    loop {
        let len = read_line(input, &mut bytes).ok()??;
        if len > MAX_LINE || !bytes.trim_ascii().is_empty() {
            return Some(Line { bytes, len });
        }
    }
}

/// Reads one line into `buf` (without keeping more than [`MAX_LINE`] bytes);
/// returns its full length, or `None` at the end of the input.
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> std::io::Result<Option<usize>> {
    buf.clear();
    let mut len = 0;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok((len > 0).then_some(len));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if len + take <= MAX_LINE + 1 {
            buf.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        len += take;
        if done {
            // The newline does not count towards the limit.
            return Ok(Some(len - 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_limits() {
        let long = vec![b'x'; MAX_LINE + 10];
        let mut input: &[u8] = &[b"a\n".as_slice(), &long, b"\nb\n", &[0xff, b'\n'], b"last"].concat();
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Some(1));
        assert_eq!(buf, b"a\n");
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Some(MAX_LINE + 10));
        assert!(buf.len() <= MAX_LINE + 1);
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Some(1));
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Some(1));
        assert_eq!(buf, [0xff, b'\n']);
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), Some(4));
        assert_eq!(buf, b"last");
        assert_eq!(read_line(&mut input, &mut buf).unwrap(), None);
    }

    #[test]
    fn first_line_skips_blank_lines() {
        let mut input: &[u8] = b"\n \t\r\nxboard\nprotover 2\n";
        assert_eq!(first_line(&mut input).unwrap().bytes(), b"xboard\n");
        assert_eq!(input, b"protover 2\n");
        assert!(first_line(&mut &b"\n\n"[..]).is_none());
        let long = [vec![b' '; MAX_LINE + 10], b"\nuci\n".to_vec()].concat();
        let mut input = long.as_slice();
        let first = first_line(&mut input).unwrap();
        assert_eq!(first.len, MAX_LINE + 10);
        assert!(first.parse(super::super::parse::parse).unwrap_err().contains("longer than"));
        assert_eq!(input, b"uci\n");
    }

    #[test]
    fn thread_parses() {
        let mut input: &[u8] = b"\n uci\n\xff\xfe\nisready";
        let first = first_line(&mut input);
        let rx = spawn(input, super::super::parse::parse, first).unwrap();
        let got: Vec<Input> = rx.iter().collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], Ok(Command::Uci));
        assert!(got[1].as_ref().unwrap_err().contains("unknown command"));
        assert_eq!(got[2], Ok(Command::IsReady));
    }
}
