//! Reuse of token buffers (and of a directive list) across compiles on one thread. An editor recompiles on every keystroke and a build
//! compiles thousands of variants; the token vectors of a level (every included chunk's tokens appended) are the
//! largest allocations of the frontend, and growing them again for every compile costs more than lexing. A
//! thread keeps at most [`KEEP`] cleared buffers of at most [`MAX_TOKENS`] tokens each, and one cleared vector
//! of a level's directives (at most [`MAX_DIRECTIVES`]). Only capacity is kept: every buffer comes back empty.

use crate::preprocess::Directive;
use crate::token::Token;
use std::cell::RefCell;

const KEEP: usize = 8;
const MAX_TOKENS: usize = 1 << 20;
const MAX_DIRECTIVES: usize = 1 << 14;

thread_local! {
    static TOKENS: RefCell<Vec<Vec<Token>>> = const { RefCell::new(Vec::new()) };
    static DIRECTIVES: RefCell<Vec<Directive>> = const { RefCell::new(Vec::new()) };
}

/// An empty vector for a level's directives: the thread's kept one (no capacity if there is none). A level with
/// includes collects a directive per line of every chunk (`PBR.gs`: several hundred of about a hundred bytes), and
/// growing that vector again on every compile copied it about four times.
pub(crate) fn take_directives() -> Vec<Directive> {
    DIRECTIVES.with(|kept| std::mem::take(&mut *kept.borrow_mut()))
}

/// Give a level's directives back: its contents are dropped now, and the vector is kept unless it is very large or
/// smaller than the one already kept.
pub(crate) fn give_directives(mut v: Vec<Directive>) {
    if !cleared_to_keep(&mut v, MAX_DIRECTIVES) {
        return;
    }
    DIRECTIVES.with(|kept| {
        let mut kept = kept.borrow_mut();
        if v.capacity() > kept.capacity() {
            *kept = v;
        }
    });
}

/// An empty buffer with room for at least `min` tokens: the smallest kept one that is large enough, else the
/// largest kept one (grown), else a new one.
pub(crate) fn take(min: usize) -> Vec<Token> {
    take_where(min, false)
}

/// The largest kept buffer (at least `min` tokens): for a level's output, which grows by every inclusion.
pub(crate) fn take_largest(min: usize) -> Vec<Token> {
    take_where(min, true)
}

fn take_where(min: usize, largest: bool) -> Vec<Token> {
    let kept = TOKENS.with(|pool| {
        let mut pool = pool.borrow_mut();
        let biggest = (0..pool.len()).max_by_key(|&i| pool[i].capacity());
        let pick = if largest {
            biggest
        } else {
            let fits = (0..pool.len()).filter(|&i| pool[i].capacity() >= min).min_by_key(|&i| pool[i].capacity());
            fits.or(biggest)
        };
        pick.map(|i| pool.swap_remove(i))
    });
    match kept {
        Some(mut v) => {
            v.reserve(min);
            v
        }
        None => Vec::with_capacity(min),
    }
}

/// Give a buffer back for reuse (dropped when the pool is full or the buffer is very large).
pub(crate) fn give(mut v: Vec<Token>) {
    if !cleared_to_keep(&mut v, MAX_TOKENS) {
        return;
    }
    TOKENS.with(|pool| {
        let mut pool = pool.borrow_mut();
        if pool.len() < KEEP {
            pool.push(v);
        } else if let Some(i) = (0..pool.len()).min_by_key(|&i| pool[i].capacity()) {
            if pool[i].capacity() < v.capacity() {
                pool[i] = v;
            }
        }
    });
}

/// Empties `v`; whether it is worth keeping (it has room, and at most `max` elements' worth).
fn cleared_to_keep<T>(v: &mut Vec<T>, max: usize) -> bool {
    v.clear();
    v.capacity() != 0 && v.capacity() <= max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_empty_and_large_enough() {
        let mut v = take(100);
        assert!(v.capacity() >= 100);
        v.push(Token {
            kind: crate::token::TokenKind::Ident,
            sym: shaderlab_ir::Interner::EMPTY,
            span: Default::default(),
            line_start: true,
        });
        let cap = v.capacity();
        give(v);
        let again = take(10);
        assert!(again.is_empty());
        assert_eq!(again.capacity(), cap, "the kept buffer is reused");
        let bigger = take(cap * 4);
        assert!(bigger.capacity() >= cap * 4 && bigger.is_empty());
        give(bigger);
        give(Vec::with_capacity(8));
        assert!(take_largest(1).capacity() >= cap * 4, "a level's output takes the largest buffer");
    }

    #[test]
    fn the_directive_list_comes_back_empty_and_bounded() {
        let mut v = take_directives();
        v.push(Directive::Else(Default::default()));
        v.reserve(40);
        let cap = v.capacity();
        give_directives(v);
        let again = take_directives();
        assert!(again.is_empty(), "no directive of an earlier compile is seen");
        assert_eq!(again.capacity(), cap, "the kept vector is reused");
        // Taken while kept elsewhere: a nested compile on the thread starts from an empty vector of its own.
        assert_eq!(take_directives().capacity(), 0);
        give_directives(again);
        give_directives(Vec::with_capacity(MAX_DIRECTIVES + 1));
        assert_eq!(take_directives().capacity(), cap, "a very large vector is not kept");
    }
}
