//! `chariot datagen --merge --out FILE SHARD…`: joins shards — data files
//! written by runs of one seed and settings over adjoining game ranges
//! (`--first-game`) — into the file one run over the whole range writes,
//! byte for byte: one header, then each shard's records in game order.
//!
//! Each shard's progress file ([`super::progress`]) says which
//! run and which games it holds; the merge refuses shards without one,
//! shards of different runs, unfinished shards (a file longer or shorter
//! than its progress file says) and ranges that overlap or leave a gap.
//! It writes FILE's progress file too, so that a run with the same settings
//! and a larger `--games` goes on from the merged file's last game. Games
//! files (`--games-out`) have no header: the shards' games files
//! concatenated in game order are the whole run's.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::format::{self, MAGIC, RECORD_SIZE};
use super::progress::{self, Progress};

/// One shard: its file, its run's settings and the games it holds.
struct Shard {
    path: PathBuf,
    settings: String,
    first: u64,
    end: u64,
    bytes: u64,
}

/// Reads and checks a shard's header and progress file.
fn shard(path: &Path) -> Result<Shard, String> {
    let shown = path.display();
    let progress_path = progress::path_for(path);
    let p = Progress::read(&progress_path)?.ok_or_else(|| {
        format!(
            "{shown} has no progress file ({}): the merge needs it to know which games the shard holds",
            progress_path.display()
        )
    })?;
    let mut file = File::open(path).map_err(|e| format!("cannot open {shown}: {e}"))?;
    let len = file.metadata().map_err(|e| format!("{shown}: {e}"))?.len();
    if len != p.bytes || len % RECORD_SIZE as u64 != 0 {
        return Err(format!(
            "{shown} is {len} bytes but its progress file says {}: an unfinished or changed shard (run its command again to finish it)",
            p.bytes
        ));
    }
    let mut head = [0u8; RECORD_SIZE];
    file.read_exact(&mut head)
        .map_err(|_| format!("{shown} is not a chariot datagen file (too short for a header)"))?;
    format::check_header(&head).map_err(|e| format!("{shown}: {e}"))?;
    let (settings, first) = progress::split_first_game(&p.run);
    if p.games < first {
        return Err(format!(
            "{}: ends at game {} before its first game {first}",
            progress_path.display(),
            p.games
        ));
    }
    Ok(Shard { path: path.to_path_buf(), settings: settings.to_string(), first, end: p.games, bytes: len })
}

/// Merges `shards` into the new file `out` (and its progress file).
pub fn merge(out: &Path, shards: &[PathBuf]) -> Result<(), String> {
    if shards.is_empty() {
        return Err("--merge needs the shards' data files after the options".into());
    }
    let mut parts = shards.iter().map(|p| shard(p)).collect::<Result<Vec<_>, _>>()?;
    parts.sort_by_key(|s| (s.first, s.end));
    for pair in parts.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.settings != b.settings {
            return Err(format!(
                "{} and {} are shards of different runs ({} / {})",
                a.path.display(),
                b.path.display(),
                a.settings,
                b.settings
            ));
        }
        if b.first < a.end {
            return Err(format!(
                "{} (games {}..{}) and {} (games {}..{}) overlap",
                a.path.display(),
                a.first,
                a.end,
                b.path.display(),
                b.first,
                b.end
            ));
        }
        if b.first > a.end {
            return Err(format!(
                "games {}..{} are missing between {} and {}",
                a.end,
                b.first,
                a.path.display(),
                b.path.display()
            ));
        }
    }
    let shown = out.display();
    let progress_path = progress::path_for(out);
    if progress_path.exists() {
        return Err(format!("{} exists: --merge writes a new file", progress_path.display()));
    }
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(out)
        .map_err(|e| format!("cannot create {shown} (--merge writes a new file): {e}"))?;
    let mut writer = BufWriter::new(file);
    let failed = |e: io::Error| format!("cannot write {shown}: {e}");
    writer.write_all(&format::header()).map_err(failed)?;
    for s in &parts {
        let name = s.path.display();
        let mut input = File::open(&s.path).map_err(|e| format!("cannot open {name}: {e}"))?;
        input.seek(SeekFrom::Start(RECORD_SIZE as u64)).map_err(|e| format!("cannot read {name}: {e}"))?;
        // Only what the progress file counts (the file may not grow meanwhile).
        let mut body = BufReader::new(input.take(s.bytes - RECORD_SIZE as u64));
        let mut record = [0u8; RECORD_SIZE];
        loop {
            match body.read_exact(&mut record) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(format!("cannot read {name}: {e}")),
            }
            if record.starts_with(&MAGIC) {
                return Err(format!(
                    "{name} holds another data file after its header (files joined with cat): not one run's shard"
                ));
            }
            writer.write_all(&record).map_err(failed)?;
        }
    }
    writer.flush().map_err(failed)?;
    let (first, end) = (parts[0].first, parts[parts.len() - 1].end);
    let bytes = RECORD_SIZE as u64 + parts.iter().map(|s| s.bytes - RECORD_SIZE as u64).sum::<u64>();
    Progress {
        run: progress::with_first_game(&parts[0].settings, first),
        games: end,
        bytes,
        games_out_bytes: None,
    }
    .write(&progress_path)?;
    eprintln!(
        "datagen: merged {} shard(s) into {shown}: games {first}..{end}, {} records",
        parts.len(),
        bytes / RECORD_SIZE as u64 - 1
    );
    Ok(())
}
