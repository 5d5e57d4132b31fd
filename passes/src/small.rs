//! A list of `Copy` items kept inline up to a few items, on the heap beyond that.
//!
//! The passes' tables hold one value per expression; most lists in them are short (one symbol for a name, a few
//! components for a constant). Keeping those inline spares an allocation when a table is filled and a free when
//! it is dropped.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Up to `N` items inline, more on the heap. Reads as a slice (through `Deref`).
///
/// The tag is an explicit byte: without it, a list whose inline items are smaller than a `Vec` keeps its tag in
/// the vector's capacity, and every read compares a word against the niche values (measured slower).
#[derive(Clone)]
#[repr(u8)]
pub enum SmallList<T: Copy, const N: usize> {
    /// The first `len` items of `items` (the rest are filler copies).
    Inline { len: u8, items: [T; N] },
    /// More than `N` items, or none (an empty `Vec` does not allocate).
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> SmallList<T, N> {
    /// An empty list.
    pub const fn new() -> Self {
        SmallList::Heap(Vec::new())
    }

    /// A list of one item.
    pub fn one(item: T) -> Self {
        SmallList::from_slice(&[item])
    }

    /// A list of copies of `items`.
    pub fn from_slice(items: &[T]) -> Self {
        match items.first() {
            Some(&first) if items.len() <= N => SmallList::Inline {
                len: items.len() as u8,
                items: std::array::from_fn(|i| items.get(i).copied().unwrap_or(first)),
            },
            _ => SmallList::Heap(items.to_vec()),
        }
    }

    /// Append an item (moving the list to the heap when it outgrows `N`).
    pub fn push(&mut self, item: T) {
        match self {
            SmallList::Inline { len, items } if (*len as usize) < N => {
                items[*len as usize] = item;
                *len += 1;
            }
            SmallList::Inline { items, .. } => {
                let mut heap = Vec::with_capacity(2 * N);
                heap.extend_from_slice(items);
                heap.push(item);
                *self = SmallList::Heap(heap);
            }
            SmallList::Heap(heap) if heap.is_empty() && N > 0 => *self = SmallList::Inline { len: 1, items: [item; N] },
            SmallList::Heap(heap) => heap.push(item),
        }
    }

    pub fn as_slice(&self) -> &[T] {
        self
    }
}

impl<T: Copy, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        SmallList::new()
    }
}

impl<T: Copy, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            SmallList::Inline { len, items } => &items[..*len as usize],
            SmallList::Heap(heap) => heap,
        }
    }
}

impl<T: Copy, const N: usize> DerefMut for SmallList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            SmallList::Inline { len, items } => &mut items[..*len as usize],
            SmallList::Heap(heap) => heap,
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for SmallList<T, N> {
    /// Up to `N` items are gathered in a local array and the list is made once at the end (pushing them one by
    /// one would move the whole list at the first push and test where it is at every push).
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        let Some(first) = iter.next() else { return SmallList::new() };
        if N == 0 {
            return SmallList::Heap(std::iter::once(first).chain(iter).collect());
        }
        let mut items = [first; N];
        let mut len = 1;
        while len < N {
            match iter.next() {
                Some(item) => items[len] = item,
                None => return SmallList::Inline { len: len as u8, items },
            }
            len += 1;
        }
        match iter.next() {
            None => SmallList::Inline { len: len as u8, items },
            Some(item) => {
                let mut heap = Vec::with_capacity(2 * N);
                heap.extend_from_slice(&items);
                heap.push(item);
                heap.extend(iter);
                SmallList::Heap(heap)
            }
        }
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a SmallList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy, const N: usize> Extend<T> for SmallList<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<T: Copy, const N: usize> From<Vec<T>> for SmallList<T, N> {
    /// Inline when it fits (the vector is freed), else the vector itself.
    fn from(items: Vec<T>) -> Self {
        if items.len() <= N {
            SmallList::from_slice(&items)
        } else {
            SmallList::Heap(items)
        }
    }
}

/// Equal when the items are, wherever they are kept.
impl<T: Copy + PartialEq, const N: usize> PartialEq for SmallList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for SmallList<T, N> {}

/// Formats as the slice of items.
impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for SmallList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

/// One item inline, more on the heap (for items that are not `Copy`). Reads as a slice (through `Deref`).
#[derive(Clone, Debug)]
pub enum OneOrMore<T> {
    One(T),
    More(Vec<T>),
}

impl<T> OneOrMore<T> {
    pub fn as_slice(&self) -> &[T] {
        self
    }

    /// Append an item (moving the list to the heap on the second).
    pub fn push(&mut self, item: T) {
        match self {
            OneOrMore::More(items) => items.push(item),
            OneOrMore::One(_) => {
                if let OneOrMore::One(first) = std::mem::replace(self, OneOrMore::More(Vec::new())) {
                    *self = OneOrMore::More(vec![first, item]);
                }
            }
        }
    }
}

impl<T> Deref for OneOrMore<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            OneOrMore::One(item) => std::slice::from_ref(item),
            OneOrMore::More(items) => items,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SmallList;

    #[test]
    fn grows_from_inline_to_heap() {
        let mut list: SmallList<u32, 2> = SmallList::new();
        assert!(list.is_empty());
        list.push(1);
        list.push(2);
        assert!(matches!(list, SmallList::Inline { len: 2, .. }));
        list.push(3);
        assert!(matches!(list, SmallList::Heap(_)));
        assert_eq!(list.as_slice(), &[1, 2, 3]);
        assert_eq!(list, (1..4).collect());
        assert_eq!(SmallList::<u32, 2>::from(vec![7]), SmallList::one(7));
        assert_eq!(format!("{:?}", SmallList::<u32, 2>::from_slice(&[4, 5])), "[4, 5]");
    }

    #[test]
    fn collects_inline_up_to_n_then_on_the_heap() {
        for n in 0..7u32 {
            let list: SmallList<u32, 3> = (0..n).collect();
            assert_eq!(list.as_slice(), (0..n).collect::<Vec<_>>().as_slice());
            assert_eq!(matches!(list, SmallList::Inline { .. }), (1..=3).contains(&n));
        }
        let none: SmallList<u32, 0> = (0..2).collect();
        assert_eq!(none.as_slice(), &[0, 1]);
    }

    #[test]
    fn one_or_more_keeps_order() {
        let mut list = super::OneOrMore::One(String::from("a"));
        assert_eq!(&*list, ["a"]);
        list.push("b".into());
        list.push("c".into());
        assert_eq!(&*list, ["a", "b", "c"]);
    }
}
