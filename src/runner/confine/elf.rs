//! What starting a program opens besides the program itself: its dynamic loader (`PT_INTERP`)
//! and the shared libraries it finds through its own run paths (`DT_RUNPATH`, or `DT_RPATH`
//! without one), as the loader finds them. The graded programs link the course's kit and the
//! standard library that way (`-C prefer-dynamic -C rpath`, see `runner::cargo`), and their
//! Landlock rules must name those files exactly.
//!
//! Libraries the loader finds in the system's folders are not listed: the subject may read
//! beneath those anyway. Neither are `LD_LIBRARY_PATH` (the subject's environment is empty) and
//! the loader's other variables (`$LIB`, `$PLATFORM`), which rustc does not write.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use goblin::container::Ctx;
use goblin::elf::dynamic::{Dyn, DT_NEEDED, DT_NULL, DT_RPATH, DT_RUNPATH, DT_STRSZ, DT_STRTAB};
use goblin::elf::program_header::{ProgramHeader, PT_DYNAMIC, PT_INTERP, PT_LOAD};
use goblin::elf::Elf;
use scroll::Pread;

/// The most read of any one part of a file (a header table, the dynamic section, its strings):
/// real ones are a few kilobytes, and a corrupt size must not make tutor read gigabytes.
const LARGEST_PART: u64 = 1 << 20;

/// An ELF file's program headers, read without reading the file whole (the standard library
/// alone is megabytes, and this is read before every graded run).
struct ElfFile {
    file: File,
    ctx: Ctx,
    segments: Vec<ProgramHeader>,
}

impl ElfFile {
    /// `None` for anything that is not a readable ELF file.
    fn open(path: &Path) -> Option<ElfFile> {
        let file = File::open(path).ok()?;
        let mut start = [0u8; 64];
        let read = file.read_at(&mut start, 0).ok()?;
        let header = Elf::parse_header(&start[..read]).ok()?;
        let ctx = Ctx::new(header.container().ok()?, header.endianness().ok()?);
        let size = u64::from(header.e_phnum) * u64::from(header.e_phentsize);
        let mut elf = ElfFile { file, ctx, segments: Vec::new() };
        let table = elf.bytes_at(header.e_phoff, size)?;
        elf.segments = ProgramHeader::parse(&table, 0, usize::from(header.e_phnum), ctx).ok()?;
        Some(elf)
    }

    fn bytes_at(&self, offset: u64, len: u64) -> Option<Vec<u8>> {
        if len > LARGEST_PART {
            return None;
        }
        let mut bytes = vec![0u8; usize::try_from(len).ok()?];
        self.file.read_exact_at(&mut bytes, offset).ok()?;
        Some(bytes)
    }

    /// The file contents of the first segment of type `kind`.
    fn segment(&self, kind: u32) -> Option<Vec<u8>> {
        let segment = self.segments.iter().find(|s| s.p_type == kind)?;
        self.bytes_at(segment.p_offset, segment.p_filesz)
    }

    /// Where the byte loaded at `address` lies in the file.
    fn file_offset(&self, address: u64) -> Option<u64> {
        let load = self.segments.iter().filter(|s| s.p_type == PT_LOAD);
        let segment = load.into_iter().find(|s| address >= s.p_vaddr && address - s.p_vaddr < s.p_filesz)?;
        Some(address - segment.p_vaddr + segment.p_offset)
    }

    /// The libraries it needs (`DT_NEEDED`) and its run paths (`DT_RUNPATH`, else `DT_RPATH`,
    /// as the loader prefers), from the dynamic section.
    fn dynamic_names(&self) -> Option<(Vec<String>, Vec<String>)> {
        let section = self.segment(PT_DYNAMIC)?;
        let mut entries = Vec::new();
        let mut offset = 0;
        while let Ok(entry) = section.gread_with::<Dyn>(&mut offset, self.ctx) {
            if entry.d_tag == DT_NULL {
                break;
            }
            entries.push((entry.d_tag, entry.d_val));
        }
        let value = |tag| entries.iter().find(|(t, _)| *t == tag).map(|&(_, v)| v);
        let strings = self.bytes_at(self.file_offset(value(DT_STRTAB)?)?, value(DT_STRSZ)?)?;
        let string = |at: u64| -> Option<String> {
            let tail = strings.get(usize::try_from(at).ok()?..)?;
            let end = tail.iter().position(|&b| b == 0)?;
            String::from_utf8(tail[..end].to_vec()).ok()
        };
        let all = |tag| entries.iter().filter(|(t, _)| *t == tag).filter_map(|&(_, v)| string(v)).collect::<Vec<_>>();
        let runpaths = all(DT_RUNPATH);
        Some((all(DT_NEEDED), if runpaths.is_empty() { all(DT_RPATH) } else { runpaths }))
    }
}

