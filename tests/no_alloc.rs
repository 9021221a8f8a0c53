//! Move generation, make and unmake never touch the heap once the undo stack
//! has room: a counting global allocator watches a perft run. Nor does the
//! network evaluation along a search path once its stack is allocated.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use chariot::board::{GenType, Position};
use chariot::eval::Evaluator;
use std::sync::Arc;

use chariot::eval::nnue::Network;
use chariot::eval::nnue::features::FeatureSet;
use chariot::eval::nnue::format::NetworkData;
use chariot::tools::perft::perft;
use chariot::types::MoveList;

struct Counting;

thread_local! {
    /// Allocations made by this thread (the tests run side by side, and the
    /// harness allocates as they end).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// wrapper only counts allocations.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn generate_make_unmake_do_not_allocate() {
    let case = &common::perft_cases()[0];
    let (depth, expected) = *case.counts.iter().rfind(|(_, n)| *n < 5_000_000).unwrap();
    let mut pos = Position::from_fen(&case.fen).unwrap();
    pos.reserve(64);
    let before = allocations();
    let nodes = perft(&mut pos, depth);
    let mut list = MoveList::new();
    pos.generate(GenType::Captures, &mut list);
    pos.generate(GenType::Quiets, &mut list);
    let after = allocations();
    assert_eq!(nodes, expected);
    assert_eq!(after - before, 0, "allocations during perft");
}

/// Every node of a full-width tree of `depth` plies evaluated through `ev`;
/// returns the sum of the evaluations.
fn walk(ev: &mut Evaluator, pos: &mut Position, depth: u32) -> i64 {
    let mut sum = i64::from(ev.evaluate(pos));
    if depth == 0 {
        return sum;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::Captures, &mut list);
    pos.generate(GenType::Quiets, &mut list);
    for &m in list.iter() {
        if !pos.is_legal(m) {
            continue;
        }
        ev.do_move(pos, m);
        sum += walk(ev, pos, depth - 1);
        ev.undo_move(pos);
    }
    if !pos.in_check() {
        ev.do_null_move(pos);
        sum += walk(ev, pos, depth - 1);
        ev.undo_null_move(pos);
    }
    sum
}

#[test]
fn network_evaluation_does_not_allocate() {
    // The built-in network, and king-bucketed ones (whose king moves go
    // through the accumulator cache), 128 and 256 units wide.
    let bucketed = NetworkData::random(FeatureSet::KingBuckets, 128, 5, 300);
    let wide = NetworkData::random(FeatureSet::KingBuckets, 256, 6, 300);
    let nets = [
        Network::embedded(),
        Arc::new(Network::from_data(&bucketed, "kb".into()).unwrap()),
        Arc::new(Network::from_data(&wide, "kb256".into()).unwrap()),
    ];
    // One evaluator through them all, the 128-unit network again at the end:
    // a network of another width gets its stack when it is set, and
    // neither the reset at the root nor the search allocates.
    let mut ev = Evaluator::new(16);
    for net in nets.iter().chain(&nets[..1]) {
        let mut pos = Position::from_fen(&common::perft_cases()[0].fen).unwrap();
        pos.reserve(64);
        ev.set_network(Some(Arc::clone(net)));
        let before = allocations();
        ev.reset(&pos);
        let sum = walk(&mut ev, &mut pos, 3);
        let after = allocations();
        assert_ne!(sum, 0);
        assert_eq!(after - before, 0, "allocations while evaluating");
    }
}
