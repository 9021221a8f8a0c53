//! The transposition table, shared by every search thread.
//!
//! Each entry is two `AtomicU64` words: the data (move, score, static
//! evaluation, depth, bound, age) and the key XOR-ed with the data. A reader
//! accepts an entry only if the two words XOR back to its key, so an entry
//! torn by two threads writing at once reads as a miss, never as a wrong
//! entry. All accesses are relaxed atomics: no locks and no data races.
//! Four entries (64 bytes, one cache line) form a bucket.

use std::alloc::{Layout, alloc_zeroed, handle_alloc_error};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use crate::types::Move;

/// Bound type of a stored score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Bound {
    /// No score stored (only a move or an evaluation).
    None = 0,
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// A copy of one table entry, as returned by [`TranspositionTable::probe`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Best move found ([`Move::NONE`] if none).
    pub mv: Move,
    /// Score, relative to the node (see [`crate::types::score::to_tt`]).
    pub score: i32,
    /// Static evaluation of the position.
    pub eval: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
    /// Whether the node was on a principal variation.
    pub pv: bool,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Slots per bucket: four 16-byte slots fill one 64-byte cache line.
const BUCKET_SLOTS: usize = 4;
const BUCKET_BYTES: usize = BUCKET_SLOTS * std::mem::size_of::<Slot>();

const DEPTH_OFFSET: i32 = 8;

fn pack(e: &TtEntry, age: u8) -> u64 {
    (e.mv.raw() as u64)
        | ((e.score as i16 as u16 as u64) << 16)
        | ((e.eval as i16 as u16 as u64) << 32)
        | (((e.depth + DEPTH_OFFSET).clamp(0, 255) as u64) << 48)
        | ((e.bound as u64) << 56)
        | ((e.pv as u64) << 58)
        | (((age & 0x1F) as u64) << 59)
}

fn unpack(d: u64) -> (TtEntry, u8) {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    let entry = TtEntry {
        mv: Move::from_raw(d as u16).unwrap_or(Move::NONE),
        score: (d >> 16) as u16 as i16 as i32,
        eval: (d >> 32) as u16 as i16 as i32,
        depth: ((d >> 48) & 0xFF) as i32 - DEPTH_OFFSET,
        bound,
        pv: (d >> 58) & 1 != 0,
    };
    (entry, ((d >> 59) & 0x1F) as u8)
}

/// The shared transposition table. See the module comment.
pub struct TranspositionTable {
    /// `buckets * BUCKET_SLOTS` slots starting at `offset`, plus the padding
    /// before `offset` that puts every bucket on its own cache line (and a
    /// large table on a huge-page boundary).
    slots: Box<[Slot]>,
    offset: usize,
    buckets: usize,
    age: AtomicU8,
    /// A search has used the table since it was made or cleared.
    used: AtomicBool,
}

impl TranspositionTable {
    /// An empty table of about `mb` megabytes (at least one bucket); aborts
    /// like any allocation if the memory cannot be had.
    pub fn new(mb: usize) -> TranspositionTable {
        let table = Self::try_new(mb);
        table.unwrap_or_else(|| handle_alloc_error(Layout::new::<Slot>()))
    }

    /// An empty table of about `mb` megabytes, or None if the memory cannot
    /// be had.
    pub fn try_new(mb: usize) -> Option<TranspositionTable> {
        let buckets = (mb.max(1).checked_mul(1 << 20)? / BUCKET_BYTES).max(1);
        // A table of at least one huge page starts on a huge-page boundary,
        // so that the system can back it with huge pages; a smaller one on
        // a cache line.
        let bytes = buckets * BUCKET_BYTES;
        let align = if bytes >= HUGE_PAGE { HUGE_PAGE } else { BUCKET_BYTES };
        let slot_size = std::mem::size_of::<Slot>();
        let slots = zeroed_slots(buckets.checked_mul(BUCKET_SLOTS)? + align / slot_size - 1)?;
        let offset = (align - slots.as_ptr() as usize % align) % align / slot_size;
        if align == HUGE_PAGE {
            let table = &slots[offset..offset + bytes / slot_size];
            advise_huge_pages(table);
            if bytes <= IN_PLACE_MB << 20 {
                // One write per huge page maps the whole table now (where
                // huge pages are to be had), not in the middle of a search.
                for slot in table.iter().step_by(HUGE_PAGE / slot_size) {
                    slot.data.store(0, Ordering::Relaxed);
                }
            }
        }
        Some(TranspositionTable {
            slots,
            offset,
            buckets,
            age: AtomicU8::new(0),
            used: AtomicBool::new(false),
        })
    }

    /// Size in megabytes.
    pub fn size_mb(&self) -> usize {
        (self.buckets * BUCKET_BYTES) >> 20
    }

    /// True if a search has used the table since it was made or cleared.
    pub fn is_used(&self) -> bool {
        self.used.load(Ordering::Relaxed)
    }

    /// Empties the table, splitting the work over `threads` threads. Every
    /// page is written, so a table whose memory the system has not handed
    /// out yet (a large one used little) is better replaced by a new one.
    pub fn clear(&self, threads: usize) {
        let threads = threads.clamp(1, 64);
        let chunk = self.slots.len().div_ceil(threads);
        std::thread::scope(|s| {
            for part in self.slots.chunks(chunk) {
                s.spawn(move || {
                    for slot in part {
                        slot.check.store(0, Ordering::Relaxed);
                        slot.data.store(0, Ordering::Relaxed);
                    }
                });
            }
        });
        self.age.store(0, Ordering::Relaxed);
        self.used.store(false, Ordering::Relaxed);
    }

