//! The book file: a 32-byte header, then 16-byte entries sorted by
//! position key and move, numbers little-endian.
//!
//! | bytes | header |
//! |---|---|
//! | 0..16 | `chariot book` and four zero bytes |
//! | 16..18 | format version, u16 (1) |
//! | 18..20 | entry size, u16 (16) |
//! | 20..24 | number of entries, u32 |
//! | 24..32 | FNV-1a 64 checksum of the entry bytes, u64 |
//!
//! | bytes | entry |
//! |---|---|
//! | 0..8 | the position's key: Chariot's Zobrist key ([`Position::key`](crate::board::Position::key): placement and side to move) |
//! | 8..10 | the move, u16: `from * 128 + to`, squares `a0` = 0 … `i0` = 8, `a1` = 9 … `i9` = 89 |
//! | 10..12 | weight, u16, at least 1: how often the move is chosen, relative to the other moves of the position |
//! | 12..14 | games that played the move in this position, u16 (65535 when more) |
//! | 14..16 | the mover's score in those games, u16, per mille (win 1000, draw 500) |
//!
//! Entries are in increasing order of (key, move), each pair at most once,
//! so a position's moves are found by binary search. [`Book::from_bytes`]
//! checks all of it (length, magic, version, checksum, order, moves,
//! weights, scores) and refuses a file that fails any check: it never
//! panics on its input.

use std::fmt;

use crate::types::{Move, fnv1a};

/// The first 16 bytes of every book file.
pub const MAGIC: [u8; 16] = *b"chariot book\0\0\0\0";
/// The format version written and read.
pub const VERSION: u16 = 1;
/// Size of the header in bytes.
pub const HEADER_SIZE: usize = 32;
/// Size of one entry in bytes.
pub const ENTRY_SIZE: usize = 16;
/// The largest book read, in bytes (16 M entries, 256 MB): a larger
/// "book" is refused before it fills the memory.
pub const MAX_BOOK_BYTES: u64 = HEADER_SIZE as u64 + ((ENTRY_SIZE as u64) << 24);

/// One move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's Zobrist key.
    pub key: u64,
    /// The move.
    pub mv: Move,
    /// Relative weight of the move among its position's moves (≥ 1).
    pub weight: u16,
    /// Games that played it there (saturating at 65535).
    pub count: u16,
    /// The mover's score in those games, per mille.
    pub score: u16,
}

impl Entry {
    /// The 16 bytes of the entry.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut b = [0u8; ENTRY_SIZE];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..10].copy_from_slice(&self.mv.raw().to_le_bytes());
        b[10..12].copy_from_slice(&self.weight.to_le_bytes());
        b[12..14].copy_from_slice(&self.count.to_le_bytes());
        b[14..16].copy_from_slice(&self.score.to_le_bytes());
        b
    }

    /// Reads an entry; an error if its move, weight or score is impossible.
    fn from_bytes(b: &[u8; ENTRY_SIZE]) -> Result<Entry, &'static str> {
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let mut key = [0u8; 8];
        key.copy_from_slice(&b[0..8]);
        let mv = Move::from_raw(u16_at(8)).filter(|m| m.is_some()).ok_or("a move off the board")?;
        let (weight, count, score) = (u16_at(10), u16_at(12), u16_at(14));
        if weight == 0 {
            return Err("a move of weight 0");
        }
        if score > 1000 {
            return Err("a score above 1000 per mille");
        }
        Ok(Entry { key: u64::from_le_bytes(key), mv, weight, count, score })
    }
}

