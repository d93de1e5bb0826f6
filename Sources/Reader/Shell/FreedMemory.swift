import Foundation
import ReaderCore
import Synchronization

/// Gives back to the system the memory that work over the whole library freed.
///
/// The reader's startup work (the search index, the field groups, the marks, the sort, the group
/// counts) runs on threads of its own and frees most of what it allocates: for a 46k-reference
/// library, some 90 MB of scratch. glibc keeps freed memory in each thread's arena rather than
/// returning it, so the reader stayed at ~200 MB resident with ~110 MB in use; `malloc_trim`
/// returns the free pages of every arena, once the last such work under way ends (not while
/// other work would fault the pages straight back in, nor between keys). It is looked up at
/// run time: it is not in the Glibc module, and a C library without it (musl) leaves the
/// memory as it was.
public enum FreedMemory {
    /// Whole-library work under way: while one is alive. Released when the work has run (or
    /// was dropped unrun, its closure with it).
    final class Work: Sendable {
        fileprivate init() {}

        deinit {
            if FreedMemory.underWay.withLock({ count in
                count -= 1
                return count == 0
            }) {
                FreedMemory.giveBack()
            }
        }
    }

    private static let underWay = Mutex(0)

    /// Marks whole-library work as under way until the value returned is released.
    static func workBegins() -> Work {
        underWay.withLock { $0 += 1 }
        return Work()
    }

    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        // A null handle is RTLD_DEFAULT: the symbol wherever the program's libraries have it.
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()

    /// Returns the free pages of every malloc arena to the system (a no-op without glibc).
    static func giveBack() {
        _ = trim?(0)
    }

    private typealias SetOption = @convention(c) (Int32, Int32) -> Int32

    private static let setOption: SetOption? = {
        guard let symbol = dlsym(nil, "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: SetOption.self)
    }()

    /// glibc's `M_MMAP_THRESHOLD` (malloc.h; not in the Glibc module either).
    private static let mmapThresholdOption: Int32 = -3

    /// The size from which a block gets pages of its own, given back when it is freed.
    ///
    /// glibc starts at 128 KB and raises that threshold to the size of the largest such block
    /// freed (up to 32 MB), and its trim threshold to twice that: after the startup work freed
    /// its first big scratch array, every later block up to that size came from the arenas, and
    /// the holes its scratch left there stayed resident once the reader settled, beyond what
    /// `malloc_trim` returns. Fixed at 16 MB: settled RSS 156 → 146 MB on the 46k-reference bench
    /// library (bench/startup-bench.sh, the same binary with and without it, one run). 4 MB gave
    /// the same RSS but made the `s` key slower (p50 4.2 → 5.1 ms: a list of its size got fresh
    /// pages each time), and 1 MB slowed the search index's build by a fifth.
    public static let largeBlock: Int32 = 16 << 20

    /// Fixes the threshold at `largeBlock` for the rest of the process; false when the C library
    /// has no such setting (not glibc) or refused it.
    @discardableResult
    public static func keepLargeBlocksApart() -> Bool {
        setOption?(mmapThresholdOption, largeBlock) == 1
    }
}

extension LibraryEffect {
    /// True for the work that goes over the whole library and leaves its scratch freed behind
    /// (see `FreedMemory`).
    var freesScratch: Bool {
        switch self {
        case .loadFieldGroups, .countGroups, .computeMarks, .buildSearchIndex, .computeSort, .collectKeywords: true
        case .computeGroupMembers, .locateFiles, .loadConflicts: false
        }
    }
}
