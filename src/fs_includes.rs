//! Include chunks from folders (`-I DIR`), for the CLI and tests. The only part of the library that touches the
//! file system; everything else receives chunks through [`IncludeResolver`].
//!
//! Every file below a root is registered under its path relative to the root, and under its bare file name when
//! that name is unique across all roots (the engine keys its chunks by file name). Keys never resolve outside a
//! root: the frontend refuses `..` that climbs above the root and absolute keys, and symbolic links whose target
//! leaves their root are not registered. Keys relative to the main file (`./x`) are looked up in the main file's
//! folder with the same confinement.

use crate::{IncludeResolver, MapResolver};
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Default)]
pub struct FsIncludes {
    by_key: BTreeMap<String, PathBuf>,
    main_dir: Option<PathBuf>,
}

impl FsIncludes {
    /// Register every file below `roots` (the first root wins a key claimed twice). `main_file`'s folder answers
    /// keys no root has.
    pub fn new(roots: &[PathBuf], main_file: Option<&Path>) -> std::io::Result<Self> {
        let mut by_key = BTreeMap::new();
        let mut bare: HashMap<String, Vec<PathBuf>> = HashMap::new();
        for root in roots {
            let canonical_root = fs::canonicalize(root)?;
            let mut files = Vec::new();
            walk(&canonical_root, &canonical_root, &mut files, 0);
            for (rel, path) in files {
                if let Some(name) = Path::new(&rel).file_name().and_then(|n| n.to_str()) {
                    bare.entry(name.to_owned()).or_default().push(path.clone());
                }
                by_key.entry(rel).or_insert(path);
            }
        }
        for (name, paths) in bare {
            let mut unique = paths.clone();
            unique.sort();
            unique.dedup();
            if unique.len() == 1 {
                by_key.entry(name).or_insert_with(|| unique[0].clone());
            }
        }
        let main_dir =
            main_file.and_then(|f| f.parent()).map(|d| if d.as_os_str().is_empty() { Path::new(".") } else { d });
        let main_dir = main_dir.and_then(|d| fs::canonicalize(d).ok());
        Ok(FsIncludes { by_key, main_dir })
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.by_key.keys().map(String::as_str)
    }

    /// Every registered chunk read into memory, under the same keys (for benchmarks and fuzzers, which must not
    /// measure or repeat file I/O). Unreadable files are left out; invalid UTF-8 is replaced.
    pub fn preload(&self) -> MapResolver {
        let mut map = MapResolver::new();
        for (key, path) in &self.by_key {
            if let Ok(bytes) = fs::read(path) {
                map.insert(key.clone(), String::from_utf8_lossy(&bytes).into_owned());
            }
        }
        map
    }
}

/// The chunks below `roots`, keyed as [`FsIncludes`] keys them, read into memory.
pub fn preload(roots: &[PathBuf]) -> std::io::Result<MapResolver> {
    Ok(FsIncludes::new(roots, None)?.preload())
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>, depth: usize) {
    if depth > 32 {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        // Follow links only while they stay inside the root.
        let Ok(target) = fs::canonicalize(&path) else {
            continue;
        };
        if !target.starts_with(root) {
            continue;
        }
        if target.is_dir() {
            walk(root, &path, out, depth + 1);
        } else if target.is_file() {
            if let Ok(rel) = path.strip_prefix(root) {
                let key = rel.components().filter_map(|c| c.as_os_str().to_str()).collect::<Vec<_>>().join("/");
                out.push((key, target));
            }
        }
    }
}

impl IncludeResolver for FsIncludes {
    fn load(&self, key: &str) -> Option<String> {
        if let Some(path) = self.by_key.get(key) {
            return read(path);
        }
        let dir = self.main_dir.as_ref()?;
        let target = fs::canonicalize(dir.join(key)).ok()?;
        if !target.starts_with(dir) || !target.is_file() {
            return None;
        }
        read(&target)
    }
}

fn read(path: &Path) -> Option<String> {
    let bytes = fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}
