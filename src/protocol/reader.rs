//! The input thread: reads lines, parses them and sends the commands to the
//! protocol loop, so the loop can answer `stop` or `isready` while it waits.
//! Reading is byte-based: a line that is not UTF-8 is decoded lossily (and
//! then usually refused by the parser), and a line longer than [`MAX_LINE`]
//! is skipped as a whole with an error, without being kept in memory.

use std::io::BufRead;

use crossbeam_channel::{Receiver, unbounded};

use super::command::Command;
use super::parse;

/// Longest input line accepted (a `position` with 10,000 moves takes 50 kB).
pub const MAX_LINE: usize = 4 << 20;

/// One input line: a command, or why the line was refused.
pub type Input = Result<Command, String>;

/// Starts the input thread. The channel closes at the end of the input
/// (or on a read error, which ends the input just the same).
pub fn spawn<R: BufRead + Send + 'static>(mut input: R) -> std::io::Result<Receiver<Input>> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new().name("stdin-reader".into()).spawn(move || {
        let mut buf = Vec::new();
        while let Ok(Some(len)) = read_line(&mut input, &mut buf) {
            let item = if len > MAX_LINE {
                Err(format!("input line of {len} bytes is longer than {MAX_LINE} bytes; ignored"))
            } else {
                parse::parse(&String::from_utf8_lossy(&buf))
            };
            if tx.send(item).is_err() {
                break;
            }
        }
    })?;
    Ok(rx)
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
    fn thread_parses() {
        let rx = spawn(&b"uci\n\xff\xfe\nisready"[..]).unwrap();
        let got: Vec<Input> = rx.iter().collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[0], Ok(Command::Uci));
        assert!(got[1].as_ref().unwrap_err().contains("unknown command"));
        assert_eq!(got[2], Ok(Command::IsReady));
    }
}
