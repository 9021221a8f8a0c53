//! Move generation, make and unmake never touch the heap once the undo stack
//! has room: a counting global allocator watches a perft run.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use chariot::board::{GenType, Position};
use chariot::tools::perft::perft;
use chariot::types::MoveList;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// wrapper only counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn generate_make_unmake_do_not_allocate() {
    chariot::init();
    let case = &common::perft_cases()[0];
    let (depth, expected) = *case.counts.iter().rfind(|(_, n)| *n < 5_000_000).unwrap();
    let mut pos = Position::from_fen(&case.fen).unwrap();
    pos.reserve(64);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let nodes = perft(&mut pos, depth);
    let mut list = MoveList::new();
    pos.generate(GenType::Captures, &mut list);
    pos.generate(GenType::Quiets, &mut list);
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(nodes, expected);
    assert_eq!(after - before, 0, "allocations during perft");
}
