//! A move or copy of a folder file streams it into its blob and the commit streams it out again:
//! the bytes arrive intact whatever mix of data and holes the file has (a hole stays a hole), and
//! both halves of a move land.

use folio_vfs::{Selection, Tree};

use super::fixture::{Folder, p};

/// 1 MiB chunks as the copy reads them: data, a hole, data straddling a chunk edge, a trailing
/// hole (which only the length makes).
fn holey() -> Vec<u8> {
    let mut data = vec![0u8; 9 * 1024 * 1024 + 123];
    data[..5].copy_from_slice(b"start");
    data[2 * 1024 * 1024 - 3..2 * 1024 * 1024 + 3].copy_from_slice(b"edge!!");
    data[8 * 1024 * 1024 + 7] = 7;
    data
}

#[test]
fn a_moved_and_a_copied_folder_file_commit_byte_for_byte() {
    let f = Folder::new("");
    let content = holey();
    std::fs::write(f.host("/big.bin"), &content).unwrap();
    std::fs::write(f.host("/small.txt"), b"small").unwrap();
    let o = f.open();
    o.mv(&p("/big.bin"), &p("/moved/big.bin")).unwrap();
    o.cp(&p("/moved/big.bin"), &p("/copy/big.bin")).unwrap();
    o.cp(&p("/small.txt"), &p("/copy/small.txt")).unwrap();
    assert_eq!(o.read(&p("/moved/big.bin")).unwrap(), content);
    assert_eq!(o.read_range(&p("/copy/big.bin"), 2 * 1024 * 1024 - 3, 6).unwrap(), b"edge!!");
    o.commit(&Selection::All, &[]).unwrap();
    assert!(!f.host("/big.bin").exists());
    for path in ["/moved/big.bin", "/copy/big.bin"] {
        assert_eq!(std::fs::read(f.host(path)).unwrap(), content, "{path}");
    }
    assert_eq!(std::fs::read(f.host("/copy/small.txt")).unwrap(), b"small");
    assert_eq!(std::fs::read(f.host("/small.txt")).unwrap(), b"small");
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // Only the four chunks that hold data were written; the holes stayed holes.
        let probe = f.tmp.path().join("probe");
        std::fs::File::create(&probe).unwrap().set_len(8 * 1024 * 1024).unwrap();
        let sparse_here = std::fs::metadata(&probe).unwrap().blocks() == 0;
        let meta = std::fs::metadata(f.host("/moved/big.bin")).unwrap();
        if !sparse_here {
            println!("this filesystem keeps no holes: the hole check is skipped");
            return;
        }
        assert!(meta.blocks() * 512 <= 4 * 1024 * 1024, "{} blocks for {} bytes", meta.blocks(), meta.len());
    }
}
