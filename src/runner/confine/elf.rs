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
use goblin::elf::header::Header;
use goblin::elf::program_header::{ProgramHeader, PT_DYNAMIC, PT_INTERP, PT_LOAD};
use goblin::elf::section_header::{SectionHeader, SHN_UNDEF, SHT_DYNSYM};
use goblin::elf::sym::Sym;
use goblin::elf::Elf;
use scroll::Pread;

/// The most read of any one part of a file (a header table, the dynamic section, its strings):
/// real ones are a few kilobytes, and a corrupt size must not make tutor read gigabytes.
const LARGEST_PART: u64 = 1 << 20;

/// An ELF file's headers, read without reading the file whole (the standard library alone is
/// megabytes, a learner's program may be hundreds, and these are read before every graded run).
struct ElfFile {
    file: File,
    ctx: Ctx,
    header: Header,
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
        let mut elf = ElfFile { file, ctx, header, segments: Vec::new() };
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

    /// The file contents of the first segment of type `kind`, up to its first NUL, as a path.
    fn path_in(&self, kind: u32) -> Option<PathBuf> {
        let name = self.segment(kind)?;
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        let name = std::str::from_utf8(&name[..end]).ok()?;
        (!name.is_empty()).then(|| PathBuf::from(name))
    }

    /// The names of the dynamic symbols it defines, from its section of dynamic symbols (none
    /// without one, as in a static program).
    fn defined_dynamic_symbols(&self) -> Option<Vec<String>> {
        if self.header.e_shoff == 0 {
            return Some(Vec::new());
        }
        let count = usize::from(self.header.e_shnum);
        let table =
            self.bytes_at(self.header.e_shoff, u64::from(self.header.e_shnum) * u64::from(self.header.e_shentsize))?;
        // The table read on its own: `parse` takes offset 0 for "no sections".
        let sections = SectionHeader::parse_from(&table, 0, count, self.ctx).ok()?;
        let Some(symbols) = sections.iter().find(|s| s.sh_type == SHT_DYNSYM) else { return Some(Vec::new()) };
        let names = sections.get(usize::try_from(symbols.sh_link).ok()?)?;
        let (symbols, names) =
            (self.bytes_at(symbols.sh_offset, symbols.sh_size)?, self.bytes_at(names.sh_offset, names.sh_size)?);
        let mut defined = Vec::new();
        let mut offset = 0;
        while let Ok(symbol) = symbols.gread_with::<Sym>(&mut offset, self.ctx) {
            if symbol.st_shndx == SHN_UNDEF as usize || symbol.st_name == 0 {
                continue;
            }
            let tail = names.get(symbol.st_name..)?;
            let end = tail.iter().position(|&b| b == 0)?;
            defined.push(String::from_utf8_lossy(&tail[..end]).into_owned());
        }
        Some(defined)
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

/// What starting `executable` opens: its dynamic loader, and the libraries of [`Loads::libraries`].
pub(super) struct Loads {
    /// The program interpreter (the dynamic loader), `None` for a static or non-ELF file. 32-
    /// and 64-bit, either byte order.
    pub interpreter: Option<PathBuf>,
    /// The shared libraries it and, in turn, those libraries load from their run paths, each
    /// once, resolved to its file (symbolic links followed, as Landlock follows them). A library
    /// that is in none of the run paths is left to the loader's other places.
    pub libraries: Vec<PathBuf>,
}

/// Reads what starting `executable` opens, the program's own headers read once.
pub(super) fn loads(executable: &Path) -> Loads {
    let program = executable.canonicalize().unwrap_or_else(|_| executable.to_path_buf());
    let Some(elf) = ElfFile::open(&program) else { return Loads { interpreter: None, libraries: Vec::new() } };
    let interpreter = elf.path_in(PT_INTERP);
    let mut libraries: Vec<PathBuf> = Vec::new();
    let mut pending = vec![(program, elf)];
    while let Some((object, elf)) = pending.pop() {
        let Some((needed, run_paths)) = elf.dynamic_names() else { continue };
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
            if !libraries.contains(&file) {
                libraries.push(file.clone());
                if let Some(library) = ElfFile::open(&file) {
                    pending.push((file, library));
                }
            }
        }
    }
    Loads { interpreter, libraries }
}

/// `executable`'s ELF type, loader and needed libraries (see `super::linked_shape`).
pub(super) fn shape(executable: &Path) -> Option<(u16, Option<PathBuf>, Vec<String>)> {
    let elf = ElfFile::open(executable)?;
    let (needed, _) = elf.dynamic_names()?;
    Some((elf.header.e_type, elf.path_in(PT_INTERP), needed))
}

/// The dynamic symbols `executable` defines (exports). A program exports a symbol only when a
/// shared library it is linked with defines or calls one of that name, and the loader then binds
/// the library to the program's: a graded program that exports anything replaces code or data of
/// the kit or the standard library (`#[export_name]`, `global_asm!`). Empty for a file that is no
/// ELF program.
pub(super) fn exported_symbols(executable: &Path) -> Vec<String> {
    ElfFile::open(executable).and_then(|elf| elf.defined_dynamic_symbols()).unwrap_or_default()
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
        assert_eq!(loads(Path::new("/etc/hostname")).libraries, Vec::<PathBuf>::new());
        assert_eq!(loads(Path::new("/etc/hostname")).interpreter, None);
        assert_eq!(loads(Path::new("/nonexistent/program")).libraries, Vec::<PathBuf>::new());
    }
}