/// Why a book file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// Shorter than a header.
    TooShort(usize),
    /// The first bytes are not [`MAGIC`].
    BadMagic,
    /// A version this build does not read.
    Version(u16),
    /// An entry size other than [`ENTRY_SIZE`].
    EntrySize(u16),
    /// The length does not match the entry count of the header.
    Length {
        /// Entries the header announces.
        entries: u32,
        /// Bytes the file has.
        bytes: usize,
    },
    /// The entries do not add up to the header's checksum.
    Checksum,
    /// Entry `index` (0-based) is impossible or out of order.
    BadEntry {
        /// Which entry.
        index: usize,
        /// What is wrong with it.
        what: &'static str,
    },
    /// The header announces more than [`MAX_BOOK_BYTES`].
    TooLarge(u64),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::TooShort(n) => write!(f, "not a Chariot book (only {n} bytes, no header)"),
            BookError::BadMagic => write!(f, "not a Chariot book (wrong magic)"),
            BookError::Version(v) => write!(f, "book format version {v}, this build reads version {VERSION}"),
            BookError::EntrySize(n) => write!(f, "entries of {n} bytes, expected {ENTRY_SIZE}"),
            BookError::Length { entries, bytes } => write!(
                f,
                "truncated or padded: {bytes} bytes, the header announces {entries} entries ({} bytes)",
                HEADER_SIZE as u64 + *entries as u64 * ENTRY_SIZE as u64
            ),
            BookError::Checksum => write!(f, "corrupt (the checksum does not match)"),
            BookError::BadEntry { index, what } => write!(f, "corrupt: entry {} has {what}", index + 1),
            BookError::TooLarge(n) => {
                write!(f, "{n} bytes announced: too large for a book (at most {MAX_BOOK_BYTES})")
            }
        }
    }
}