/// The program interpreter (the dynamic loader) named in an ELF file, `None` for a static or
/// non-ELF file. 32- and 64-bit, either byte order.
pub(super) fn interpreter(path: &Path) -> Option<PathBuf> {
    let name = ElfFile::open(path)?.segment(PT_INTERP)?;
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    let name = std::str::from_utf8(&name[..end]).ok()?;
    (!name.is_empty()).then(|| PathBuf::from(name))
}

/// The dynamic symbols `executable` defines (exports). A program exports a symbol only when a
/// shared library it is linked with defines or calls one of that name, and the loader then binds
/// the library to the program's: a graded program that exports anything replaces code or data of
/// the kit or the standard library (`#[export_name]`, `global_asm!`). Empty for a file that is no
/// ELF program.
pub(super) fn exported_symbols(executable: &Path) -> Vec<String> {
    let Ok(bytes) = std::fs::read(executable) else { return Vec::new() };
    let Ok(elf) = Elf::parse(&bytes) else { return Vec::new() };
    let defined = elf.dynsyms.iter().filter(|s| s.st_shndx != 0 && s.st_name != 0);
    defined.filter_map(|s| elf.dynstrtab.get_at(s.st_name)).map(str::to_string).collect()
}

/// The shared libraries `executable` and, in turn, those libraries load from their run paths,
/// each once, resolved to its file (symbolic links followed, as Landlock follows them). A
/// library that is in none of the run paths is left to the loader's other places.
pub(super) fn run_path_libraries(executable: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut pending = vec![executable.canonicalize().unwrap_or_else(|_| executable.to_path_buf())];
    while let Some(object) = pending.pop() {
        let Some((needed, run_paths)) = ElfFile::open(&object).and_then(|elf| elf.dynamic_names()) else { continue };
        let origin = object.parent().unwrap_or(Path::new("/"));
        let folders: Vec<PathBuf> = run_paths
            .iter()
            .flat_map(|list| list.split(':'))
            .filter_map(|entry| expand_origin(entry, origin))
            .collect();
        for name in needed.iter().filter(|name| !name.contains('/')) {
            let Some(file) = folders.iter().map(|folder| folder.join(name)).find(|file| file.is_file()) else {
                continue;
            };
            let file = file.canonicalize().unwrap_or(file);
            if !found.contains(&file) {
                found.push(file.clone());
                pending.push(file);
            }
        }
    }
    found
}

/// A run-path entry with `$ORIGIN` (or `${ORIGIN}`) replaced by `origin`, the folder of the
/// file that names it; `None` for an empty or relative entry (the loader would read it against
/// the working folder, which no graded program's run path uses) or another variable.
fn expand_origin(entry: &str, origin: &Path) -> Option<PathBuf> {
    let origin = origin.to_str()?;
    let expanded = entry.replace("${ORIGIN}", origin).replace("$ORIGIN", origin);
    (!expanded.contains('$') && expanded.starts_with('/')).then(|| PathBuf::from(expanded))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_is_the_folder_of_the_file_and_other_entries_are_left_out() {
        let origin = Path::new("/w/target/debug/deps");
        assert_eq!(expand_origin("$ORIGIN/", origin), Some(PathBuf::from("/w/target/debug/deps/")));
        assert_eq!(expand_origin("${ORIGIN}/../lib", origin), Some(PathBuf::from("/w/target/debug/deps/../lib")));
        assert_eq!(expand_origin("/opt/lib", origin), Some(PathBuf::from("/opt/lib")));
        assert_eq!(expand_origin("lib", origin), None);
        assert_eq!(expand_origin("", origin), None);
        assert_eq!(expand_origin("$LIB/x", origin), None);
    }

    #[test]
    fn a_program_without_run_paths_loads_nothing_from_them_and_a_text_file_is_no_program() {
        assert_eq!(run_path_libraries(Path::new("/etc/hostname")), Vec::<PathBuf>::new());
        assert_eq!(interpreter(Path::new("/etc/hostname")), None);
        assert_eq!(run_path_libraries(Path::new("/nonexistent/program")), Vec::<PathBuf>::new());
    }
}