    /// Starts a new search: entries from earlier searches become replaceable first.
    pub fn new_search(&self) {
        self.used.store(true, Ordering::Relaxed);
        self.age.store(self.age.load(Ordering::Relaxed).wrapping_add(1) & 0x1F, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Slot] {
        let i = ((key as u128 * self.buckets as u128) >> 64) as usize;
        let start = self.offset + i * BUCKET_SLOTS;
        &self.slots[start..start + BUCKET_SLOTS]
    }

    /// Hints the CPU to load the bucket of `key` (before the move is made).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: prefetching is only a hint; it never faults and reads nothing we use.
            unsafe { _mm_prefetch(p, _MM_HINT_T0) };
        }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores an entry for `key`, replacing the same position, else the
    /// shallowest / oldest entry of the bucket. Keeps the old move if the new one is none.
    pub fn store(&self, key: u64, mut entry: TtEntry) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            if data == 0 || slot.check.load(Ordering::Relaxed) ^ data == key {
                if data != 0 {
                    let (old, _) = unpack(data);
                    if entry.mv == Move::NONE {
                        entry.mv = old.mv;
                    }
                    // Keep a deeper entry of the same position unless the new one is exact.
                    if entry.bound != Bound::Exact && old.depth > entry.depth + 4 && old.bound != Bound::None
                    {
                        return;
                    }
                }
                victim = slot;
                break;
            }
            let (old, old_age) = unpack(data);
            let stale = (age.wrapping_sub(old_age) & 0x1F) as i32;
            let worth = old.depth - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = pack(&entry, age);
        victim.data.store(data, Ordering::Relaxed);
        victim.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.buckets.min(250);
        let mut used = 0;
        for i in 0..sample {
            let start = self.offset + i * BUCKET_SLOTS;
            for slot in &self.slots[start..start + BUCKET_SLOTS] {
                let data = slot.data.load(Ordering::Relaxed);
                if data != 0 && unpack(data).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4)) as u32
    }
}

/// The size of a huge page (x86-64 and most aarch64 systems).
const HUGE_PAGE: usize = 2 << 20;
/// Tables up to this size (MB) have all their memory mapped: when made, and
/// by clearing, which writes zeros over them. Larger ones are mapped as they
/// are used (a table far larger than the memory at hand must not fail at
/// once) and cleared by making a new one.
pub const IN_PLACE_MB: usize = 1024;

/// Asks the system to back `slots` (which start on a huge-page boundary)
/// with huge pages where it can: one page fault then maps 2 MB instead of
/// 4 KB (a search on a fresh table spends far less time in the kernel), and
/// a probe rarely misses the TLB. Only a hint; nothing is lost if ignored.
fn advise_huge_pages(slots: &[Slot]) {
    #[cfg(target_os = "linux")]
    {
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
        }
        let len = std::mem::size_of_val(slots) / HUGE_PAGE * HUGE_PAGE;
        // SAFETY: the range is page-aligned (the caller aligned it to a huge
        // page) and lies inside one live allocation that we own; MADV_HUGEPAGE
        // changes how the pages are backed, never their contents. A failure
        // (old kernel, huge pages disabled) leaves the memory as it was.
        unsafe { madvise(slots.as_ptr() as *mut std::ffi::c_void, len, MADV_HUGEPAGE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// Allocates `count` zeroed slots. All-zero slots are an empty table. The
/// slots' alignment is small enough for the allocator to use `calloc`, whose
/// large blocks come straight from the OS as untouched zero pages: even a
/// table of many gigabytes is allocated at once, and memory is only used as
/// the search writes to it. None if the memory cannot be had.
fn zeroed_slots(count: usize) -> Option<Box<[Slot]>> {
    let layout = Layout::array::<Slot>(count).ok()?;
    // SAFETY: the layout has non-zero size (count >= 1, a Slot is 16 bytes).
    let ptr = unsafe { alloc_zeroed(layout) } as *mut Slot;
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` is a fresh allocation with the layout of `[Slot; count]`;
    // a Slot is two AtomicU64s, for which all-zero bytes are a valid value;
    // Box<[Slot]> will free it with the same layout.
    Some(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, count)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_impossible_sizes() {
        assert!(TranspositionTable::try_new(usize::MAX).is_none());
        assert!(TranspositionTable::try_new(usize::MAX >> 20).is_none());
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let e = TtEntry {
            mv: Move::parse("h2e2").unwrap(),
            score: -1234,
            eval: 56,
            depth: 7,
            bound: Bound::Lower,
            pv: true,
        };
        assert_eq!(tt.probe(42), None);
        tt.store(42, e);
        assert_eq!(tt.probe(42), Some(e));
        assert_eq!(tt.probe(43), None);
        let qs = TtEntry { depth: -3, mv: Move::NONE, ..e };
        tt.store(42, TtEntry { bound: Bound::Exact, ..qs });
        assert_eq!(tt.probe(42).unwrap().mv, e.mv, "the old move is kept");
        assert_eq!(tt.probe(42).unwrap().depth, -3);
        assert!(tt.hashfull() <= 1);
        tt.clear(2);
        assert_eq!(tt.probe(42), None);
    }
}