/// A book in memory: its entries, sorted by (key, move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// A book of `entries` (sorted here); `None` if a (key, move) pair
    /// occurs twice or a weight is 0.
    pub fn from_entries(mut entries: Vec<Entry>) -> Option<Book> {
        entries.sort_by_key(|e| (e.key, e.mv.raw()));
        let unique = entries.windows(2).all(|w| (w[0].key, w[0].mv) != (w[1].key, w[1].mv));
        (unique && entries.iter().all(|e| e.weight > 0 && e.score <= 1000)).then_some(Book { entries })
    }

    /// Reads a book file's bytes, checking everything (see the module comment).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let Some((header, body)) = bytes.split_first_chunk::<HEADER_SIZE>() else {
            return Err(BookError::TooShort(bytes.len()));
        };
        let count = entry_count(header)?;
        if body.len() as u64 != count as u64 * ENTRY_SIZE as u64 {
            return Err(BookError::Length { entries: count, bytes: bytes.len() });
        }
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&header[24..32]);
        if u64::from_le_bytes(sum) != fnv1a(body) {
            return Err(BookError::Checksum);
        }
        let mut entries: Vec<Entry> = Vec::with_capacity(count as usize);
        for (index, chunk) in body.chunks_exact(ENTRY_SIZE).enumerate() {
            let raw: &[u8; ENTRY_SIZE] = chunk.try_into().map_err(|_| BookError::Checksum)?;
            let e = Entry::from_bytes(raw).map_err(|what| BookError::BadEntry { index, what })?;
            if entries.last().is_some_and(|p| (p.key, p.mv.raw()) >= (e.key, e.mv.raw())) {
                return Err(BookError::BadEntry { index, what: "a key and move out of order (or repeated)" });
            }
            entries.push(e);
        }
        Ok(Book { entries })
    }

    /// The book file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(self.entries.len() * ENTRY_SIZE);
        for e in &self.entries {
            body.extend_from_slice(&e.to_bytes());
        }
        let mut out = Vec::with_capacity(HEADER_SIZE + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(ENTRY_SIZE as u16).to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Every entry, in (key, move) order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries of the position with key `key` (binary search).
    pub fn moves(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The number of positions (distinct keys).
    pub fn positions(&self) -> usize {
        self.entries.windows(2).filter(|w| w[0].key != w[1].key).count()
            + usize::from(!self.entries.is_empty())
    }
}

/// Checks a header (magic, version, entry size, a size within
/// [`MAX_BOOK_BYTES`]) and returns the number of entries it announces.
pub fn entry_count(header: &[u8; HEADER_SIZE]) -> Result<u32, BookError> {
    if header[0..16] != MAGIC {
        return Err(BookError::BadMagic);
    }
    let u16_at = |i: usize| u16::from_le_bytes([header[i], header[i + 1]]);
    if u16_at(16) != VERSION {
        return Err(BookError::Version(u16_at(16)));
    }
    if u16_at(18) as usize != ENTRY_SIZE {
        return Err(BookError::EntrySize(u16_at(18)));
    }
    let count = u32::from_le_bytes([header[20], header[21], header[22], header[23]]);
    let size = HEADER_SIZE as u64 + count as u64 * ENTRY_SIZE as u64;
    if size > MAX_BOOK_BYTES {
        return Err(BookError::TooLarge(size));
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, mv: &str, weight: u16) -> Entry {
        Entry { key, mv: Move::parse(mv).unwrap(), weight, count: weight, score: 500 }
    }

    fn sample() -> Book {
        Book::from_entries(vec![
            entry(7, "h2e2", 30),
            entry(3, "b0c2", 1),
            entry(7, "b2e2", 10),
            entry(u64::MAX, "a3a4", 2),
        ])
        .unwrap()
    }

    #[test]
    fn round_trip_and_lookup() {
        let book = sample();
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), HEADER_SIZE + 4 * ENTRY_SIZE);
        assert_eq!(&bytes[..16], b"chariot book\0\0\0\0");
        let back = Book::from_bytes(&bytes).unwrap();
        assert_eq!(back, book);
        assert_eq!(back.positions(), 3);
        let moves: Vec<String> = back.moves(7).iter().map(|e| e.mv.to_string()).collect();
        assert_eq!(moves, ["b2e2", "h2e2"]);
        assert_eq!(back.moves(3).len(), 1);
        assert_eq!(back.moves(u64::MAX).len(), 1);
        assert!(back.moves(4).is_empty() && back.moves(0).is_empty());
        assert_eq!(Book::from_bytes(&Book::default().to_bytes()).unwrap().positions(), 0);
        assert!(Book::from_entries(vec![entry(1, "h2e2", 1), entry(1, "h2e2", 2)]).is_none());
        assert!(Book::from_entries(vec![entry(1, "h2e2", 0)]).is_none());
    }

    #[test]
    fn every_damage_is_refused() {
        let good = sample().to_bytes();
        let refuse = |bytes: &[u8]| Book::from_bytes(bytes).unwrap_err();
        assert_eq!(refuse(&good[..10]), BookError::TooShort(10));
        assert_eq!(refuse(&good[..good.len() - 1]), BookError::Length { entries: 4, bytes: good.len() - 1 });
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(refuse(&longer), BookError::Length { .. }));
        let mut bad = good.clone();
        bad[0] = b'C';
        assert_eq!(refuse(&bad), BookError::BadMagic);
        let mut bad = good.clone();
        bad[16] = 2;
        assert_eq!(refuse(&bad), BookError::Version(2));
        let mut bad = good.clone();
        bad[18] = 24;
        assert_eq!(refuse(&bad), BookError::EntrySize(24));
        let mut huge = good.clone();
        huge[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(refuse(&huge), BookError::TooLarge(32 + 16 * u32::MAX as u64));
        // Any flipped bit in the entries breaks the checksum.
        for i in HEADER_SIZE..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            assert_eq!(refuse(&bad), BookError::Checksum, "byte {i}");
        }
        // Entries that pass the checksum are still checked one by one.
        let with = |e: [u8; ENTRY_SIZE]| {
            let mut b = Book::default().to_bytes();
            b[20] = 1;
            b.extend_from_slice(&e);
            let sum = fnv1a(&b[HEADER_SIZE..]);
            b[24..32].copy_from_slice(&sum.to_le_bytes());
            b
        };
        let e = entry(5, "h2e2", 3).to_bytes();
        assert!(Book::from_bytes(&with(e)).is_ok());
        let mut off_board = e;
        off_board[8..10].copy_from_slice(&(127u16 * 128).to_le_bytes());
        assert!(refuse(&with(off_board)).to_string().contains("a move off the board"));
        let mut zero = e;
        zero[10..12].copy_from_slice(&0u16.to_le_bytes());
        assert!(refuse(&with(zero)).to_string().contains("weight 0"));
        let mut score = e;
        score[14..16].copy_from_slice(&1001u16.to_le_bytes());
        assert!(refuse(&with(score)).to_string().contains("above 1000"));
        // Out of order.
        let mut two = Book::default().to_bytes();
        two[20] = 2;
        two.extend_from_slice(&entry(9, "h2e2", 3).to_bytes());
        two.extend_from_slice(&entry(5, "h2e2", 3).to_bytes());
        let sum = fnv1a(&two[HEADER_SIZE..]);
        two[24..32].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(
            refuse(&two).to_string(),
            "corrupt: entry 2 has a key and move out of order (or repeated)"
        );
    }
}
